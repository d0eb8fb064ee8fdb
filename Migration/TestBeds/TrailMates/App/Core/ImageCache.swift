import Foundation

/// Avatars by user id. A cached avatar is handed back at once, on the caller's queue; otherwise
/// it is downloaded and handed back on the network queue.
final class ImageCache: @unchecked Sendable {
    static let shared = ImageCache(client: .shared)

    private let client: APIClient
    private let lock = NSLock()
    private var images: [Int: String] = [:]

    init(client: APIClient) {
        self.client = client
    }

    func avatar(for userID: Int, completion: @escaping @Sendable (String?) -> Void) {
        lock.lock()
        let cached = images[userID]
        lock.unlock()
        if let cached {
            completion(cached)
            return
        }
        client.request(.avatar(userID: userID), as: String.self) { [weak self] result in
            switch result {
            case .success(let image):
                self?.store(image, for: userID)
                completion(image)
            case .failure:
                completion(nil)
            }
        }
    }

    func store(_ image: String, for userID: Int) {
        lock.lock(); images[userID] = image; lock.unlock()
    }

    func removeAll() {
        lock.lock(); images = [:]; lock.unlock()
    }
}
