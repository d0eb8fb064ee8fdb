import Foundation

open class OAuth1Swift: OAuthSwift {
    @discardableResult
    open func authorize(withCallbackURL url: URL, completionHandler: @escaping TokenCompletionHandler) -> OAuthSwiftRequestHandle? {
        completionHandler(.success(TokenSuccess(token: url.absoluteString)))
        return nil
    }
}

/// The superclass's superclass declares the alias; the returned handle is one of its aliases too.
public final class OAuth2Swift: OAuth1Swift {
    @discardableResult
    public func renewAccessToken(withRefreshToken refreshToken: String, completionHandler: @escaping TokenCompletionHandler) -> Handle? {
        completionHandler(.success(TokenSuccess(token: refreshToken)))
        return nil
    }
}
