import Foundation
import Vow

final class PhotoLibrary: Sendable {
    /// Mirrors `PHPhotoLibrary.performChanges(_:completionHandler:)`.
    @available(*, renamed: "saveImage(named:)")
    func saveImage(named name: String, completionHandler: @escaping @Sendable (Bool, Error?) -> Void) {
        completionHandler(!name.isEmpty, nil)
    }

    /// Async alternative to `saveImage(named:completionHandler:)`, added by vow-migrate.
    func saveImage(named name: String) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            saveImage(named: name) { success, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if success {
                    continuation.resume()
                } else {
                    continuation.resume(throwing: PMKError.invalidCallingConvention)
                }
            }
        }
    }
}
