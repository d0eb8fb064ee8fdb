import Foundation
import Vow

struct Token: Sendable {
    let value: String
}

final class AuthClient: Sendable {
    func signIn(user: String, password: String, success: @escaping @Sendable (Token) -> Void, failure: @escaping @Sendable (Error) -> Void) {
        if password.isEmpty {
            failure(URLError(.userAuthenticationRequired))
        } else {
            success(Token(value: user))
        }
    }

    /// Promise-based alternative to `signIn(user:password:success:failure:)`, added by vow-migrate.
    func signIn(user: String, password: String) -> Promise<Token> {
        Promise { seal in
            signIn(user: user, password: password, success: { value in
                seal.fulfill(value)
            }, failure: { error in
                seal.reject(error)
            })
        }
    }

    func signOut(onSuccess: @escaping @Sendable () -> Void, onFailure: @escaping @Sendable (Error) -> Void) {
        onSuccess()
    }

    /// Promise-based alternative to `signOut(onSuccess:onFailure:)`, added by vow-migrate.
    func signOut() -> Promise<Void> {
        Promise { seal in
            signOut(onSuccess: {
                seal.fulfill()
            }, onFailure: { error in
                seal.reject(error)
            })
        }
    }
}
