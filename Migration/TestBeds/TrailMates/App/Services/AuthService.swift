import Foundation

/// Signs the user in and out, and keeps the session fresh.
final class AuthService: @unchecked Sendable {
    static let shared = AuthService(client: .shared, store: .standard)

    private let client: APIClient
    private let store: KeyValueStore

    init(client: APIClient, store: KeyValueStore) {
        self.client = client
        self.store = store
    }

    /// Signs in; the server answers 403 for a wrong password and 423 for a locked account.
    func login(email: String, password: String, completion: @escaping ResultCompletion<Session>) {
        client.request(.login(email: email), body: password, as: Session.self) { [weak self] result in
            switch result {
            case .success(let session):
                self?.remember(session)
                completion(.success(session))
            case .failure(.server(status: 403)):
                completion(.failure(AuthError.wrongPassword))
            case .failure(.server(status: 423)):
                completion(.failure(AuthError.accountLocked))
            case .failure(let error):
                completion(.failure(error))
            }
        }
    }

    #if DEBUG
    /// Debug builds have a demo account, so testers skip the sign-in form.
    func loginAsDemoUser(completion: @escaping ResultCompletion<Session>) {
        login(email: "demo@trailmates.app", password: "demo", completion: completion)
    }
    #endif

    /// A new session from the current one; `(nil, nil)` when there is no session to refresh.
    func refreshSession(completion: @escaping @Sendable (Session?, Error?) -> Void) {
        guard client.currentToken != nil else {
            completion(nil, nil)
            return
        }
        client.request(.refresh, as: Session.self) { [weak self] result in
            switch result {
            case .success(let session):
                self?.remember(session)
                completion(session, nil)
            case .failure(let error):
                completion(nil, error)
            }
        }
    }

    func logout(completion: @escaping VoidCompletion) {
        client.send(.logout) { [weak self] error in
            // Signed out locally even when the server could not be told.
            self?.forget()
            completion(error)
        }
    }

    private func remember(_ session: Session) {
        client.use(token: session.token)
        store.set(session.token, forKey: "token")
        store.set(String(session.userID), forKey: "userID")
    }

    private func forget() {
        client.use(token: nil)
        store.set(nil, forKey: "token")
        store.set(nil, forKey: "userID")
    }
}
