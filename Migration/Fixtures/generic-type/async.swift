import Foundation
import Vow

/// A cache generic over its value: the alternatives require `Value: Sendable` only where needed.
final class Cache<Value>: @unchecked Sendable {
    private var storage: [String: Value] = [:]

    @available(*, renamed: "value(forKey:)")
    func value(forKey key: String, completion: @escaping (Value?, Error?) -> Void) {
        completion(storage[key], nil)
    }

    /// Async alternative to `value(forKey:completion:)`, added by vow-migrate.
    func value(forKey key: String) async throws -> Value where Value: Sendable {
        try await withCheckedThrowingContinuation { continuation in
            value(forKey: key) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: PMKError.invalidCallingConvention)
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
    func removeAll() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            removeAll {
                continuation.resume()
            }
        }
    }
}
