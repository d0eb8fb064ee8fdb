import Foundation
import Vow

public struct Token: Sendable {
    public let value: String
}

/// A requirement with a default implementation in an extension of the same protocol: one
/// alternative serves both (a second, in the extension, would be an invalid redeclaration).
public protocol TokenSource: Sendable {
    func token(for user: String, completion: @escaping @Sendable (Swift.Result<Token, Error>) -> Void)
    func refresh(_ token: Token, completion: @escaping @Sendable (Swift.Result<Token, Error>) -> Void)
}

/// Promise and async alternatives to the completion-handler requirements, added by vow-migrate.
public extension TokenSource {
    /// Promise-based alternative to `token(for:completion:)`, added by vow-migrate.
    func token(for user: String) -> Promise<Token> {
        Promise { seal in
            token(for: user) { result in
                seal.resolve(result)
            }
        }
    }

    /// Promise-based alternative to `refresh(_:completion:)`, added by vow-migrate.
    func refresh(_ token: Token) -> Promise<Token> {
        Promise { seal in
            refresh(token) { result in
                seal.resolve(result)
            }
        }
    }
}

extension TokenSource {
    public func refresh(_ old: Token, completion: @escaping @Sendable (Swift.Result<Token, Error>) -> Void) {
        token(for: old.value, completion: completion)
    }

    /// Not a requirement: gains its own alternative here.
    public func renew(_ old: Token, completion: @escaping @Sendable (Swift.Result<Token, Error>) -> Void) {
        refresh(old, completion: completion)
    }

    /// Promise-based alternative to `renew(_:completion:)`, added by vow-migrate.
    public func renew(_ old: Token) -> Promise<Token> {
        Promise { seal in
            renew(old) { result in
                seal.resolve(result)
            }
        }
    }
}

struct FixedTokens: TokenSource {
    func token(for user: String, completion: @escaping @Sendable (Swift.Result<Token, Error>) -> Void) {
        completion(.success(Token(value: user)))
    }

    /// Promise-based alternative to `token(for:completion:)`, added by vow-migrate.
    func token(for user: String) -> Promise<Token> {
        Promise { seal in
            token(for: user) { result in
                seal.resolve(result)
            }
        }
    }
}
