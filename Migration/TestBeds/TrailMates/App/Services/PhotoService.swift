import Foundation

/// Photos taken on a hike, uploaded one request each.
final class PhotoService: @unchecked Sendable {
    static let shared = PhotoService(client: .shared)

    private let client: APIClient

    init(client: APIClient) {
        self.client = client
    }

    func upload(photoAt index: Int, caption: String, for hikeID: Int, completion: @escaping ResultCompletion<Photo>) {
        client.request(.photo(hikeID: hikeID, index: index), body: caption, as: Photo.self) { result in
            completion(result.mapError { $0 })
        }
    }
}
