import Foundation

public struct Token: Sendable {
    public let value: String
}

/// A requirement with a default implementation in an extension of the same protocol: one
/// alternative serves both (a second, in the extension, would be an invalid redeclaration).
public protocol TokenSource: Sendable {
    func token(for user: String, completion: @escaping @Sendable (Result<Token, Error>) -> Void)
    func refresh(_ token: Token, completion: @escaping @Sendable (Result<Token, Error>) -> Void)
}

extension TokenSource {
    public func refresh(_ old: Token, completion: @escaping @Sendable (Result<Token, Error>) -> Void) {
        token(for: old.value, completion: completion)
    }

    /// Not a requirement: gains its own alternative here.
    public func renew(_ old: Token, completion: @escaping @Sendable (Result<Token, Error>) -> Void) {
        refresh(old, completion: completion)
    }
}

struct FixedTokens: TokenSource {
    func token(for user: String, completion: @escaping @Sendable (Result<Token, Error>) -> Void) {
        completion(.success(Token(value: user)))
    }
}
