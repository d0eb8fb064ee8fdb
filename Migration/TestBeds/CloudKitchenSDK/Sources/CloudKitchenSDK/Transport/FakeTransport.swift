import Foundation

/// A transport that answers from canned responses, on a private queue, after an optional delay.
/// Shipped in the SDK (not only its tests) so that apps can test their own code offline.
public final class FakeTransport: HTTPTransport {
    /// One canned answer: a response, or an error as the network would report it.
    public enum Answer {
        case response(HTTPResponse)
        case failure(Error)

        public static func json(_ status: Int, _ text: String, headers: [String: String] = [:]) -> Answer {
            .response(HTTPResponse(status: status, headers: headers, body: Data(text.utf8)))
        }
    }

    private let queue = DispatchQueue(label: "com.cloudkitchen.fake-transport")
    private let lock = NSLock()
    private var answers: [String: [Answer]] = [:]
    private var recorded: [HTTPRequest] = []
    /// Seconds before each answer; a little by default so that cancellation can be tested.
    public var delay: TimeInterval

    public init(delay: TimeInterval = 0.005) {
        self.delay = delay
    }

    /// Answers the next request for `method path` with `answer`. Several answers for the same
    /// route are used in order; the last one is reused once the others are used up.
    public func stub(_ method: HTTPMethod, _ path: String, _ answer: Answer) {
        lock.lock()
        answers[key(method, path), default: []].append(answer)
        lock.unlock()
    }

    /// The requests sent so far, in order.
    public var requests: [HTTPRequest] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    /// How many requests went to `path`, whatever their method.
    public func count(of path: String) -> Int {
        requests.filter { $0.path == path }.count
    }

    @discardableResult
    public func send(_ request: HTTPRequest, completion: @escaping (Result<HTTPResponse, Error>) -> Void) -> Cancellable {
        let token = CancellationToken()
        lock.lock()
        recorded.append(request)
        let routeKey = key(request.method, request.path)
        var route = answers[routeKey] ?? []
        let answer: Answer
        if route.count > 1 {
            answer = route.removeFirst()
            answers[routeKey] = route
        } else if let last = route.first {
            answer = last
        } else {
            answer = .json(404, #"{"error":"no stub for \#(routeKey)"}"#)
        }
        lock.unlock()
        queue.asyncAfter(deadline: .now() + delay) {
            if token.isCancelled {
                completion(.failure(SDKError.cancelled))
                return
            }
            switch answer {
            case .response(let response):
                completion(.success(response))
            case .failure(let error):
                completion(.failure(error))
            }
        }
        return token
    }

    private func key(_ method: HTTPMethod, _ path: String) -> String {
        "\(method.rawValue) \(path)"
    }
}
