import Foundation

/// Keeps local documents and the backend in step; the app's own layer over the SDK's modules.
final class SyncEngine: Sendable {
    private let backend: BackendClient
    private let cache: DiskCache
    private let images: ImageLoader

    init(backend: BackendClient, cache: DiskCache, images: ImageLoader) {
        self.backend = backend
        self.cache = cache
        self.images = images
    }

    /// Pulls one document into the cache.
    func pull(path: String, completion: @escaping VoidCompletion) {
        let cache = self.cache
        backend.fetch(path: path) { (result: Result<[String: String], Error>) in
            switch result {
            case .success(let fields):
                cache.setValue(fields, forKey: path, completion: completion)
            case .failure(let error):
                completion(error)
            }
        }
    }

    /// Pushes the cached document to the backend.
    func push(path: String, completion: @escaping VoidCompletion) {
        let backend = self.backend
        cache.value(forKey: path) { (result: Result<[String: String], Error>) in
            switch result {
            case .success(let fields):
                backend.save(fields, at: path, completion: completion)
            case .failure(let error):
                completion(error)
            }
        }
    }

    /// Pulls many documents; reports how many arrived.
    func pullAll(paths: [String], completion: @escaping @Sendable (_ pulled: Int, _ error: Error?) -> Void) {
        let group = DispatchGroup()
        let pulled = Protected(0)
        let failure = Protected<Error?>(nil)
        for path in paths {
            group.enter()
            pull(path: path) { error in
                if let error { failure.write { $0 = error } } else { pulled.write { $0 += 1 } }
                group.leave()
            }
        }
        group.notify(queue: .global()) {
            completion(pulled.read { $0 }, failure.read { $0 })
        }
    }

    /// Syncs a user's profile and avatar: the profile and the image it found.
    func syncProfile(of user: User, completion: @escaping @Sendable (User?, Image?, Error?) -> Void) {
        let images = self.images
        backend.profile(for: user) { result in
            switch result {
            case .success(let profile):
                guard let url = URL(string: "https://example.com/avatars/\(profile.id)") else {
                    completion(profile, nil, nil)
                    return
                }
                images.loadImage(from: url) { image, _ in
                    completion(profile, image, nil)
                }
            case .failure(let error):
                completion(nil, nil, error)
            }
        }
    }

    /// The last sync date, if there was one: cannot fail.
    func lastSync(completion: @escaping @Sendable (Date?) -> Void) {
        cache.data(forKey: "last-sync") { data, _ in
            completion(data.flatMap { Double(String(decoding: $0, as: UTF8.self)) }.map { Date(timeIntervalSince1970: $0) })
        }
    }

    /// Resets everything local; the handler pair of the UI layer.
    func resetLocalData(success: @escaping @Sendable () -> Void, failure: @escaping @Sendable (Error) -> Void) {
        cache.removeAll {
            success()
        }
    }
}
