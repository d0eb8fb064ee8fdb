import Foundation
import Vow

open class OAuth1Swift: OAuthSwift {
    @discardableResult
    open func authorize(withCallbackURL url: URL, completionHandler: @escaping TokenCompletionHandler) -> OAuthSwiftRequestHandle? {
        completionHandler(.success(TokenSuccess(token: url.absoluteString)))
        return nil
    }

    /// Promise-based alternative to `authorize(withCallbackURL:completionHandler:)`, added by vow-migrate.
    open func authorize(withCallbackURL url: URL, cancellation token: CancellationToken? = nil) -> Promise<TokenSuccess> {
        Promise(cancellation: token) { seal in
            nonisolated(unsafe) let task = authorize(withCallbackURL: url) { result in
                seal.resolve(result)
            }
            seal.onCancel { task?.cancel() }
        }
    }
}

/// The superclass's superclass declares the alias; the returned handle is one of its aliases too.
public final class OAuth2Swift: OAuth1Swift {
    @discardableResult
    public func renewAccessToken(withRefreshToken refreshToken: String, completionHandler: @escaping TokenCompletionHandler) -> Handle? {
        completionHandler(.success(TokenSuccess(token: refreshToken)))
        return nil
    }

    /// Promise-based alternative to `renewAccessToken(withRefreshToken:completionHandler:)`, added by vow-migrate.
    public func renewAccessToken(withRefreshToken refreshToken: String, cancellation token: CancellationToken? = nil) -> Promise<TokenSuccess> {
        Promise(cancellation: token) { seal in
            nonisolated(unsafe) let task = renewAccessToken(withRefreshToken: refreshToken) { result in
                seal.resolve(result)
            }
            seal.onCancel { task?.cancel() }
        }
    }
}
