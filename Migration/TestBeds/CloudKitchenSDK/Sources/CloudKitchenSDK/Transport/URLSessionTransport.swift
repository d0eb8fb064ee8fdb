import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The production transport: one `URLSession` data task per request.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let baseURL: URL
    private let timeout: TimeInterval

    public init(baseURL: URL, timeout: TimeInterval = 30, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.timeout = timeout
        self.session = session
    }

    @discardableResult
    public func send(_ request: HTTPRequest, completion: @escaping (Result<HTTPResponse, Error>) -> Void) -> Cancellable {
        let token = CancellationToken()
        guard let urlRequest = makeURLRequest(request) else {
            completion(.failure(SDKError.invalidArgument("bad path \(request.path)")))
            return token
        }
        let task = session.dataTask(with: urlRequest) { data, response, error in
            if let error = error {
                completion(.failure(token.isCancelled ? SDKError.cancelled : error))
                return
            }
            guard let http = response as? HTTPURLResponse else {
                completion(.failure(SDKError.network("not an HTTP response")))
                return
            }
            var headers: [String: String] = [:]
            for (key, value) in http.allHeaderFields {
                headers[String(describing: key)] = String(describing: value)
            }
            completion(.success(HTTPResponse(status: http.statusCode, headers: headers, body: data ?? Data())))
        }
        token.onCancel { task.cancel() }
        task.resume()
        return token
    }

    func makeURLRequest(_ request: HTTPRequest) -> URLRequest? {
        guard var components = URLComponents(url: baseURL.appendingPathComponent(request.path), resolvingAgainstBaseURL: false) else {
            return nil
        }
        if !request.query.isEmpty {
            components.queryItems = request.query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        }
        guard let url = components.url else { return nil }
        var urlRequest = URLRequest(url: url, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.httpBody = request.body
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        return urlRequest
    }
}
