import Dispatch
import Foundation

// Persistence in the callback style: a key-value store answering on the backend queue.

enum StoreError: Error {
    case missing(String)
    case full
}

final class Store: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String: Data] = ["draft": Data("draft".utf8)]

    func load(_ key: String, completion: @escaping @Sendable (Data?, Error?) -> Void) {
        answer("load") { failing in
            self.lock.lock()
            let value = self.values[key]
            self.lock.unlock()
            if failing {
                completion(nil, StoreError.full)
            } else if let value {
                completion(value, nil)
            } else {
                completion(nil, StoreError.missing(key))
            }
        }
    }

    func save(_ data: Data, for key: String, completion: @escaping @Sendable (Error?) -> Void) {
        answer("save") { failing in
            if failing {
                completion(StoreError.full)
                return
            }
            self.lock.lock()
            self.values[key] = data
            self.lock.unlock()
            completion(nil)
        }
    }

    func exists(_ key: String, completion: @escaping @Sendable (Bool) -> Void) {
        answer("exists") { failing in
            self.lock.lock()
            let found = self.values[key] != nil
            self.lock.unlock()
            completion(found && !failing)
        }
    }

    func count(completion: @escaping @Sendable (Int) -> Void) {
        answer("count") { _ in
            self.lock.lock()
            let count = self.values.count
            self.lock.unlock()
            completion(count)
        }
    }
}
