import Foundation

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

    func thumbnail(for url: URL, completion: @escaping @Sendable (Result<Data, Error>) -> Void) -> DownloadTask? {
        completion(.success(Data()))
        return nil
    }
}
