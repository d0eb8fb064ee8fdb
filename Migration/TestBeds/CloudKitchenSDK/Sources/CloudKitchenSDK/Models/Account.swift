import Foundation

/// The signed-in user's account.
public final class Account: Codable {
    public let id: String
    public var email: String
    public var displayName: String
    public var favoriteKitchenIDs: [String]

    enum CodingKeys: String, CodingKey {
        case id, email, displayName, favoriteKitchenIDs = "favoriteKitchenIds"
    }
}

/// An access token and what is needed to renew it. A class: the session replaces its
/// fields in place when it refreshes, and everyone holding it sees the new value.
public final class AccessToken: Codable {
    public var value: String
    public var refreshToken: String
    public var expiresAt: Date

    public init(value: String, refreshToken: String, expiresAt: Date) {
        self.value = value
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
    }

    /// Expired, or expiring within `margin` seconds (so a request does not race the expiry).
    public func isExpired(margin: TimeInterval = 30, now: Date = Date()) -> Bool {
        expiresAt.timeIntervalSince(now) <= margin
    }
}

/// An email and password, as typed by the user.
public struct Credentials: Codable, Equatable {
    public var email: String
    public var password: String

    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}
