import Foundation
import PromiseKit

/// A body and its status, before anyone decided what it means.
struct RawResponse {
    var statusCode: Int
    var body: String
}

/// The lowest layer: one request, one promise. Statuses are turned into errors here, so that
/// every layer above sees either a 2xx body or an `APIError`.
final class HTTPClient: @unchecked Sendable {
    static let shared = HTTPClient()
    private let session: NetworkSession

    init(session: NetworkSession = .shared) {
        self.session = session
    }

    func send(_ endpoint: Endpoint, body: String? = nil) -> Promise<RawResponse> {
        return Promise { seal in
            let request = HTTPRequest(method: endpoint.method, path: endpoint.path, body: body)
            session.dataTask(with: request) { text, response, error in
                if let error = error as? NetworkError {
                    switch error.code {
                    case .cancelled: seal.reject(PMKError.cancelled)
                    case .timedOut: seal.reject(APIError.timedOut)
                    case .notConnectedToInternet: seal.reject(APIError.offline)
                    }
                    return
                }
                guard let response = response, let text = text else {
                    seal.reject(APIError.offline)
                    return
                }
                switch response.statusCode {
                case 200..<300: seal.fulfill(RawResponse(statusCode: response.statusCode, body: text))
                case 401: seal.reject(APIError.unauthorized)
                case 404: seal.reject(APIError.notFound)
                default: seal.reject(APIError.status(response.statusCode))
                }
            }.resume()
        }
    }

    /// A request the caller can cancel: search as you type drops the request in flight.
    func cancellableSend(_ endpoint: Endpoint) -> (promise: Promise<RawResponse>, cancel: () -> Void) {
        let (promise, resolver) = Promise<RawResponse>.pending()
        let request = HTTPRequest(method: endpoint.method, path: endpoint.path, body: nil)
        let task = session.dataTask(with: request) { text, response, error in
            if let error = error as? NetworkError, error.code == .cancelled {
                resolver.reject(PMKError.cancelled)
            } else if let error {
                resolver.reject(error)
            } else if let response, let text, response.statusCode < 300 {
                resolver.fulfill(RawResponse(statusCode: response.statusCode, body: text))
            } else {
                resolver.reject(APIError.status(response?.statusCode ?? 0))
            }
        }
        task.resume()
        return (promise, { task.cancel() })
    }
}
