import Foundation

enum StorageError: Error {
    case full
}

final class Storage: @unchecked Sendable {
    private var keys: Set<String> = []

    @available(*, renamed: "delete(key:)")
    public func delete(key: String, completion: @escaping @Sendable (Error?) -> Void) {
        keys.remove(key)
        completion(nil)
    }

    /// Async alternative to `delete(key:completion:)`, added by vow-migrate.
    public nonisolated(nonsending) func delete(key: String) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            delete(key: key) { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
            }
        }
    }

    @available(*, renamed: "write(_:key:)")
    func write(_ data: Data, key: String, completion: @escaping @Sendable (StorageError?) -> Void) {
        completion(data.count > 1_000 ? .full : nil)
    }

    /// Async alternative to `write(_:key:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func write(_ data: Data, key: String) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            write(data, key: key) { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
            }
        }
    }
}
