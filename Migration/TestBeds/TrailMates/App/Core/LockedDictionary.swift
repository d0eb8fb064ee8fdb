import Foundation

/// A dictionary that callbacks on any queue can fill at once.
final class LockedDictionary<Key: Hashable, Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Key: Value] = [:]

    subscript(key: Key) -> Value? {
        get {
            lock.lock(); defer { lock.unlock() }
            return storage[key]
        }
        set {
            lock.lock(); storage[key] = newValue; lock.unlock()
        }
    }

    var count: Int {
        lock.lock(); defer { lock.unlock() }
        return storage.count
    }
}
