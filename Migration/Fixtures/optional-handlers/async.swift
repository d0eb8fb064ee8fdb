import Foundation

typealias SuccessHandler = @Sendable (String) -> Void
typealias FailureHandler = @Sendable (Error) -> Void

final class Session: Sendable {
    // An optional handler without a default: every call passes one.
    @available(*, renamed: "refresh()")
    func refresh(completion: (@Sendable (Error?) -> Void)?) {
        completion?(nil)
    }

    /// Async alternative to `refresh(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func refresh() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            refresh { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
            }
        }
    }

    // A handler pair, optional and defaulted.
    @available(*, renamed: "signIn(user:)")
    func signIn(user: String, success: SuccessHandler? = nil, failure: FailureHandler? = nil) {
        success?(user)
    }

    /// Async alternative to `signIn(user:success:failure:)`, added by vow-migrate.
    nonisolated(nonsending) func signIn(user: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            signIn(user: user, success: { value in
                continuation.resume(returning: value)
            }, failure: { error in
                continuation.resume(throwing: error)
            })
        }
    }

    // A defaulted handler.
    @available(*, renamed: "signOut()")
    func signOut(completion: (@Sendable () -> Void)? = nil) {
        completion?()
    }

    /// Async alternative to `signOut(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func signOut() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            signOut {
                continuation.resume()
            }
        }
    }
}
