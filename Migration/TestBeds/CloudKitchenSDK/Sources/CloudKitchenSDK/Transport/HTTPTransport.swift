import Foundation

/// Sends one request and answers once, on a queue of its choosing. The SDK talks to the network
/// only through this, so apps can add their own (pinning, proxies) and tests a fake.
public protocol HTTPTransport: AnyObject {
    @discardableResult
    func send(_ request: HTTPRequest, completion: @escaping (Result<HTTPResponse, Error>) -> Void) -> Cancellable
}

/// The default answer to a challenge the transport cannot answer itself.
public struct Challenge: Equatable {
    public var host: String
    public var realm: String?
    public var failureCount: Int

    public init(host: String, realm: String? = nil, failureCount: Int = 0) {
        self.host = host
        self.realm = realm
        self.failureCount = failureCount
    }
}

/// What the app decides about a `Challenge`.
public enum Disposition: Equatable {
    case useCredential(user: String, password: String)
    case performDefaultHandling
    case cancelAuthenticationChallenge
}
