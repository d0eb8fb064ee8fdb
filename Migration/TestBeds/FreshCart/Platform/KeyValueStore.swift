import Foundation

/// A stand-in for UserDefaults: synchronous, thread-safe, cleared between scenarios.
final class KeyValueStore: @unchecked Sendable {
    static let standard = KeyValueStore()
    private let lock = NSLock()
    private var values: [String: String] = [:]

    func string(forKey key: String) -> String? {
        lock.lock(); defer { lock.unlock() }
        return values[key]
    }

    func set(_ value: String?, forKey key: String) {
        lock.lock(); values[key] = value; lock.unlock()
    }

    func removeAll() {
        lock.lock(); values = [:]; lock.unlock()
    }
}
