import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

/// A cache generic over its value: the alternatives require `Value: Sendable` only where needed.
final class Cache<Value>: @unchecked Sendable {
    private var storage: [String: Value] = [:]

    @available(*, renamed: "value(forKey:)")
    func value(forKey key: String, completion: @escaping (Value?, Error?) -> Void) {
        completion(storage[key], nil)
    }

    /// Async alternative to `value(forKey:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func value(forKey key: String) async throws -> Value where Value: Sendable {
        try await withCheckedThrowingContinuation { continuation in
            value(forKey: key) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "value(forKey:completion:)"))
                }
            }
        }
    }

    @available(*, renamed: "removeAll()")
    func removeAll(completion: @escaping () -> Void) {
        storage.removeAll()
        completion()
    }

    /// Async alternative to `removeAll(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func removeAll() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            removeAll {
                continuation.resume()
            }
        }
    }
}
