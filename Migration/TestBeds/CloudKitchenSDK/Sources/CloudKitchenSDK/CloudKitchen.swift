import Foundation

/// Told about the SDK's life: connection challenges and an expired session.
public protocol CloudKitchenDelegate: AnyObject {
    func cloudKitchen(_ kitchen: CloudKitchen, didReceive challenge: Challenge, completionHandler: @escaping (Disposition) -> Void)
    func cloudKitchenSessionDidExpire(_ kitchen: CloudKitchen)
}

/// The SDK's entry point: one per app, holding the services.
public final class CloudKitchen {
    public let configuration: Configuration
    public let session: AuthSession
    public let kitchens: KitchenService
    public let menus: MenuService
    public let orders: OrderService
    public let accounts: AccountService
    public let uploads: UploadService
    public let sync: SyncEngine
    public let cache: ResponseCache
    public weak var delegate: CloudKitchenDelegate?
    private let sessionObserver = SessionObserver()

    init(configuration: Configuration, transport: HTTPTransport, tokenStore: TokenStore) {
        self.configuration = configuration
        cache = ResponseCache(lifetime: configuration.cacheLifetime)
        session = AuthSession(transport: transport, store: tokenStore)
        kitchens = KitchenService(transport: transport, session: session, cache: cache, configuration: configuration)
        menus = MenuService(transport: transport, session: session, cache: cache, configuration: configuration)
        orders = OrderService(transport: transport, session: session, cache: cache, configuration: configuration)
        accounts = AccountService(transport: transport, session: session, cache: cache, configuration: configuration)
        uploads = UploadService(transport: transport, session: session, cache: cache, configuration: configuration)
        sync = SyncEngine(client: orders, maxConcurrentOperations: configuration.syncConcurrency, timeout: configuration.timeout)
        sessionObserver.owner = self
        session.delegate = sessionObserver
    }

    /// Sets the SDK up: checks the configuration, restores a saved session and asks the
    /// platform whether this app may connect. A platform behind a login proxy answers with a
    /// challenge: `authentication` decides (synchronously) what to answer; without it the
    /// delegate is asked, and without a delegate the connection fails.
    public static func connect(
        configuration: Configuration,
        transport: HTTPTransport? = nil,
        tokenStore: TokenStore? = nil,
        delegate: CloudKitchenDelegate? = nil,
        authentication: ((Challenge, (Disposition) -> Void) -> Void)? = nil,
        completion: @escaping (Result<CloudKitchen, SDKError>) -> Void
    ) {
        if let problem = configuration.validate() {
            completion(.failure(problem))
            return
        }
        let resolvedTransport = transport ?? URLSessionTransport(baseURL: configuration.baseURL, timeout: configuration.timeout)
        let client = CloudKitchen(configuration: configuration, transport: resolvedTransport, tokenStore: tokenStore ?? InMemoryTokenStore())
        client.delegate = delegate
        client.session.restore { _ in
            client.handshake(transport: resolvedTransport, authentication: authentication, credential: nil) { error in
                if let error = error {
                    completion(.failure(error))
                } else {
                    completion(.success(client))
                }
            }
        }
    }

    /// Installs what answers challenges met later (a proxy asking again after a network change).
    public func setChallengeHandler(authentication: ((Challenge, (Disposition) -> Void) -> Void)? = nil) {
        lock.lock()
        challengeHandler = authentication
        lock.unlock()
    }

    private let lock = NSLock()
    private var challengeHandler: ((Challenge, (Disposition) -> Void) -> Void)?

    /// Whether a later challenge would be answered by a handler set with `setChallengeHandler`.
    public var hasChallengeHandler: Bool {
        lock.lock()
        defer { lock.unlock() }
        return challengeHandler != nil
    }

    private func handshake(transport: HTTPTransport, authentication: ((Challenge, (Disposition) -> Void) -> Void)?, credential: (String, String)?, completion: @escaping (SDKError?) -> Void) {
        var request = HTTPRequest(path: "handshake", headers: ["X-Api-Key": configuration.apiKey])
        if let (user, password) = credential {
            request.headers["Proxy-Authorization"] = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        }
        transport.send(request) { [weak self] result in
            guard let self = self else { return }
            switch result {
            case .failure(let error):
                completion(SDKError(error))
            case .success(let response) where response.status == 407:
                guard credential == nil else {
                    completion(.invalidCredentials)
                    return
                }
                let challenge = Challenge(host: self.configuration.baseURL.host ?? "", realm: response.headers["Proxy-Authenticate"], failureCount: 0)
                self.answer(challenge, authentication: authentication) { disposition in
                    switch disposition {
                    case .useCredential(let user, let password):
                        self.handshake(transport: transport, authentication: authentication, credential: (user, password), completion: completion)
                    case .performDefaultHandling, .cancelAuthenticationChallenge:
                        completion(.cancelled)
                    }
                }
            case .success(let response):
                completion(JSONCoding.error(for: response))
            }
        }
    }

    private func answer(_ challenge: Challenge, authentication: ((Challenge, (Disposition) -> Void) -> Void)?, completion: @escaping (Disposition) -> Void) {
        if let authentication = authentication {
            var decided: Disposition = .performDefaultHandling
            authentication(challenge) { disposition in
                decided = disposition
            }
            completion(decided)
        } else if let delegate = delegate {
            delegate.cloudKitchen(self, didReceive: challenge, completionHandler: completion)
        } else {
            completion(.performDefaultHandling)
        }
    }

    /// Signs in with an email and password.
    public func signIn(email: String, password: String, completion: @escaping (Account?, Error?) -> Void) {
        session.signIn(with: Credentials(email: email, password: password)) { result in
            switch result {
            case .success(let account):
                completion(account, nil)
            case .failure(let error):
                completion(nil, error)
            }
        }
    }

    /// Signs out and forgets every cached response (they belong to the previous user).
    public func signOut(completion: ((Error?) -> Void)? = nil) {
        sync.cancelAll()
        session.signOut { [cache] error in
            cache.removeEntries { _ in
                completion?(error)
            }
        }
    }

    fileprivate func sessionDidExpire() {
        delegate?.cloudKitchenSessionDidExpire(self)
    }
}

/// Forwards the session's delegate calls to the facade's delegate, without the session owning
/// the facade.
private final class SessionObserver: AuthSessionDelegate {
    weak var owner: CloudKitchen?

    func sessionDidRefreshToken(_ session: AuthSession) {}

    func sessionDidExpire(_ session: AuthSession, error: SDKError) {
        owner?.sessionDidExpire()
    }
}
