import Foundation
import Vow

final class Uploader: Sendable {
    func upload(_ data: Data, completion: @escaping @Sendable (URL?, Error?) -> Void, progress: @escaping @Sendable (Double) -> Void) {
        progress(1.0)
        completion(URL(string: "https://example.com/\(data.count)"), nil)
    }

    /// Promise-based alternative to `upload(_:completion:progress:)`, added by vow-migrate.
    func upload(_ data: Data, progress: @escaping @Sendable (Double) -> Void) -> Promise<URL> {
        Promise { seal in
            upload(data, completion: { value, error in
                seal.resolve(value, error)
            }, progress: progress)
        }
    }

    func download(from url: URL, completion: (@Sendable (Data?, Error?) -> Void)?, retries: Int) {
        completion?(Data(), nil)
    }

    /// Promise-based alternative to `download(from:completion:retries:)`, added by vow-migrate.
    func download(from url: URL, retries: Int) -> Promise<Data> {
        Promise { seal in
            download(from: url, completion: { value, error in
                seal.resolve(value, error)
            }, retries: retries)
        }
    }
}
