import Foundation

typealias SuccessHandler = @Sendable (String) -> Void
typealias FailureHandler = @Sendable (Error) -> Void

final class Session: Sendable {
    // An optional handler without a default: every call passes one.
    func refresh(completion: (@Sendable (Error?) -> Void)?) {
        completion?(nil)
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
