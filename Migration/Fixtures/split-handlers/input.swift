import Foundation

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

    func signOut(onSuccess: @escaping @Sendable () -> Void, onFailure: @escaping @Sendable (Error) -> Void) {
        onSuccess()
    }
}
