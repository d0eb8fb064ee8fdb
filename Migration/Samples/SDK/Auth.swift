import Foundation

/// Token storage the auth layer writes through; a protocol so apps can bring their keychain.
protocol TokenStore: Sendable {
    func save(_ credentials: Credentials, completion: @escaping VoidCompletion)
    func load(completion: @escaping @Sendable (Credentials?, Error?) -> Void)
    func clear(completion: @escaping VoidCompletion)
}

final class MemoryTokenStore: TokenStore {
    private let stored = Protected<Credentials?>(nil)

    func save(_ credentials: Credentials, completion: @escaping VoidCompletion) {
        stored.write { $0 = credentials }
        completion(nil)
    }

    func load(completion: @escaping @Sendable (Credentials?, Error?) -> Void) {
        if let credentials = stored.read({ $0 }) {
            completion(credentials, nil)
        } else {
            completion(nil, SDKError.unauthorized)
        }
    }

    func clear(completion: @escaping VoidCompletion) {
        stored.write { $0 = nil }
        completion(nil)
    }
}

/// OAuth 2 with split success and failure handlers, as older auth libraries spell them.
final class OAuthClient: Sendable {
    let http: HTTPClient
    let clientID: String
    private let store: TokenStore

    init(http: HTTPClient, clientID: String, store: TokenStore) {
        self.http = http
        self.clientID = clientID
        self.store = store
    }

    /// Exchanges an authorization code for credentials.
    func authorize(code: String, success: @escaping SuccessHandler, failure: @escaping FailureHandler) {
        http.post("/oauth/token", body: Data(code.utf8)) { error in
            if let error {
                failure(error)
            } else {
                success(Credentials(accessToken: "access-\(code)", refreshToken: "refresh-\(code)", expiresAt: Date(timeIntervalSinceNow: 3600)))
            }
        }
    }

    /// Renews credentials; both handlers optional and defaulted, as callers often ignore them.
    func renew(_ credentials: Credentials, success: SuccessHandler? = nil, failure: FailureHandler? = nil) {
        http.post("/oauth/refresh", body: Data(credentials.refreshToken.utf8)) { error in
            if let error {
                failure?(error)
            } else {
                success?(Credentials(accessToken: "renewed", refreshToken: credentials.refreshToken, expiresAt: Date(timeIntervalSinceNow: 3600)))
            }
        }
    }

    /// The nested alias of the request type.
    func requestToken(username: String, password: String, completion: @escaping OAuthRequest.CompletionHandler) {
        http.post("/oauth/password", body: Data("\(username):\(password)".utf8)) { error in
            if let error {
                completion(.failure(error))
            } else {
                completion(.success(Credentials(accessToken: username, refreshToken: password, expiresAt: Date())))
            }
        }
    }

    /// An optional handler without a default: every caller passes one, possibly nil.
    func revoke(_ credentials: Credentials, completion: OAuthRequest.CompletionHandler?) {
        http.post("/oauth/revoke", body: Data(credentials.accessToken.utf8)) { error in
            if let error {
                completion?(.failure(error))
            } else {
                completion?(.success(credentials))
            }
        }
    }

    /// Signs in and stores the credentials.
    func signIn(username: String, password: String, completion: @escaping @Sendable (Credentials?, Error?) -> Void) {
        let store = self.store
        requestToken(username: username, password: password) { result in
            switch result {
            case .success(let credentials):
                store.save(credentials) { error in
                    completion(error == nil ? credentials : nil, error)
                }
            case .failure(let error):
                completion(nil, error)
            }
        }
    }

    /// Signs out: clears the store, then tells the server.
    func signOut(completion: @escaping VoidCompletion) {
        let http = self.http
        store.clear { error in
            if let error {
                completion(error)
                return
            }
            http.post("/oauth/signout", body: Data()) { error in
                completion(error)
            }
        }
    }

    /// The stored credentials, renewed when they expired.
    func currentCredentials(completion: @escaping @Sendable (Result<Credentials, Error>) -> Void) {
        store.load { [weak self] credentials, error in
            guard let self else { return }
            guard let credentials else {
                completion(.failure(error ?? SDKError.unauthorized))
                return
            }
            if credentials.expiresAt > Date() {
                completion(.success(credentials))
            } else {
                self.renew(credentials, success: { renewed in
                    completion(.success(renewed))
                }, failure: { error in
                    completion(.failure(error))
                })
            }
        }
    }

    /// Answers from the cache first and again once the server confirms: two calls.
    func cachedThenFreshUser(completion: @escaping @Sendable (User?, Error?) -> Void) {
        completion(User(id: 0, name: "cached", email: ""), nil)
        http.get("/me") { (result: Result<User, Error>) in
            switch result {
            case .success(let user): completion(user, nil)
            case .failure(let error): completion(nil, error)
            }
        }
    }

    /// Whether a session exists; it checks quickly and cannot fail.
    func hasSession(completion: @escaping @Sendable (Bool) -> Void) {
        store.load { credentials, _ in
            completion(credentials != nil)
        }
    }

    /// Two-factor: the code arrives by a separate channel.
    func verify(code: String, for user: User, completion: @escaping @Sendable (_ verified: Bool, _ error: Error?) -> Void) {
        http.post("/oauth/2fa/\(user.id)", body: Data(code.utf8)) { error in
            completion(error == nil, error)
        }
    }
}

extension OAuthClient {
    /// Links an external account; the handler gets the user and the new credentials.
    func link(provider: String, token: String, completion: @escaping @Sendable (User?, Credentials?, Error?) -> Void) {
        http.get("/link/\(provider)") { (result: Result<User, Error>) in
            switch result {
            case .success(let user):
                completion(user, Credentials(accessToken: token, refreshToken: token, expiresAt: Date()), nil)
            case .failure(let error):
                completion(nil, nil, error)
            }
        }
    }

    /// Unlinks an external account.
    func unlink(provider: String, completion: @escaping VoidCompletion) {
        http.post("/unlink/\(provider)", body: Data(), completion: completion)
    }

    /// Permissions of the signed-in user.
    func scopes(completion: @escaping CompletionHandler<[String]>) {
        http.get("/oauth/scopes", completion: completion)
    }
}
