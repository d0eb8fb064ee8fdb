import Foundation
import Vow

/// A cache generic over its value: the alternatives require `Value: Sendable` only where needed.
final class Cache<Value>: @unchecked Sendable {
    private var storage: [String: Value] = [:]

    func value(forKey key: String, completion: @escaping (Value?, Error?) -> Void) {
        completion(storage[key], nil)
    }

    /// Promise-based alternative to `value(forKey:completion:)`, added by vow-migrate.
    func value(forKey key: String) -> Promise<Value> where Value: Sendable {
        Promise { seal in
            value(forKey: key) { value, error in
                seal.resolve(value, error)
            }
        }
    }

    func removeAll(completion: @escaping () -> Void) {
        storage.removeAll()
        completion()
    }

    /// Promise-based alternative to `removeAll(completion:)`, added by vow-migrate.
    func removeAll() -> Guarantee<Void> {
        Guarantee { resolve in
            removeAll {
                resolve(())
            }
        }
    }
}
