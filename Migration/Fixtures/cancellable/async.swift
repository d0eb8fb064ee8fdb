import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

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

/// A handle on work in flight, like `URLSessionTask`.
final class DownloadTask: Sendable {
    func cancel() {}
}

final class Downloader: Sendable {
    @available(*, renamed: "download(from:)")
    @discardableResult
    func download(from url: URL, completion: @escaping @Sendable (Data?, Error?) -> Void) -> DownloadTask {
        let task = DownloadTask()
        completion(Data(), nil)
        return task
    }

    /// Async alternative to `download(from:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func download(from url: URL) async throws -> Data {
        let answer = CancellableAnswer<Data>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard answer.start(continuation) else { return }
                let task = download(from: url) { value, error in
                    if let error {
                        answer.resume(throwing: error)
                    } else if let value {
                        answer.resume(returning: value)
                    } else {
                        answer.resume(throwing: NeitherValueNorError(function: "download(from:completion:)"))
                    }
                }
                answer.store { task.cancel() }
            }
        } onCancel: {
            answer.cancel()
        }
    }

    @available(*, renamed: "thumbnail(for:)")
    func thumbnail(for url: URL, completion: @escaping @Sendable (Result<Data, Error>) -> Void) -> DownloadTask? {
        completion(.success(Data()))
        return nil
    }

    /// Async alternative to `thumbnail(for:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func thumbnail(for url: URL) async throws -> Data {
        let answer = CancellableAnswer<Data>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard answer.start(continuation) else { return }
                let task = thumbnail(for: url) { result in
                    answer.resume(with: result)
                }
                answer.store { task?.cancel() }
            }
        } onCancel: {
            answer.cancel()
        }
    }
}
