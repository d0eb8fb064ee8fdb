import Dispatch
import Foundation

// A stand-in for URLSession: data tasks answer on the session's own serial queue, in the order
// they were resumed, with what the installed server says; a task cancelled before its answer
// answers with a cancellation error, as URLSession's do. An answer waits until the main queue
// has gone quiet (what it had to do, and what that queued on it in turn, a few hops deep), with
// a millisecond between hops for the thread pool's tasks to run as well (a real round trip takes
// far longer than a hop), so a round trip is slower than any screen update, every time: the
// effects come in one order, run after run.

struct HTTPRequest: Sendable {
    var method: String
    var path: String
    var body: String?
}

struct HTTPResponse: Sendable {
    var statusCode: Int
}

struct NetworkError: Error, Equatable, Sendable, CustomStringConvertible {
    enum Code: Sendable { case notConnectedToInternet, timedOut, cancelled }
    var code: Code

    var description: String { "NetworkError(\(code))" }
}

/// What the fake server answers to one request.
indirect enum ServerAnswer: Sendable {
    case status(Int, body: String)
    case transportFailure(NetworkError.Code)
    /// The answer, after the server took this long (a slow endpoint, for timeouts).
    case delayed(milliseconds: Int, ServerAnswer)
}

final class DataTask: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    private let start: @Sendable (DataTask) -> Void

    fileprivate init(start: @escaping @Sendable (DataTask) -> Void) {
        self.start = start
    }

    func resume() {
        start(self)
    }

    func cancel() {
        lock.lock(); cancelled = true; lock.unlock()
    }

    fileprivate var isCancelled: Bool {
        lock.lock(); defer { lock.unlock() }
        return cancelled
    }
}

final class NetworkSession: @unchecked Sendable {
    static let shared = NetworkSession()
    let queue = DispatchQueue(label: "network")
    private let lock = NSLock()
    private var server: (@Sendable (HTTPRequest) -> ServerAnswer)?

    /// The scenarios install the fake backend here.
    func install(server: @escaping @Sendable (HTTPRequest) -> ServerAnswer) {
        lock.lock(); self.server = server; lock.unlock()
    }

    func dataTask(with request: HTTPRequest, completionHandler: @escaping @Sendable (String?, HTTPResponse?, Error?) -> Void) -> DataTask {
        DataTask { task in
            self.queue.async {
                for _ in 0..<5 { DispatchQueue.main.sync {}; usleep(1_000) }
                if task.isCancelled {
                    Effects.shared.record("network: \(request.method) \(request.path) cancelled")
                    completionHandler(nil, nil, NetworkError(code: .cancelled))
                    return
                }
                self.lock.lock(); let server = self.server; self.lock.unlock()
                var answer = server?(request) ?? .transportFailure(.notConnectedToInternet)
                while case .delayed(let milliseconds, let later) = answer {
                    usleep(UInt32(milliseconds) * 1_000)
                    answer = later
                }
                switch answer {
                case .delayed:
                    break
                case .status(let code, let body):
                    completionHandler(body, HTTPResponse(statusCode: code), nil)
                case .transportFailure(let code):
                    completionHandler(nil, nil, NetworkError(code: code))
                }
            }
        }
    }
}
