import Foundation
import Vow

/// A handle on work in flight, like `URLSessionTask`.
final class DownloadTask: Sendable {
    func cancel() {}
}

final class Downloader: Sendable {
    @discardableResult
    func download(from url: URL, completion: @escaping @Sendable (Data?, Error?) -> Void) -> DownloadTask {
        let task = DownloadTask()
        completion(Data(), nil)
        return task
    }

    /// Promise-based alternative to `download(from:completion:)`, added by vow-migrate.
    func download(from url: URL, cancellation token: CancellationToken? = nil) -> Promise<Data> {
        Promise(cancellation: token) { seal in
            let task = download(from: url) { value, error in
                seal.resolve(value, error)
            }
            seal.onCancel { task.cancel() }
        }
    }

    func thumbnail(for url: URL, completion: @escaping @Sendable (Swift.Result<Data, Error>) -> Void) -> DownloadTask? {
        completion(.success(Data()))
        return nil
    }

    /// Promise-based alternative to `thumbnail(for:completion:)`, added by vow-migrate.
    func thumbnail(for url: URL, cancellation token: CancellationToken? = nil) -> Promise<Data> {
        Promise(cancellation: token) { seal in
            let task = thumbnail(for: url) { result in
                seal.resolve(result)
            }
            seal.onCancel { task?.cancel() }
        }
    }
}
