import Foundation

public struct TokenSuccess: Sendable {
    public let token: String
}

public enum OAuthSwiftError: Error {
    case cancelled
}

/// What a caller can cancel: conformed to by the request types, in another file.
public protocol OAuthSwiftRequestHandle {
    func cancel()
}

open class OAuthSwift {
    public init() {}
}

// The handler's name is declared in an extension of the superclass, as OAuthSwift does: a
// subclass in another file names it without qualification.
extension OAuthSwift {
    public typealias TokenCompletionHandler = (Result<TokenSuccess, OAuthSwiftError>) -> Void
    public typealias Handle = OAuthSwiftRequestHandle
}
