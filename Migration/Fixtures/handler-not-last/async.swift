import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

final class Uploader: Sendable {
    @available(*, renamed: "upload(_:progress:)")
    func upload(_ data: Data, completion: @escaping @Sendable (URL?, Error?) -> Void, progress: @escaping @Sendable (Double) -> Void) {
        progress(1.0)
        completion(URL(string: "https://example.com/\(data.count)"), nil)
    }

    /// Async alternative to `upload(_:completion:progress:)`, added by vow-migrate.
    nonisolated(nonsending) func upload(_ data: Data, progress: @escaping @Sendable (Double) -> Void) async throws -> URL {
        try await withCheckedThrowingContinuation { continuation in
            upload(data, completion: { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "upload(_:completion:progress:)"))
                }
            }, progress: progress)
        }
    }

    @available(*, renamed: "download(from:retries:)")
    func download(from url: URL, completion: (@Sendable (Data?, Error?) -> Void)?, retries: Int) {
        completion?(Data(), nil)
    }

    /// Async alternative to `download(from:completion:retries:)`, added by vow-migrate.
    nonisolated(nonsending) func download(from url: URL, retries: Int) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            download(from: url, completion: { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "download(from:completion:retries:)"))
                }
            }, retries: retries)
        }
    }
}
