import Foundation

/// Told about the session's life. Apps use it to show the sign-in screen again.
public protocol AuthSessionDelegate: AnyObject {
    func sessionDidRefreshToken(_ session: AuthSession)
    func sessionDidExpire(_ session: AuthSession, error: SDKError)
}

/// Signs in, keeps the token fresh, and hands a valid token to every request.
///
/// Concurrent requests that find the token expired share one refresh: their handlers wait in
/// `waiting` and all get the refresh's outcome.
public final class AuthSession {
    private let transport: HTTPTransport
    private let store: TokenStore
    private let lock = NSLock()
    private var token: AccessToken?
    private var waiting: [(Result<AccessToken, SDKError>) -> Void] = []
    private var refreshing = false
    private let now: () -> Date
    public weak var delegate: AuthSessionDelegate?

    public init(transport: HTTPTransport, store: TokenStore, now: @escaping () -> Date = Date.init) {
        self.transport = transport
        self.store = store
        self.now = now
    }

    /// Whether a token is held (it may still need a refresh).
    public var isSignedIn: Bool {
        lock.lock()
        defer { lock.unlock() }
        return token != nil
    }

    /// Loads the token saved by a previous launch, if any; `true` when one was found.
    public func restore(completion: @escaping (Bool) -> Void) {
        store.loadToken { [weak self] saved in
            guard let self = self else { return }
            self.lock.lock()
            self.token = saved
            self.lock.unlock()
            completion(saved != nil)
        }
    }

    /// Exchanges credentials for a token and saves it.
    public func signIn(with credentials: Credentials, completion: @escaping (Result<Account, SDKError>) -> Void) {
        guard !credentials.email.isEmpty, !credentials.password.isEmpty else {
            completion(.failure(.invalidCredentials))
            return
        }
        let request: HTTPRequest
        do {
            request = try HTTPRequest.json(.post, "auth/sign-in", credentials)
        } catch {
            completion(.failure(SDKError(error)))
            return
        }
        transport.send(request) { [weak self] result in
            guard let self = self else { return }
            switch result {
            case .failure(let error):
                completion(.failure(SDKError(error)))
            case .success(let response) where response.status == 401:
                completion(.failure(.invalidCredentials))
            case .success(let response):
                JSONCoding.decode(SignInResponse.self, from: response) { decoded in
                    switch decoded {
                    case .failure(let error):
                        completion(.failure(error))
                    case .success(let body):
                        self.install(body.token) { _ in
                            completion(.success(body.account))
                        }
                    }
                }
            }
        }
    }

    /// Forgets the token, locally and on the server. The server call is best effort: the
    /// local token is gone whatever it answers.
    public func signOut(completion: ((Error?) -> Void)? = nil) {
        lock.lock()
        let current = token
        token = nil
        lock.unlock()
        store.saveToken(nil) { [transport] saveError in
            guard let current = current else {
                completion?(saveError)
                return
            }
            var request = HTTPRequest(method: .post, path: "auth/sign-out")
            request.headers["Authorization"] = "Bearer \(current.value)"
            transport.send(request) { _ in
                completion?(saveError)
            }
        }
    }

    /// A token valid for at least the next 30 seconds, refreshed first when needed.
    public func validToken(completion: @escaping (Result<AccessToken, SDKError>) -> Void) {
        lock.lock()
        guard let current = token else {
            lock.unlock()
            completion(.failure(.notAuthenticated))
            return
        }
        if !current.isExpired(now: now()) {
            lock.unlock()
            completion(.success(current))
            return
        }
        waiting.append(completion)
        let startRefresh = !refreshing
        refreshing = true
        lock.unlock()
        if startRefresh {
            refresh(current)
        }
    }

    /// Forces the next `validToken` to refresh (after a 401 from an endpoint).
    func invalidate() {
        lock.lock()
        token?.expiresAt = .distantPast
        lock.unlock()
    }

    private func refresh(_ expired: AccessToken) {
        let request: HTTPRequest
        do {
            request = try HTTPRequest.json(.post, "auth/refresh", ["refresh_token": expired.refreshToken])
        } catch {
            finishRefresh(.failure(SDKError(error)))
            return
        }
        transport.send(request) { [weak self] result in
            guard let self = self else { return }
            switch result {
            case .failure(let error):
                self.finishRefresh(.failure(SDKError(error)))
            case .success(let response) where response.status == 401:
                self.finishRefresh(.failure(.notAuthenticated))
            case .success(let response):
                JSONCoding.decode(AccessToken.self, from: response) { decoded in
                    switch decoded {
                    case .failure(let error):
                        self.finishRefresh(.failure(error))
                    case .success(let fresh):
                        self.install(fresh) { _ in
                            self.finishRefresh(.success(fresh))
                        }
                    }
                }
            }
        }
    }

    private func install(_ fresh: AccessToken, completion: @escaping (Error?) -> Void) {
        lock.lock()
        token = fresh
        lock.unlock()
        store.saveToken(fresh, completion: completion)
    }

    private func finishRefresh(_ result: Result<AccessToken, SDKError>) {
        lock.lock()
        let handlers = waiting
        waiting = []
        refreshing = false
        if case .failure(.notAuthenticated) = result {
            token = nil
        }
        lock.unlock()
        switch result {
        case .success:
            delegate?.sessionDidRefreshToken(self)
        case .failure(let error):
            if error == .notAuthenticated {
                delegate?.sessionDidExpire(self, error: error)
            }
        }
        handlers.forEach { $0(result) }
    }
}

/// The body of a successful sign-in.
struct SignInResponse: Decodable {
    var token: AccessToken
    var account: Account
}
