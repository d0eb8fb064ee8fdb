import Foundation

/// Recorded hikes: starting, finishing, uploading the track, listing.
final class HikeService: @unchecked Sendable {
    static let shared = HikeService(client: .shared)

    private let client: APIClient

    init(client: APIClient) {
        self.client = client
    }

    func startHike(on trailID: Int, completion: @escaping ResultCompletion<Hike>) {
        client.request(.startHike(trailID: trailID), as: Hike.self) { result in
            completion(result.mapError { $0 })
        }
    }

    /// `(false, nil)`: the server did not accept the hike as finished (too short to count).
    func finishHike(_ hike: Hike, completion: @escaping @Sendable (Bool, Error?) -> Void) {
        client.status(.finishHike(id: hike.id)) { status, error in
            if let error {
                completion(false, error)
            } else if status == 200 {
                completion(true, nil)
            } else if status == 422 {
                completion(false, nil)
            } else {
                completion(false, APIError.server(status: status ?? 0))
            }
        }
    }

    func uploadTrack(_ points: [TrackPoint], for hike: Hike, completion: @escaping VoidCompletion) {
        let body = points.map { "\($0.latitude),\($0.longitude)" }.joined(separator: ";")
        client.send(.track(hikeID: hike.id), body: body, completion: completion)
    }

    func fetchHikes(page: Int, completion: @escaping @Sendable (Result<[Hike], Error>) -> Void) {
        client.request(.hikes(page: page), as: [Hike].self) { result in
            completion(result.mapError { $0 })
        }
    }

    func deleteHike(id: Int, completion: @escaping VoidCompletion) {
        client.send(.deleteHike(id: id)) { error in
            completion(error)
        }
    }
}
