import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

final class PhotoLibrary: Sendable {
    /// Mirrors `PHPhotoLibrary.performChanges(_:completionHandler:)`.
    @available(*, renamed: "saveImage(named:)")
    func saveImage(named name: String, completionHandler: @escaping @Sendable (Bool, Error?) -> Void) {
        completionHandler(!name.isEmpty, nil)
    }

    /// Async alternative to `saveImage(named:completionHandler:)`, added by vow-migrate.
    nonisolated(nonsending) func saveImage(named name: String) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            saveImage(named: name) { success, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if success {
                    continuation.resume()
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "saveImage(named:completionHandler:)"))
                }
            }
        }
    }
}
