import Foundation

/// Stands for a vendored SDK: read for knowledge, never rewritten.
typealias VendorCompletion = @Sendable (Error?) -> Void

struct Item: Sendable {
    let id: Int
}

extension ItemService {
    /// The vendor already ships a promise-free sync check; nothing here is migrated.
    func ping(completion: @escaping VendorCompletion) {
        completion(nil)
    }
}
