import Foundation
import PromiseKit

/// What the app remembers between launches: the last good answer of the catalog endpoints, read
/// when the network fails.
final class ResponseCache: @unchecked Sendable {
    static let shared = ResponseCache()
    private let lock = NSLock()
    private var entries: [String: String] = [:]

    func store<T: Encodable>(_ value: T, for key: String) {
        guard let data = try? JSONEncoder().encode(value), let text = String(data: data, encoding: .utf8) else { return }
        lock.lock(); entries[key] = text; lock.unlock()
    }

    func value<T: Decodable>(_ type: T.Type, for key: String) -> T? {
        lock.lock()
        let text = entries[key]
        lock.unlock()
        guard let text else { return nil }
        return try? JSONDecoder().decode(type, from: Data(text.utf8))
    }

    /// The cached value as a guarantee, for `recover` handlers that must not fail.
    func guarantee<T: Decodable & Sendable>(_ type: T.Type, for key: String, orElse fallback: T) -> Guarantee<T> {
        Guarantee.value(value(type, for: key) ?? fallback)
    }

    /// The cached value as a promise that fails with `error` when nothing is cached.
    func promise<T: Decodable & Sendable>(_ type: T.Type, for key: String, otherwise error: Error) -> Promise<T> {
        if let cached = value(type, for: key) {
            Effects.shared.record("cache: \(key)")
            return Promise.value(cached)
        }
        return Promise(error: error)
    }

    func removeAll() {
        lock.lock(); entries = [:]; lock.unlock()
    }
}
