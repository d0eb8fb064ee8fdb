import Foundation
import PromiseKit

/// Form checks, as promises so that they start a chain like any request.
enum Validation {
    static func email(_ text: String) -> Promise<String> {
        return Promise { seal in
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard trimmed.contains("@"), trimmed.contains(".") else {
                seal.reject(AppError.validation("Enter a valid email address."))
                return
            }
            seal.fulfill(trimmed.lowercased())
        }
    }

    static func quantity(_ value: Int, inStock: Bool) -> Promise<Int> {
        if !inStock {
            return Promise(error: AppError.validation("Sold out."))
        }
        return Promise.value(min(max(value, 1), 20))
    }
}
