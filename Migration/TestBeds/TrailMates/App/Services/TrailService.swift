import Foundation

protocol TrailProviding: AnyObject, Sendable {
    func fetchTrails(page: Int, completion: @escaping @Sendable (Result<TrailPage, Error>) -> Void)
    func trailDetails(id: Int, completion: @escaping @Sendable (Trail?, Error?) -> Void)
}

/// Trails: the paged list, details, live conditions, search and elevation.
final class TrailService: TrailProviding, @unchecked Sendable {
    static let shared = TrailService(client: .shared)

    private let client: APIClient
    private let lock = NSLock()
    private var searchTask: DataTask?

    init(client: APIClient) {
        self.client = client
    }

    func fetchTrails(page: Int, completion: @escaping @Sendable (Result<TrailPage, Error>) -> Void) {
        client.request(.trails(page: page), as: TrailPage.self) { result in
            completion(result.mapError { $0 })
        }
    }

    /// `(nil, nil)`: the trail was removed since the list was loaded.
    func trailDetails(id: Int, completion: @escaping @Sendable (Trail?, Error?) -> Void) {
        client.request(.trail(id: id), as: Trail.self) { result in
            switch result {
            case .success(let trail): completion(trail, nil)
            case .failure(.notFound): completion(nil, nil)
            case .failure(let error): completion(nil, error)
            }
        }
    }

    /// Never fails: when the conditions cannot be read, they are unknown.
    func conditions(for trailID: Int, completion: @escaping @Sendable (Conditions) -> Void) {
        client.request(.conditions(trailID: trailID), as: Conditions.self) { result in
            completion((try? result.get()) ?? .unknown(for: trailID))
        }
    }

    /// Search as you type: a new search cancels the one still running, whose completion then
    /// gets `.cancelled`.
    func search(_ query: String, completion: @escaping APICompletion<[Trail]>) {
        lock.lock()
        searchTask?.cancel()
        lock.unlock()
        let task = client.request(.search(query), as: [Trail].self, completion: completion)
        lock.lock()
        searchTask = task
        lock.unlock()
    }

    /// Total climb and descent of a trail, in metres.
    func elevation(of trailID: Int, completion: @escaping @Sendable (Double, Double, Error?) -> Void) {
        client.request(.elevation(trailID: trailID), as: [Double].self) { result in
            switch result {
            case .success(let values) where values.count == 2:
                completion(values[0], values[1], nil)
            case .success:
                completion(0, 0, APIError.decoding("elevation"))
            case .failure(let error):
                completion(0, 0, error)
            }
        }
    }

    func comments(on trailID: Int, completion: @escaping ResultCompletion<[Comment]>) {
        client.request(.comments(trailID: trailID), as: [Comment].self) { result in
            completion(result.mapError { $0 })
        }
    }

    func postComment(_ text: String, on trailID: Int, completion: @escaping VoidCompletion) {
        client.send(.postComment(trailID: trailID), body: text, completion: completion)
    }
}
