import Foundation

public struct Route: Sendable {
    public let path: String
}

/// A parameter named like its function (`request(request:completion:)`): inside the alternative
/// `request(...)` would mean the parameter, so the call to the original says `self.`.
struct APIClient {
    func request<T: Decodable>(request: Route, completion: @escaping (Result<T, Error>) -> Void) {
        completion(.failure(URLError(.badURL)))
    }

    static func route(route: String, completion: @escaping @Sendable (Route?, Error?) -> Void) {
        completion(Route(path: route), nil)
    }
}

/// At file scope there is no `self.` to say: reported, not converted.
func upload(upload: Data, completion: @escaping @Sendable (Error?) -> Void) {
    completion(nil)
}
