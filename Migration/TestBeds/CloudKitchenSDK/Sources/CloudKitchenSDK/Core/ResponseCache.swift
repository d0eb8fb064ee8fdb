import Foundation

/// When a GET may be answered from the cache.
public enum CachePolicy {
    /// A fresh cached response is used; otherwise the server is asked.
    case useCache
    /// The server is always asked; its answer replaces the cached one.
    case reloadIgnoringCache
    /// Only the cache answers; a miss is `SDKError.notFound`.
    case cacheOnly
}

/// An in-memory cache of response bodies with a lifetime, on its own serial queue so that
/// readers on any thread see a consistent state without the callers locking.
public final class ResponseCache {
    private struct Entry {
        var body: Data
        var storedAt: Date
    }

    private let queue = DispatchQueue(label: "com.cloudkitchen.response-cache")
    private var entries: [String: Entry] = [:]
    private let lifetime: TimeInterval
    private let now: () -> Date
    private(set) var hits = 0
    private(set) var misses = 0

    public init(lifetime: TimeInterval, now: @escaping () -> Date = Date.init) {
        self.lifetime = lifetime
        self.now = now
    }

    /// The cached body for `key`, or nil when there is none or it is too old.
    public func body(forKey key: String, completion: @escaping (Data?) -> Void) {
        queue.async {
            guard let entry = self.entries[key], self.now().timeIntervalSince(entry.storedAt) < self.lifetime else {
                self.misses += 1
                completion(nil)
                return
            }
            self.hits += 1
            completion(entry.body)
        }
    }

    /// Stores a body; `completion` runs once it is visible to readers.
    public func store(_ body: Data, forKey key: String, completion: (() -> Void)? = nil) {
        queue.async {
            self.entries[key] = Entry(body: body, storedAt: self.now())
            completion?()
        }
    }

    /// Drops the entries whose key starts with `prefix` (all of them for an empty prefix),
    /// reporting how many were dropped.
    public func removeEntries(withPrefix prefix: String = "", completion: ((Int) -> Void)? = nil) {
        queue.async {
            let keys = self.entries.keys.filter { $0.hasPrefix(prefix) }
            keys.forEach { self.entries[$0] = nil }
            completion?(keys.count)
        }
    }

    /// The number of entries, fresh or not, read synchronously.
    public var count: Int {
        queue.sync { entries.count }
    }

    /// Hits and misses so far, read synchronously.
    public var statistics: (hits: Int, misses: Int) {
        queue.sync { (hits, misses) }
    }
}
