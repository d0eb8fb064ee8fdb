import Foundation

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
    @available(*, renamed: "validate(_:)")
    func validate(_ text: String, success: @escaping @Sendable (Token) -> Void, failure: @escaping @Sendable (Error) -> Void) {
        text.isEmpty ? failure(TokenError.empty) : success(Token(value: text))
    }

    /// Async alternative to `validate(_:success:failure:)`, added by vow-migrate.
    nonisolated(nonsending) func validate(_ text: String) async throws -> Token {
        try await withCheckedThrowingContinuation { continuation in
            validate(text, success: { value in
                continuation.resume(returning: value)
            }, failure: { error in
                continuation.resume(throwing: error)
            })
        }
    }

    @available(*, renamed: "check(_:)")
    func check(_ text: String, completion: @escaping @Sendable (Bool) -> Void) {
        text.count > 8 ? completion(true) : text.isEmpty ? completion(false) : completion(text.hasPrefix("t"))
    }

    /// Async alternative to `check(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func check(_ text: String) async -> Bool {
        await withCheckedContinuation { continuation in
            check(text) { value in
                continuation.resume(returning: value)
            }
        }
    }

    // `if` arms and `switch` cases are alternatives.
    @available(*, renamed: "classify(_:)")
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

    /// Async alternative to `classify(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func classify(_ text: String) async -> Int {
        await withCheckedContinuation { continuation in
            classify(text) { value in
                continuation.resume(returning: value)
            }
        }
    }

    // The catch clause runs instead of what follows the throwing statement.
    @available(*, renamed: "parse(_:)")
    func parse(_ text: String, completion: @escaping @Sendable (Result<Token, Error>) -> Void) {
        do {
            let token = try decode(text)
            completion(.success(token))
        } catch {
            completion(.failure(error))
        }
    }

    /// Async alternative to `parse(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func parse(_ text: String) async throws -> Token {
        try await withCheckedThrowingContinuation { continuation in
            parse(text) { result in
                continuation.resume(with: result)
            }
        }
    }

    @available(*, renamed: "parseInline(_:)")
    func parseInline(_ text: String, completion: @escaping @Sendable (Result<Token, Error>) -> Void) {
        do {
            completion(.success(try decode(text)))
        } catch {
            completion(.failure(error))
        }
    }

    /// Async alternative to `parseInline(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func parseInline(_ text: String) async throws -> Token {
        try await withCheckedThrowingContinuation { continuation in
            parseInline(text) { result in
                continuation.resume(with: result)
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
