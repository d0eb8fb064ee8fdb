import Foundation

final class PhotoLibrary: Sendable {
    /// Mirrors `PHPhotoLibrary.performChanges(_:completionHandler:)`.
    func saveImage(named name: String, completionHandler: @escaping @Sendable (Bool, Error?) -> Void) {
        completionHandler(!name.isEmpty, nil)
    }
}
