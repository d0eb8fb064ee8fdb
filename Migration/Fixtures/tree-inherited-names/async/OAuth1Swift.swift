import Foundation
import Vow

open class OAuth1Swift: OAuthSwift {
    @available(*, renamed: "authorize(withCallbackURL:)")
    @discardableResult
    open func authorize(withCallbackURL url: URL, completionHandler: @escaping TokenCompletionHandler) -> OAuthSwiftRequestHandle? {
        completionHandler(.success(TokenSuccess(token: url.absoluteString)))
        return nil
    }

    /// Async alternative to `authorize(withCallbackURL:completionHandler:)`, added by vow-migrate.
    open func authorize(withCallbackURL url: URL) async throws -> TokenSuccess {
        let cancellationSource = CancellationTokenSource()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                nonisolated(unsafe) let task = authorize(withCallbackURL: url) { result in
                    continuation.resume(with: result)
                }
                cancellationSource.token.register { task?.cancel() }
            }
        } onCancel: {
            cancellationSource.cancel()
        }
    }
}

/// The superclass's superclass declares the alias; the returned handle is one of its aliases too.
public final class OAuth2Swift: OAuth1Swift {
    @available(*, renamed: "renewAccessToken(withRefreshToken:)")
    @discardableResult
    public func renewAccessToken(withRefreshToken refreshToken: String, completionHandler: @escaping TokenCompletionHandler) -> Handle? {
        completionHandler(.success(TokenSuccess(token: refreshToken)))
        return nil
    }

    /// Async alternative to `renewAccessToken(withRefreshToken:completionHandler:)`, added by vow-migrate.
    public func renewAccessToken(withRefreshToken refreshToken: String) async throws -> TokenSuccess {
        let cancellationSource = CancellationTokenSource()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                nonisolated(unsafe) let task = renewAccessToken(withRefreshToken: refreshToken) { result in
                    continuation.resume(with: result)
                }
                cancellationSource.token.register { task?.cancel() }
            }
        } onCancel: {
            cancellationSource.cancel()
        }
    }
}
