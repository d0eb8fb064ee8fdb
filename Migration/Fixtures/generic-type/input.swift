import Foundation

/// A cache generic over its value: the alternatives require `Value: Sendable` only where needed.
final class Cache<Value>: @unchecked Sendable {
    private var storage: [String: Value] = [:]

    func value(forKey key: String, completion: @escaping (Value?, Error?) -> Void) {
        completion(storage[key], nil)
    }

    func removeAll(completion: @escaping () -> Void) {
        storage.removeAll()
        completion()
    }
}
