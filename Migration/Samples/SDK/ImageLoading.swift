import Foundation

/// Downloads and caches images; every load returns a task the caller can cancel.
final class ImageLoader: @unchecked Sendable {
    private let http: HTTPClient
    private let memory = Protected<[URL: Image]>([:])
    private let decodeQueue = DispatchQueue(label: "sdk.image-decode", attributes: .concurrent)

    init(http: HTTPClient) {
        self.http = http
    }

    private static func decode(_ data: Data) -> Image? {
        data.isEmpty ? nil : Image(width: 1, height: 1, pixels: data)
    }

    /// Loads an image; the task's `cancel()` comes from `Cancellable`, in another file.
    @discardableResult
    func loadImage(from url: URL, completion: @escaping ImageCompletion) -> ImageTask {
        let task = ImageTask(url: url)
        if let cached = memory.read({ $0[url] }) {
            completion(cached, nil)
            return task
        }
        let memory = self.memory
        http.data(at: url.path) { data, error in
            guard let data, let image = Self.decode(data) else {
                completion(nil, error ?? SDKError.decoding("not an image"))
                return
            }
            memory.write { $0[url] = image }
            completion(image, nil)
        }
        return task
    }

    /// A thumbnail of the image, scaled on a background queue.
    @discardableResult
    func thumbnail(for url: URL, size: Int, completion: @escaping @Sendable (Result<Image, Error>) -> Void) -> ImageTask? {
        let queue = decodeQueue
        return loadImage(from: url) { image, error in
            queue.async {
                if let image {
                    completion(.success(Image(width: size, height: size, pixels: image.pixels)))
                } else {
                    completion(.failure(error ?? SDKError.notFound))
                }
            }
        }
    }

    /// Several images at once; the ones that failed are left out.
    func loadImages(from urls: [URL], completion: @escaping @Sendable ([URL: Image]) -> Void) {
        let group = DispatchGroup()
        let loaded = Protected<[URL: Image]>([:])
        for url in urls {
            group.enter()
            loadImage(from: url) { image, _ in
                if let image { loaded.write { $0[url] = image } }
                group.leave()
            }
        }
        group.notify(queue: .global()) {
            completion(loaded.read { $0 })
        }
    }

    /// Preheats the cache; nothing to report but that it is done.
    func prefetch(_ urls: [URL], completion: @escaping @Sendable () -> Void) {
        loadImages(from: urls) { _ in
            completion()
        }
    }

    /// A placeholder first, the real image later: its handler runs twice.
    func progressiveImage(from url: URL, completion: @escaping ImageCompletion) {
        completion(Image(width: 1, height: 1, pixels: Data()), nil)
        loadImage(from: url, completion: completion)
    }

    /// Clears the memory cache.
    func clearMemory(completion: @escaping @Sendable () -> Void) {
        memory.write { $0.removeAll() }
        completion()
    }

    /// Image with its size in bytes.
    func imageWithSize(from url: URL, completion: @escaping @Sendable (Image?, Int, Error?) -> Void) {
        loadImage(from: url) { image, error in
            completion(image, image?.pixels.count ?? 0, error)
        }
    }

    /// Applies a filter given as an escaping closure, then reports the result.
    func filtered(_ url: URL, filter: @escaping @Sendable (Image) -> Image, completion: @escaping ImageCompletion) {
        loadImage(from: url) { image, error in
            completion(image.map(filter), error)
        }
    }
}

/// Image prefetching for a list view; a thin layer over the loader.
final class ImagePrefetcher: Sendable {
    private let loader: ImageLoader

    init(loader: ImageLoader) {
        self.loader = loader
    }

    func start(with urls: [URL], completion: @escaping @Sendable (_ completed: Int, _ failed: Int) -> Void) {
        loader.loadImages(from: urls) { images in
            completion(images.count, urls.count - images.count)
        }
    }

    func avatar(for user: User, completion: @escaping ImageCompletion) {
        guard let url = URL(string: "https://example.com/avatars/\(user.id)") else {
            completion(nil, SDKError.notFound)
            return
        }
        loader.loadImage(from: url, completion: completion)
    }
}
