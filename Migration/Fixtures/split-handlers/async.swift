import Foundation

struct Token: Sendable {
    let value: String
}

final class AuthClient: Sendable {
    @available(*, renamed: "signIn(user:password:)")
    func signIn(user: String, password: String, success: @escaping @Sendable (Token) -> Void, failure: @escaping @Sendable (Error) -> Void) {
        if password.isEmpty {
            failure(URLError(.userAuthenticationRequired))
        } else {
            success(Token(value: user))
        }
    }

    /// Async alternative to `signIn(user:password:success:failure:)`, added by vow-migrate.
    nonisolated(nonsending) func signIn(user: String, password: String) async throws -> Token {
        try await withCheckedThrowingContinuation { continuation in
            signIn(user: user, password: password, success: { value in
                continuation.resume(returning: value)
            }, failure: { error in
                continuation.resume(throwing: error)
            })
        }
    }

    @available(*, renamed: "signOut()")
    func signOut(onSuccess: @escaping @Sendable () -> Void, onFailure: @escaping @Sendable (Error) -> Void) {
        onSuccess()
    }

    /// Async alternative to `signOut(onSuccess:onFailure:)`, added by vow-migrate.
    nonisolated(nonsending) func signOut() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            signOut(onSuccess: {
                continuation.resume()
            }, onFailure: { error in
                continuation.resume(throwing: error)
            })
        }
    }
}
