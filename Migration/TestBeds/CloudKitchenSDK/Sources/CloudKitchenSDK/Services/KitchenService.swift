import Foundation

/// Kitchens: finding them, reading one, favourites.
public final class KitchenService: APIClient {
    /// Kitchens within `radius` metres of `location`, nearest first.
    public func fetchKitchens(near location: Location, radius: Double = 5_000, openOnly: Bool = false, completion: @escaping KitchensCompletion) {
        guard radius > 0 else {
            completion(.failure(.invalidArgument("radius must be positive")))
            return
        }
        var request = HTTPRequest(path: "kitchens")
        request.query = [
            "lat": String(location.latitude),
            "lon": String(location.longitude),
            "radius": String(Int(radius)),
        ]
        if openOnly {
            request.query["open"] = "true"
        }
        #if compiler(>=5.5.2)
        // The server sorts by rating; the apps want the nearest first.
        fetch(request, as: [Kitchen].self) { result in
            switch result {
            case .success(let kitchens):
                completion(.success(kitchens.sorted { $0.location.distance(to: location) < $1.location.distance(to: location) }))
            case .failure(let error):
                completion(.failure(error))
            }
        }
        #else
        fetch(request, as: [Kitchen].self, completion: completion)
        #endif
    }

    /// One kitchen by id.
    public func kitchen(id: String, cachePolicy: CachePolicy = .useCache, completion: @escaping KitchenCompletion) {
        guard !id.isEmpty else {
            completion(.failure(.invalidArgument("empty kitchen id")))
            return
        }
        #if compiler(>=5.5.2)
        fetch(HTTPRequest(path: "kitchens/\(id)"), as: Kitchen.self, cachePolicy: cachePolicy) { result in
            completion(result)
        }
        #else
        fetch(HTTPRequest(path: "kitchens/\(id)"), cachePolicy: cachePolicy, completion: completion)
        #endif
    }

    /// The kitchen when it takes orders now; `failure` with `.conflict` when it is closed.
    public func openKitchen(id: String, success: @escaping (Kitchen) -> Void, failure: @escaping (SDKError) -> Void) {
        kitchen(id: id, cachePolicy: .reloadIgnoringCache) { result in
            switch result {
            case .failure(let error):
                failure(error)
            case .success(let kitchen):
                kitchen.isOpen ? success(kitchen) : failure(.conflict("\(kitchen.name) is closed"))
            }
        }
    }

    /// Marks a kitchen as a favourite of the signed-in user.
    public func addFavorite(kitchenID: String, completion: VoidCompletion? = nil) {
        send(HTTPRequest(method: .put, path: "me/favorites/\(kitchenID)")) { [weak self] error in
            if error == nil {
                self?.cache.removeEntries(withPrefix: "me")
            }
            completion?(error)
        }
    }

    /// Removes a kitchen from the favourites; removing one that is not there is not an error.
    public func removeFavorite(kitchenID: String, completion: VoidCompletion? = nil) {
        send(HTTPRequest(method: .delete, path: "me/favorites/\(kitchenID)")) { error in
            if let error = error as? SDKError, case .notFound = error {
                completion?(nil)
            } else {
                completion?(error)
            }
        }
    }

    /// The opening hours of a kitchen for the week, Monday first.
    public func openingHours(kitchenID: String, completion: @escaping (Result<[OpeningHours], SDKError>) -> Void) {
        fetch(HTTPRequest(path: "kitchens/\(kitchenID)/hours")) { (result: Result<[OpeningHours], SDKError>) in
            completion(result.map { $0.sorted { $0.weekday < $1.weekday } })
        }
    }
}
