import Foundation

/// What the API client reports when a request does not give the expected value.
enum APIError: Error, Equatable, Sendable {
    case offline
    case cancelled
    case unauthorized
    case notFound
    case conflict
    case server(status: Int)
    case decoding(String)

    /// Cancellation is the user's doing (they typed again, left the screen): not worth an alert.
    var isCancellation: Bool { self == .cancelled }

    var userMessage: String {
        switch self {
        case .offline: return "You are offline."
        case .cancelled: return "Cancelled."
        case .unauthorized: return "Please sign in again."
        case .notFound: return "Not found."
        case .conflict: return "Someone changed this meanwhile."
        case .server(let status): return "Server error \(status)."
        case .decoding(let what): return "Unexpected answer for \(what)."
        }
    }
}

enum AuthError: Error, Equatable, Sendable {
    case wrongPassword
    case accountLocked
    case sessionExpired
}

enum SyncError: Error, Equatable, Sendable {
    case cancelled
    case alreadyRunning
    case partial(failed: Int)
}

/// How screens describe any error to the user.
func describe(_ error: Error) -> String {
    switch error {
    case let error as APIError: return error.userMessage
    case AuthError.wrongPassword: return "Wrong email or password."
    case AuthError.accountLocked: return "Your account is locked."
    case AuthError.sessionExpired: return "Your session expired."
    case SyncError.cancelled: return "Sync cancelled."
    case SyncError.partial(let failed): return "\(failed) items could not be synced."
    default: return "Something went wrong (\(error))."
    }
}
