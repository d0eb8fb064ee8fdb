import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

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
        let cancellation = PendingCancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = download(from: url) { value, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let value {
                        continuation.resume(returning: value)
                    } else {
                        continuation.resume(throwing: NeitherValueNorError(function: "download(from:completion:)"))
                    }
                }
                Task { await cancellation.store { task.cancel() } }
            }
        } onCancel: {
            Task { await cancellation.cancel() }
        }
    }

    @available(*, renamed: "thumbnail(for:)")
    func thumbnail(for url: URL, completion: @escaping @Sendable (Result<Data, Error>) -> Void) -> DownloadTask? {
        completion(.success(Data()))
        return nil
    }

    /// Async alternative to `thumbnail(for:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func thumbnail(for url: URL) async throws -> Data {
        let cancellation = PendingCancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = thumbnail(for: url) { result in
                    continuation.resume(with: result)
                }
                Task { await cancellation.store { task?.cancel() } }
            }
        } onCancel: {
            Task { await cancellation.cancel() }
        }
    }
}
