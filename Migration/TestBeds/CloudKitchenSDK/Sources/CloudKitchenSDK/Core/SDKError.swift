import Foundation

/// Every failure the SDK reports. Public API callbacks receive it either directly
/// (`Result<T, SDKError>`) or as a plain `Error` (the older `(Error?) -> Void` handlers).
public enum SDKError: Error, Equatable {
    /// No signed-in session, or the refresh token was rejected.
    case notAuthenticated
    /// The server refused the email/password pair.
    case invalidCredentials
    /// The transport failed before a response arrived (offline, DNS, TLS).
    case network(String)
    /// A response arrived with a status the endpoint does not expect.
    case http(status: Int, message: String?)
    /// The body could not be decoded into the expected model.
    case decoding(String)
    /// The resource does not exist (404).
    case notFound(String)
    /// The server rejected a write because the resource changed meanwhile (409).
    case conflict(String)
    /// The caller cancelled the request or its handle.
    case cancelled
    /// Too many requests; the server asks to wait this many seconds.
    case rateLimited(retryAfter: TimeInterval)
    /// A precondition on the caller's arguments failed before anything was sent.
    case invalidArgument(String)

    /// Maps any error (the transport's, the decoder's) onto the SDK's own cases.
    public init(_ error: Error) {
        if let error = error as? SDKError {
            self = error
        } else if error is DecodingError {
            self = .decoding(String(describing: error))
        } else {
            self = .network(error.localizedDescription)
        }
    }

    /// Whether retrying the same request later may succeed.
    public var isTransient: Bool {
        switch self {
        case .network, .rateLimited:
            return true
        case .http(let status, _):
            return status >= 500
        default:
            return false
        }
    }
}

extension SDKError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .notAuthenticated: return "You are not signed in."
        case .invalidCredentials: return "The email or password is wrong."
        case .network(let reason): return "The network request failed: \(reason)"
        case .http(let status, let message): return "The server answered \(status)\(message.map { ": \($0)" } ?? "")."
        case .decoding(let reason): return "The response could not be read: \(reason)"
        case .notFound(let what): return "\(what) was not found."
        case .conflict(let what): return "\(what) was changed by someone else."
        case .cancelled: return "The request was cancelled."
        case .rateLimited(let seconds): return "Too many requests; retry in \(Int(seconds)) s."
        case .invalidArgument(let reason): return "Invalid argument: \(reason)"
        }
    }
}
