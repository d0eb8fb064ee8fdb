import Dispatch
import Foundation

// Persistence in the callback style: a key-value store answering on its own queue.

enum StoreError: Error {
    case missing(String)
    case full
}

final class Store: @unchecked Sendable {
    private let queue = DispatchQueue(label: "store")
    private let lock = NSLock()
    private var values: [String: Data] = [:]

    func load(_ key: String, completion: @escaping @Sendable (Data?, Error?) -> Void) {
        queue.async {
            self.lock.lock()
            let value = self.values[key]
            self.lock.unlock()
            if let value { completion(value, nil) } else { completion(nil, StoreError.missing(key)) }
        }
    }

    func save(_ data: Data, for key: String, completion: @escaping @Sendable (Error?) -> Void) {
        queue.async {
            self.lock.lock()
            self.values[key] = data
            self.lock.unlock()
            completion(nil)
        }
    }

    func exists(_ key: String, completion: @escaping @Sendable (Bool) -> Void) {
        queue.async {
            self.lock.lock()
            let found = self.values[key] != nil
            self.lock.unlock()
            completion(found)
        }
    }

    func count(completion: @escaping @Sendable (Int) -> Void) {
        queue.async {
            self.lock.lock()
            let count = self.values.count
            self.lock.unlock()
            completion(count)
        }
    }
}
