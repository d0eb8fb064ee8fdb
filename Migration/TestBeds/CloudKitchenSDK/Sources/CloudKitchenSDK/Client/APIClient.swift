import Foundation

/// The base of every service: authorizes requests, retries transient failures, caches GETs and
/// decodes bodies. Services subclass it and add the endpoints; apps may subclass it too, for
/// endpoints the SDK does not cover yet.
open class APIClient {
    public let transport: HTTPTransport
    public let session: AuthSession
    public let cache: ResponseCache
    public let configuration: Configuration

    public init(transport: HTTPTransport, session: AuthSession, cache: ResponseCache, configuration: Configuration) {
        self.transport = transport
        self.session = session
        self.cache = cache
        self.configuration = configuration
    }

    /// Sends a request, with the token when `authorized`, retrying transient failures up to the
    /// configured attempts and a 401 once after a token refresh.
    @discardableResult
    public func perform(_ request: HTTPRequest, authorized: Bool = true, completion: @escaping (Result<HTTPResponse, SDKError>) -> Void) -> Cancellable {
        let token = CancellationToken()
        attempt(request, authorized: authorized, attemptsLeft: configuration.maximumAttempts, retriedUnauthorized: false, token: token, completion: completion)
        return token
    }

    private func attempt(_ request: HTTPRequest, authorized: Bool, attemptsLeft: Int, retriedUnauthorized: Bool, token: CancellationToken, completion: @escaping (Result<HTTPResponse, SDKError>) -> Void) {
        if token.isCancelled {
            completion(.failure(.cancelled))
            return
        }
        authorize(request, authorized: authorized) { [weak self] prepared in
            guard let self = self else { return }
            switch prepared {
            case .failure(let error):
                completion(.failure(error))
            case .success(let signed):
                self.configuration.logger.log(.debug, "\(signed.method.rawValue) \(signed.path)")
                let inner = self.transport.send(signed) { result in
                    switch result {
                    case .failure(let error):
                        let sdkError = token.isCancelled ? SDKError.cancelled : SDKError(error)
                        if sdkError.isTransient && attemptsLeft > 1 {
                            self.attempt(request, authorized: authorized, attemptsLeft: attemptsLeft - 1, retriedUnauthorized: retriedUnauthorized, token: token, completion: completion)
                        } else {
                            completion(.failure(sdkError))
                        }
                    case .success(let response) where response.status == 401 && authorized && !retriedUnauthorized:
                        self.session.invalidate()
                        self.attempt(request, authorized: authorized, attemptsLeft: attemptsLeft, retriedUnauthorized: true, token: token, completion: completion)
                    case .success(let response) where response.status >= 500 && attemptsLeft > 1:
                        self.attempt(request, authorized: authorized, attemptsLeft: attemptsLeft - 1, retriedUnauthorized: retriedUnauthorized, token: token, completion: completion)
                    case .success(let response):
                        completion(.success(response))
                    }
                }
                token.onCancel { inner.cancel() }
            }
        }
    }

    private func authorize(_ request: HTTPRequest, authorized: Bool, completion: @escaping (Result<HTTPRequest, SDKError>) -> Void) {
        var signed = request
        signed.headers["X-Api-Key"] = configuration.apiKey
        guard authorized else {
            completion(.success(signed))
            return
        }
        session.validToken { result in
            completion(result.map { token in
                signed.headers["Authorization"] = "Bearer \(token.value)"
                return signed
            })
        }
    }

    /// GETs and decodes a model, through the cache as `cachePolicy` says.
    public func fetch<T: Decodable>(_ request: HTTPRequest, as type: T.Type = T.self, cachePolicy: CachePolicy = .useCache, completion: @escaping (Result<T, SDKError>) -> Void) {
        let key = request.cacheKey
        guard cachePolicy != .reloadIgnoringCache else {
            load(request, as: type, cacheKey: key, completion: completion)
            return
        }
        cache.body(forKey: key) { [weak self] body in
            guard let self = self else { return }
            if let body = body {
                JSONCoding.decode(type, from: HTTPResponse(status: 200, body: body), completion: completion)
            } else if cachePolicy == .cacheOnly {
                completion(.failure(.notFound("a cached \(key)")))
            } else {
                self.load(request, as: type, cacheKey: key, completion: completion)
            }
        }
    }

    private func load<T: Decodable>(_ request: HTTPRequest, as type: T.Type, cacheKey: String, completion: @escaping (Result<T, SDKError>) -> Void) {
        perform(request) { [weak self] result in
            switch result {
            case .failure(let error):
                completion(.failure(error))
            case .success(let response):
                JSONCoding.decode(type, from: response) { decoded in
                    if case .success = decoded {
                        self?.cache.store(response.body, forKey: cacheKey)
                    }
                    completion(decoded)
                }
            }
        }
    }

    /// Sends a write and reports only whether it worked, the way the SDK's older endpoints do.
    public func send(_ request: HTTPRequest, completion: @escaping (Error?) -> Void) {
        perform(request) { result in
            switch result {
            case .failure(let error):
                completion(error)
            case .success(let response):
                completion(JSONCoding.error(for: response))
            }
        }
    }
}
