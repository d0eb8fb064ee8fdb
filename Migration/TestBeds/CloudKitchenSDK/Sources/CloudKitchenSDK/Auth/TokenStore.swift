import Foundation

/// Where the session keeps its token between launches (the Keychain in the apps; memory in
/// tests). Asynchronous because the Keychain may block on first unlock.
public protocol TokenStore: AnyObject {
    func loadToken(completion: @escaping (AccessToken?) -> Void)
    func saveToken(_ token: AccessToken?, completion: ((Error?) -> Void)?)
}

/// Keeps the token in memory, answering on its own queue like the Keychain store does.
public final class InMemoryTokenStore: TokenStore {
    private let queue = DispatchQueue(label: "com.cloudkitchen.token-store")
    private var token: AccessToken?
    /// Set to make the next saves fail, as a locked Keychain does.
    public var failSaves = false

    public init(token: AccessToken? = nil) {
        self.token = token
    }

    public func loadToken(completion: @escaping (AccessToken?) -> Void) {
        queue.async {
            completion(self.token)
        }
    }

    public func saveToken(_ token: AccessToken?, completion: ((Error?) -> Void)? = nil) {
        queue.async {
            if self.failSaves {
                completion?(SDKError.invalidArgument("the token store is locked"))
                return
            }
            self.token = token
            completion?(nil)
        }
    }

    /// What is stored now, read synchronously (for tests and diagnostics).
    public var storedToken: AccessToken? {
        queue.sync { token }
    }
}
