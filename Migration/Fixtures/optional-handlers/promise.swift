import Foundation
import Vow

typealias SuccessHandler = @Sendable (String) -> Void
typealias FailureHandler = @Sendable (Error) -> Void

final class Session: Sendable {
    // An optional handler without a default: every call passes one.
    func refresh(completion: (@Sendable (Error?) -> Void)?) {
        completion?(nil)
    }

    /// Promise-based alternative to `refresh(completion:)`, added by vow-migrate.
    func refresh() -> Promise<Void> {
        Promise { seal in
            refresh { error in
                seal.resolve(error)
            }
        }
    }

    // A handler pair, optional and defaulted.
    func signIn(user: String, success: SuccessHandler? = nil, failure: FailureHandler? = nil) {
        success?(user)
    }

    /// Promise-based alternative to `signIn(user:success:failure:)`, added by vow-migrate.
    func signIn(user: String) -> Promise<String> {
        Promise { seal in
            signIn(user: user, success: { value in
                seal.fulfill(value)
            }, failure: { error in
                seal.reject(error)
            })
        }
    }

    // A defaulted handler.
    func signOut(completion: (@Sendable () -> Void)? = nil) {
        completion?()
    }

    /// Promise-based alternative to `signOut(completion:)`, added by vow-migrate.
    func signOut() -> Guarantee<Void> {
        Guarantee { resolve in
            signOut {
                resolve(())
            }
        }
    }
}
