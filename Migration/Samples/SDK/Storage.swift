import Foundation

/// A key-value cache on disk, with callbacks on a private queue.
final class DiskCache: @unchecked Sendable {
    private let directory: URL
    private let queue = DispatchQueue(label: "sdk.disk-cache")
    private var sizes: [String: Int] = [:]
    let capacity: Int

    init(directory: URL, capacity: Int = 50_000_000) {
        self.directory = directory
        self.capacity = capacity
    }

    private func file(for key: String) -> URL {
        directory.appendingPathComponent(key.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? key)
    }

    func data(forKey key: String, completion: @escaping @Sendable (Data?, Error?) -> Void) {
        let file = self.file(for: key)
        queue.async {
            do {
                completion(try Data(contentsOf: file), nil)
            } catch {
                completion(nil, error)
            }
        }
    }

    func store(_ data: Data, forKey key: String, completion: @escaping VoidCompletion) {
        let file = self.file(for: key)
        queue.async { [self] in
            guard sizes.values.reduce(0, +) + data.count <= capacity else {
                completion(SDKError.storageFull)
                return
            }
            do {
                try data.write(to: file)
                sizes[key] = data.count
                completion(nil)
            } catch {
                completion(error)
            }
        }
    }

    func removeValue(forKey key: String, completion: @escaping @Sendable (Result<Bool, Error>) -> Void) {
        let file = self.file(for: key)
        queue.async { [self] in
            let existed = sizes.removeValue(forKey: key) != nil
            try? FileManager.default.removeItem(at: file)
            completion(.success(existed))
        }
    }

    func removeAll(completion: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            sizes.removeAll()
            completion()
        }
    }

    func totalSize(completion: @escaping @Sendable (Int) -> Void) {
        queue.async { [self] in
            completion(sizes.values.reduce(0, +))
        }
    }

    func keys(matching prefix: String, completion: @escaping @Sendable ([String]) -> Void) {
        queue.async { [self] in
            completion(sizes.keys.filter { $0.hasPrefix(prefix) }.sorted())
        }
    }

    /// Trims to a size; reports each removed key as it goes, so its handler runs many times.
    func trim(toSize size: Int, removed: @escaping @Sendable (String) -> Void, completion: @escaping VoidCompletion) {
        queue.async { [self] in
            var total = sizes.values.reduce(0, +)
            for key in sizes.keys.sorted() where total > size {
                total -= sizes[key] ?? 0
                sizes[key] = nil
                removed(key)
            }
            completion(nil)
        }
    }

    /// Reads a value and decodes it.
    func value<T: Decodable & Sendable>(forKey key: String, completion: @escaping CompletionHandler<T>) {
        data(forKey: key) { data, error in
            guard let data else {
                completion(.failure(error ?? SDKError.notFound))
                return
            }
            do {
                completion(.success(try JSONDecoder().decode(T.self, from: data)))
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// Encodes and stores a value.
    func setValue<T: Encodable & Sendable>(_ value: T, forKey key: String, completion: @escaping VoidCompletion) {
        do {
            store(try JSONEncoder().encode(value), forKey: key, completion: completion)
        } catch {
            completion(error)
        }
    }

    /// Reads many keys at once; missing ones are absent from the result.
    func values(forKeys keys: [String], completion: @escaping @Sendable ([String: Data]) -> Void) {
        let group = DispatchGroup()
        let found = Protected<[String: Data]>([:])
        for key in keys {
            group.enter()
            data(forKey: key) { data, _ in
                if let data { found.write { $0[key] = data } }
                group.leave()
            }
        }
        group.notify(queue: queue) {
            completion(found.read { $0 })
        }
    }

    /// Migrates the cache format; exits early when there is nothing to do without telling anyone.
    func migrateFormat(version: Int, completion: @escaping VoidCompletion) {
        guard version < 2 else { return }
        queue.async {
            completion(nil)
        }
    }
}

/// Settings persisted as a dictionary.
final class SettingsStore: Sendable {
    private let cache: DiskCache

    init(cache: DiskCache) {
        self.cache = cache
    }

    func settings(completion: @escaping @Sendable (Result<[String: String], Error>) -> Void) {
        cache.value(forKey: "settings", completion: completion)
    }

    func update(_ key: String, to value: String, completion: @escaping VoidCompletion) {
        let cache = self.cache
        settings { result in
            var settings = (try? result.get()) ?? [:]
            settings[key] = value
            cache.setValue(settings, forKey: "settings", completion: completion)
        }
    }

    func reset(completion: VoidCompletion? = nil) {
        cache.removeValue(forKey: "settings") { result in
            switch result {
            case .success: completion?(nil)
            case .failure(let error): completion?(error)
            }
        }
    }
}
