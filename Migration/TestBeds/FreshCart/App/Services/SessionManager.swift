import Foundation
import PromiseKit

/// Signing out everywhere: the device is unregistered, the cart's reservation released and the
/// local state wiped, whatever the server says about each.
final class SessionManager: @unchecked Sendable {
    static let shared = SessionManager()
    private let api: APIClient
    private let auth: AuthService
    private let cache: ResponseCache

    init(api: APIClient = .shared, auth: AuthService = .shared, cache: ResponseCache = .shared) {
        self.api = api
        self.auth = auth
        self.cache = cache
    }

    /// How many of the server calls went through.
    func signOutEverywhere() -> Guarantee<Int> {
        let calls = [
            api.perform(.registerDevice, body: "unregister"),
            api.perform(.releaseSlot("all")),
        ]
        return when(resolved: calls).then { results -> Guarantee<Int> in
            let succeeded = results.filter { $0.isFulfilled }.count
            self.cache.removeAll()
            CartRepository.shared.forget()
            return self.auth.signOut().map { succeeded }
        }
    }

    /// Signs out and back in as someone else.
    func switchAccount(email: String, password: String) -> Promise<User> {
        return Promise(signOutEverywhere()).then { _ in
            self.auth.signIn(email: email, password: password)
        }.then { _ in
            ProfileRepository.shared.me()
        }
    }
}
