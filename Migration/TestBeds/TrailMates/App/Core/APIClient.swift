import Foundation

/// Talks to the TrailMates backend. Answers arrive on the network session's queue; callers hop
/// to the main queue themselves when they touch the UI.
final class APIClient: @unchecked Sendable {
    static let shared = APIClient(session: .shared)

    private let session: NetworkSession
    private let lock = NSLock()
    private var token: String?

    /// Set by the app coordinator: the server said 401 on a request that carried a token.
    var onSessionExpired: SessionExpiredHandler?

    init(session: NetworkSession) {
        self.session = session
    }

    var currentToken: String? {
        lock.lock(); defer { lock.unlock() }
        return token
    }

    func use(token: String?) {
        lock.lock(); self.token = token; lock.unlock()
    }

    // MARK: - Requests

    /// Sends `endpoint` and decodes the answer as `Value`.
    @discardableResult
    func request<Value: Decodable & Sendable>(_ endpoint: Endpoint, body: String? = nil, as type: Value.Type,
                                              completion: @escaping APICompletion<Value>) -> DataTask {
        let request = HTTPRequest(method: endpoint.method, path: endpoint.path, body: body)
        let hadToken = currentToken != nil
        let task = session.dataTask(with: request) { [weak self] text, response, error in
            if let error = error as? NetworkError {
                completion(.failure(error.code == .cancelled ? .cancelled : .offline))
                return
            }
            guard let response, let text else {
                completion(.failure(.offline))
                return
            }
            switch response.statusCode {
            case 200..<300:
                do {
                    let value = try JSONDecoder().decode(Value.self, from: Data(text.utf8))
                    completion(.success(value))
                } catch {
                    completion(.failure(.decoding(endpoint.path)))
                }
            case 401:
                if hadToken { self?.onSessionExpired?() }
                completion(.failure(.unauthorized))
            case 404:
                completion(.failure(.notFound))
            case 409:
                completion(.failure(.conflict))
            default:
                completion(.failure(.server(status: response.statusCode)))
            }
        }
        log(request)
        task.resume()
        return task
    }

    /// Sends `endpoint` when only success or failure matters.
    func send(_ endpoint: Endpoint, body: String? = nil, completion: @escaping VoidCompletion) {
        request(endpoint, body: body, as: Empty.self) { result in
            switch result {
            case .success: completion(nil)
            case .failure(let error): completion(error)
            }
        }
    }

    /// Sends `endpoint` and reports the status code only; for endpoints whose answer is a yes/no.
    func status(_ endpoint: Endpoint, completion: @escaping @Sendable (Int?, Error?) -> Void) {
        let request = HTTPRequest(method: endpoint.method, path: endpoint.path, body: nil)
        let task = session.dataTask(with: request) { _, response, error in
            if let error {
                completion(nil, error)
            } else {
                completion(response?.statusCode, nil)
            }
        }
        log(request)
        task.resume()
    }

    // MARK: - Logging

    #if DEBUG
    private func log(_ request: HTTPRequest) {
        // Debug builds print every request to the console; nothing the user sees.
        _ = "\(request.method) \(request.path)"
    }
    #else
    private func log(_ request: HTTPRequest) {}
    #endif
}

/// The answer of endpoints that return nothing useful.
struct Empty: Codable, Sendable {}
