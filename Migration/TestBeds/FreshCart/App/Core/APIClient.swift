import Foundation
import PromiseKit

/// Requests that answer with a model. An expired session (401) is refreshed once, and the
/// request sent again; every other error goes to the caller as it came.
final class APIClient: @unchecked Sendable {
    static let shared = APIClient()
    private let http: HTTPClient
    private let auth: AuthService

    init(http: HTTPClient = .shared, auth: AuthService = .shared) {
        self.http = http
        self.auth = auth
    }

    func request<T: Decodable & Sendable>(_ endpoint: Endpoint, as type: T.Type) -> Promise<T> {
        return firstly {
            http.send(endpoint)
        }.decoded(as: type, what: endpoint.path).recover { error -> Promise<T> in
            guard case APIError.unauthorized = error else { throw error }
            return self.auth.refreshSession().then { _ in
                self.http.send(endpoint).decoded(as: type, what: endpoint.path)
            }
        }
    }

    /// A list endpoint: the items of the envelope.
    func list<T: Decodable & Sendable>(_ endpoint: Endpoint, of type: T.Type) -> Promise<[T]> {
        request(endpoint, as: ListEnvelope<T>.self).map { $0.items }
    }

    /// A request whose answer the caller does not read.
    func perform(_ endpoint: Endpoint, body: String? = nil) -> VoidPromise {
        http.send(endpoint, body: body).asVoid()
    }
}
