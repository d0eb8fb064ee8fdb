import Foundation

// Handler types shared across the services, so signatures stay readable.

typealias VoidCompletion = @Sendable (Error?) -> Void
typealias ResultCompletion<Value> = @Sendable (Result<Value, Error>) -> Void
typealias APICompletion<Value> = @Sendable (Result<Value, APIError>) -> Void
typealias UserCompletion = @Sendable (User?, Error?) -> Void
typealias TrailsCompletion = @Sendable (Result<[Trail], Error>) -> Void

/// Called whenever the server says the session is no longer valid (stored by the API client).
typealias SessionExpiredHandler = @Sendable () -> Void

extension Notification.Name {
    static let sessionDidExpire = Notification.Name("TrailMates.sessionDidExpire")
    static let friendsDidChange = Notification.Name("TrailMates.friendsDidChange")
    static let hikeDidFinish = Notification.Name("TrailMates.hikeDidFinish")
}
