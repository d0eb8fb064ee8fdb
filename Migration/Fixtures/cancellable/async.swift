import Foundation
import Vow

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
    func download(from url: URL) async throws -> Data {
        let cancellationSource = CancellationTokenSource()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = download(from: url) { value, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let value {
                        continuation.resume(returning: value)
                    } else {
                        continuation.resume(throwing: PMKError.invalidCallingConvention)
                    }
                }
                cancellationSource.token.register { task.cancel() }
            }
        } onCancel: {
            cancellationSource.cancel()
        }
    }

    @available(*, renamed: "thumbnail(for:)")
    func thumbnail(for url: URL, completion: @escaping @Sendable (Swift.Result<Data, Error>) -> Void) -> DownloadTask? {
        completion(.success(Data()))
        return nil
    }

    /// Async alternative to `thumbnail(for:completion:)`, added by vow-migrate.
    func thumbnail(for url: URL) async throws -> Data {
        let cancellationSource = CancellationTokenSource()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = thumbnail(for: url) { result in
                    continuation.resume(with: result)
                }
                cancellationSource.token.register { task?.cancel() }
            }
        } onCancel: {
            cancellationSource.cancel()
        }
    }
}
