import Foundation

public struct Token: Sendable {
    public let value: String
}

/// A requirement with a default implementation in an extension of the same protocol: one
/// alternative serves both (a second, in the extension, would be an invalid redeclaration).
public protocol TokenSource: Sendable {
    @available(*, renamed: "token(for:)")
    func token(for user: String, completion: @escaping @Sendable (Result<Token, Error>) -> Void)
    @available(*, renamed: "refresh(_:)")
    func refresh(_ token: Token, completion: @escaping @Sendable (Result<Token, Error>) -> Void)
}

/// Promise and async alternatives to the completion-handler requirements, added by vow-migrate.
public extension TokenSource {
    /// Async alternative to `token(for:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func token(for user: String) async throws -> Token {
        try await withCheckedThrowingContinuation { continuation in
            token(for: user) { result in
                continuation.resume(with: result)
            }
        }
    }

    /// Async alternative to `refresh(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func refresh(_ token: Token) async throws -> Token {
        try await withCheckedThrowingContinuation { continuation in
            refresh(token) { result in
                continuation.resume(with: result)
            }
        }
    }
}

extension TokenSource {
    public func refresh(_ old: Token, completion: @escaping @Sendable (Result<Token, Error>) -> Void) {
        token(for: old.value, completion: completion)
    }

    /// Not a requirement: gains its own alternative here.
    @available(*, renamed: "renew(_:)")
    public func renew(_ old: Token, completion: @escaping @Sendable (Result<Token, Error>) -> Void) {
        refresh(old, completion: completion)
    }

    /// Async alternative to `renew(_:completion:)`, added by vow-migrate.
    public nonisolated(nonsending) func renew(_ old: Token) async throws -> Token {
        try await withCheckedThrowingContinuation { continuation in
            renew(old) { result in
                continuation.resume(with: result)
            }
        }
    }
}

struct FixedTokens: TokenSource {
    @available(*, renamed: "token(for:)")
    func token(for user: String, completion: @escaping @Sendable (Result<Token, Error>) -> Void) {
        completion(.success(Token(value: user)))
    }

    /// Async alternative to `token(for:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func token(for user: String) async throws -> Token {
        try await withCheckedThrowingContinuation { continuation in
            token(for: user) { result in
                continuation.resume(with: result)
            }
        }
    }
}
