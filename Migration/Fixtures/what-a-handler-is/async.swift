import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
    @available(*, renamed: "initialize(baseURL:authentication:)")
    func initialize(baseURL: String,
                    authentication: (@Sendable (Challenge, @escaping @Sendable (Disposition) -> Void) -> Void)? = nil,
                    completion: @escaping @Sendable (Result<Configuration, Error>) -> Void) {
        self.authentication = authentication
        completion(.success(Configuration(baseURL: baseURL)))
    }

    /// Async alternative to `initialize(baseURL:authentication:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func initialize(baseURL: String, authentication: (@Sendable (Challenge, @escaping @Sendable (Disposition) -> Void) -> Void)? = nil) async throws -> Configuration {
        try await withCheckedThrowingContinuation { continuation in
            initialize(baseURL: baseURL, authentication: authentication) { result in
                continuation.resume(with: result)
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
