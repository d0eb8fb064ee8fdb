import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Vow

struct Challenge: Sendable {
    let host: String
}

enum Disposition: Sendable {
    case useCredential
    case reject
}

struct Configuration: Sendable {
    let baseURL: String
}

final class APIClient: @unchecked Sendable {
    private var authentication: (@Sendable (Challenge, @escaping @Sendable (Disposition) -> Void) -> Void)?

    // A callback handed a way to answer (`authentication`) is called for every challenge, not
    // once at the end: it is not a completion handler, and the function is no candidate.
    func configure(baseURL: String,
                   authentication: (@Sendable (Challenge, @escaping @Sendable (Disposition) -> Void) -> Void)? = nil) {
        self.authentication = authentication
    }

    // Beside a real completion handler, such a callback is kept and forwarded by the alternative.
    func initialize(baseURL: String,
                    authentication: (@Sendable (Challenge, @escaping @Sendable (Disposition) -> Void) -> Void)? = nil,
                    completion: @escaping @Sendable (Swift.Result<Configuration, Error>) -> Void) {
        self.authentication = authentication
        completion(.success(Configuration(baseURL: baseURL)))
    }

    /// Promise-based alternative to `initialize(baseURL:authentication:completion:)`, added by vow-migrate.
    func initialize(baseURL: String, authentication: (@Sendable (Challenge, @escaping @Sendable (Disposition) -> Void) -> Void)? = nil) -> Promise<Configuration> {
        Promise { seal in
            initialize(baseURL: baseURL, authentication: authentication) { result in
                seal.resolve(result)
            }
        }
    }
}

// A requirement of a framework's delegate protocol: the framework calls it; no alternative.
final class Downloader: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        completionHandler(.performDefaultHandling, nil)
    }
}
