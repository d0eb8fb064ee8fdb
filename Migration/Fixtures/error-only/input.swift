import Foundation

enum StorageError: Error {
    case full
}

final class Storage: @unchecked Sendable {
    private var keys: Set<String> = []

    public func delete(key: String, completion: @escaping @Sendable (Error?) -> Void) {
        keys.remove(key)
        completion(nil)
    }

    func write(_ data: Data, key: String, completion: @escaping @Sendable (StorageError?) -> Void) {
        completion(data.count > 1_000 ? .full : nil)
    }
}
