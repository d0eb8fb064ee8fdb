import Foundation

// Conformances declared away from the types, in another file (`Sendable` there must be unchecked).
extension Profile: @unchecked Sendable {}

public final class SignInRequest: OAuthSwiftRequestHandle {
    public func cancel() {}
}
