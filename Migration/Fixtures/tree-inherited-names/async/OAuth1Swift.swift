import Foundation

/// Cancels the handle an async alternative added by vow-migrate waits on, once the awaiting Task
/// is cancelled: at once when the handle is stored, or as soon as it is if the Task was cancelled
/// before, and at most once. An actor rather than a lock, so the file needs neither Foundation nor
/// Vow; a cancellation that lands after the handler answered cancels a finished handle, which
/// changes nothing (the continuation has resumed).
fileprivate actor PendingCancellation {
    private var storedCancel: (@Sendable () -> Void)?
    private var isCancelled = false

    func store(_ cancelHandle: @escaping @Sendable () -> Void) {
        if isCancelled { cancelHandle() } else { storedCancel = cancelHandle }
    }

    func cancel() {
        isCancelled = true
        storedCancel?()
        storedCancel = nil
    }
}

open class OAuth1Swift: OAuthSwift {
    @available(*, renamed: "authorize(withCallbackURL:)")
    @discardableResult
    open func authorize(withCallbackURL url: URL, completionHandler: @escaping TokenCompletionHandler) -> OAuthSwiftRequestHandle? {
        completionHandler(.success(TokenSuccess(token: url.absoluteString)))
        return nil
    }

    /// Async alternative to `authorize(withCallbackURL:completionHandler:)`, added by vow-migrate.
    open nonisolated(nonsending) func authorize(withCallbackURL url: URL) async throws -> TokenSuccess {
        let cancellation = PendingCancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                nonisolated(unsafe) let task = authorize(withCallbackURL: url) { result in
                    continuation.resume(with: result)
                }
                Task { await cancellation.store { task?.cancel() } }
            }
        } onCancel: {
            Task { await cancellation.cancel() }
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
    public nonisolated(nonsending) func renewAccessToken(withRefreshToken refreshToken: String) async throws -> TokenSuccess {
        let cancellation = PendingCancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                nonisolated(unsafe) let task = renewAccessToken(withRefreshToken: refreshToken) { result in
                    continuation.resume(with: result)
                }
                Task { await cancellation.store { task?.cancel() } }
            }
        } onCancel: {
            Task { await cancellation.cancel() }
        }
    }
}
