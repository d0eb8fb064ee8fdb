import Foundation
import Vow

public struct Route: Sendable {
    public let path: String
}

/// A parameter named like its function (`request(request:completion:)`): inside the alternative
/// `request(...)` would mean the parameter, so the call to the original says `self.`.
struct APIClient {
    func request<T: Decodable>(request: Route, completion: @escaping (Swift.Result<T, Error>) -> Void) {
        completion(.failure(URLError(.badURL)))
    }

    /// Promise-based alternative to `request(request:completion:)`, added by vow-migrate.
    /// `T` comes from the call's context, or from `as:` (`as: SomeType.self`).
    func request<T: Decodable & Sendable>(request: Route, as type: T.Type = T.self) -> Promise<T> {
        Promise { seal in
            self.request(request: request) { result in
                seal.resolve(result)
            }
        }
    }

    static func route(route: String, completion: @escaping @Sendable (Route?, Error?) -> Void) {
        completion(Route(path: route), nil)
    }

    /// Promise-based alternative to `route(route:completion:)`, added by vow-migrate.
    static func route(route: String) -> Promise<Route> {
        Promise { seal in
            self.route(route: route) { value, error in
                seal.resolve(value, error)
            }
        }
    }
}

/// At file scope there is no `self.` to say: reported, not converted.
func upload(upload: Data, completion: @escaping @Sendable (Error?) -> Void) {
    completion(nil)
}
