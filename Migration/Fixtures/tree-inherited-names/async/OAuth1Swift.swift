import Foundation

/// Resumes the continuation of an async alternative added by vow-migrate once: with the
/// original's answer, or with `CancellationError` as soon as the awaiting Task is cancelled,
/// whichever comes first, cancelling the handle the original returned; the other is dropped.
/// A callee that never answers a cancelled request (`if error.code == NSURLErrorCancelled
/// { return }`) cannot leave the await waiting.
fileprivate final class CancellableAnswer<Value>: @unchecked Sendable {
    // @unchecked: every stored property is read and written only under `lock`.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, any Error>?
    private var cancelHandle: (@Sendable () -> Void)?
    private var isCancelled = false

    /// Keeps the continuation; false, the await throwing `CancellationError`, when the Task
    /// was cancelled before the original is called (it is not called then).
    func start(_ continuation: CheckedContinuation<Value, any Error>) -> Bool {
        lock.lock()
        let cancelled = isCancelled
        if !cancelled { self.continuation = continuation }
        lock.unlock()
        if cancelled { continuation.resume(throwing: CancellationError()) }
        return !cancelled
    }

    fileprivate func take() -> CheckedContinuation<Value, any Error>? {
        lock.lock()
        defer { lock.unlock() }
        let taken = continuation
        continuation = nil
        return taken
    }

    func resume(returning value: sending Value) { take()?.resume(returning: value) }
    func resume(throwing error: any Error) { take()?.resume(throwing: error) }
    func resume<Failure: Error>(with result: sending Swift.Result<Value, Failure>) {
        switch result {
        case .success(let value): resume(returning: value)
        case .failure(let error): resume(throwing: error)
        }
    }

    /// Keeps how to cancel the handle, or cancels it at once when the Task was cancelled already.
    func store(_ cancelHandle: @escaping @Sendable () -> Void) {
        lock.lock()
        let cancelled = isCancelled
        if !cancelled { self.cancelHandle = cancelHandle }
        lock.unlock()
        if cancelled { cancelHandle() }
    }

    /// The awaiting Task was cancelled: unless the original answered first, the await throws
    /// `CancellationError`; the handle is cancelled.
    func cancel() {
        lock.lock()
        isCancelled = true
        let cancelHandle = self.cancelHandle
        self.cancelHandle = nil
        let taken = continuation
        continuation = nil
        lock.unlock()
        taken?.resume(throwing: CancellationError())
        cancelHandle?()
    }
}

extension CancellableAnswer where Value == Void {
    func resume() { take()?.resume() }
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
        let answer = CancellableAnswer<TokenSuccess>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard answer.start(continuation) else { return }
                nonisolated(unsafe) let task = authorize(withCallbackURL: url) { result in
                    answer.resume(with: result)
                }
                answer.store { task?.cancel() }
            }
        } onCancel: {
            answer.cancel()
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
        let answer = CancellableAnswer<TokenSuccess>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard answer.start(continuation) else { return }
                nonisolated(unsafe) let task = renewAccessToken(withRefreshToken: refreshToken) { result in
                    answer.resume(with: result)
                }
                answer.store { task?.cancel() }
            }
        } onCancel: {
            answer.cancel()
        }
    }
}
