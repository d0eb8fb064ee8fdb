import Foundation
import Vow

final class PhotoLibrary: Sendable {
    /// Mirrors `PHPhotoLibrary.performChanges(_:completionHandler:)`.
    func saveImage(named name: String, completionHandler: @escaping @Sendable (Bool, Error?) -> Void) {
        completionHandler(!name.isEmpty, nil)
    }

    /// Promise-based alternative to `saveImage(named:completionHandler:)`, added by vow-migrate.
    func saveImage(named name: String) -> Promise<Void> {
        Promise { seal in
            saveImage(named: name) { success, error in
                if let error {
                    seal.reject(error)
                } else if success {
                    seal.fulfill()
                } else {
                    seal.reject(PMKError.invalidCallingConvention)
                }
            }
        }
    }
}
