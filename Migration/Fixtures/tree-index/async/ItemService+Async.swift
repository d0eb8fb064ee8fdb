import Foundation

extension ItemService {
    func list() async throws -> [Item] {
        try await withCheckedThrowingContinuation { continuation in
            list { result in
                continuation.resume(with: result)
            }
        }
    }
}
