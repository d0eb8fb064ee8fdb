import Foundation
import Vow

struct Token: Sendable {
    let value: String
}

enum TokenError: Error {
    case empty
}

final class TokenService: @unchecked Sendable {
    func decode(_ text: String) throws -> Token {
        guard !text.isEmpty else { throw TokenError.empty }
        return Token(value: text)
    }

    func save(_ token: Token) throws {}

    // Ternary branches are alternatives.
    func validate(_ text: String, success: @escaping @Sendable (Token) -> Void, failure: @escaping @Sendable (Error) -> Void) {
        text.isEmpty ? failure(TokenError.empty) : success(Token(value: text))
    }

    /// Promise-based alternative to `validate(_:success:failure:)`, added by vow-migrate.
    func validate(_ text: String) -> Promise<Token> {
        Promise { seal in
            validate(text, success: { value in
                seal.fulfill(value)
            }, failure: { error in
                seal.reject(error)
            })
        }
    }

    func check(_ text: String, completion: @escaping @Sendable (Bool) -> Void) {
        text.count > 8 ? completion(true) : text.isEmpty ? completion(false) : completion(text.hasPrefix("t"))
    }

    /// Promise-based alternative to `check(_:completion:)`, added by vow-migrate.
    func check(_ text: String) -> Guarantee<Bool> {
        Guarantee { resolve in
            check(text) { value in
                resolve(value)
            }
        }
    }

    // `if` arms and `switch` cases are alternatives.
    func classify(_ text: String, completion: @escaping @Sendable (Int) -> Void) {
        if text.isEmpty {
            completion(0)
        } else if text.count < 4 {
            completion(1)
        } else {
            switch text.first {
            case "a": completion(2)
            case "b", "c": completion(3)
            default: completion(4)
            }
        }
    }

    /// Promise-based alternative to `classify(_:completion:)`, added by vow-migrate.
    func classify(_ text: String) -> Guarantee<Int> {
        Guarantee { resolve in
            classify(text) { value in
                resolve(value)
            }
        }
    }

    // The catch clause runs instead of what follows the throwing statement.
    func parse(_ text: String, completion: @escaping @Sendable (Swift.Result<Token, Error>) -> Void) {
        do {
            let token = try decode(text)
            completion(.success(token))
        } catch {
            completion(.failure(error))
        }
    }

    /// Promise-based alternative to `parse(_:completion:)`, added by vow-migrate.
    func parse(_ text: String) -> Promise<Token> {
        Promise { seal in
            parse(text) { result in
                seal.resolve(result)
            }
        }
    }

    func parseInline(_ text: String, completion: @escaping @Sendable (Swift.Result<Token, Error>) -> Void) {
        do {
            completion(.success(try decode(text)))
        } catch {
            completion(.failure(error))
        }
    }

    /// Promise-based alternative to `parseInline(_:completion:)`, added by vow-migrate.
    func parseInline(_ text: String) -> Promise<Token> {
        Promise { seal in
            parseInline(text) { result in
                seal.resolve(result)
            }
        }
    }

    // Called before a throwing statement, then again in the catch: refused.
    func store(_ text: String, completion: @escaping @Sendable (Error?) -> Void) {
        do {
            let token = try decode(text)
            completion(nil)
            try save(token)
        } catch {
            completion(error)
        }
    }
}
