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
    func refresh() async throws {
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
    func signIn(user: String, success: SuccessHandler? = nil, failure: FailureHandler? = nil) {
        success?(user)
    }

    // A defaulted handler.
    func signOut(completion: (@Sendable () -> Void)? = nil) {
        completion?()
    }
}
