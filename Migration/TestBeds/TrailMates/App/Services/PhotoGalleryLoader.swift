import Foundation

/// Thumbnails of a hike's photos, for the gallery grid.
final class PhotoGalleryLoader: @unchecked Sendable {
    private let client: APIClient
    let hikeID: Int
    private let lock = NSLock()
    private var thumbnails: [Int: String] = [:]

    /// The first thumbnail is loaded as soon as the loader exists: the grid's header shows it.
    init(hikeID: Int, client: APIClient = .shared, onCover: @escaping @Sendable (String?) -> Void) {
        self.hikeID = hikeID
        self.client = client
        thumbnail(at: 0) { cover, _ in
            onCover(cover)
        }
    }

    func thumbnail(at index: Int, completion: @escaping @Sendable (String?, Error?) -> Void) {
        lock.lock()
        let cached = thumbnails[index]
        lock.unlock()
        if let cached {
            completion(cached, nil)
            return
        }
        client.request(.thumbnail(hikeID: hikeID, index: index), as: String.self) { [weak self] result in
            switch result {
            case .success(let thumbnail):
                self?.lock.lock(); self?.thumbnails[index] = thumbnail; self?.lock.unlock()
                completion(thumbnail, nil)
            case .failure(let error):
                completion(nil, error)
            }
        }
    }
}
