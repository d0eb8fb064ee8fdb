import Foundation
import Vow

final class Uploader: Sendable {
    @available(*, renamed: "upload(_:progress:)")
    func upload(_ data: Data, completion: @escaping @Sendable (URL?, Error?) -> Void, progress: @escaping @Sendable (Double) -> Void) {
        progress(1.0)
        completion(URL(string: "https://example.com/\(data.count)"), nil)
    }

    /// Async alternative to `upload(_:completion:progress:)`, added by vow-migrate.
    func upload(_ data: Data, progress: @escaping @Sendable (Double) -> Void) async throws -> URL {
        try await withCheckedThrowingContinuation { continuation in
            upload(data, completion: { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: PMKError.invalidCallingConvention)
                }
            }, progress: progress)
        }
    }

    @available(*, renamed: "download(from:retries:)")
    func download(from url: URL, completion: (@Sendable (Data?, Error?) -> Void)?, retries: Int) {
        completion?(Data(), nil)
    }

    /// Async alternative to `download(from:completion:retries:)`, added by vow-migrate.
    func download(from url: URL, retries: Int) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            download(from: url, completion: { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: PMKError.invalidCallingConvention)
                }
            }, retries: retries)
        }
    }
}
