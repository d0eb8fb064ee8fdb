import Foundation
import Vow

enum StorageError: Error {
    case full
}

final class Storage: @unchecked Sendable {
    private var keys: Set<String> = []

    public func delete(key: String, completion: @escaping @Sendable (Error?) -> Void) {
        keys.remove(key)
        completion(nil)
    }

    /// Promise-based alternative to `delete(key:completion:)`, added by vow-migrate.
    public func delete(key: String) -> Promise<Void> {
        Promise { seal in
            delete(key: key) { error in
                seal.resolve(error)
            }
        }
    }

    func write(_ data: Data, key: String, completion: @escaping @Sendable (StorageError?) -> Void) {
        completion(data.count > 1_000 ? .full : nil)
    }

    /// Promise-based alternative to `write(_:key:completion:)`, added by vow-migrate.
    func write(_ data: Data, key: String) -> Promise<Void> {
        Promise { seal in
            write(data, key: key) { error in
                seal.resolve(error)
            }
        }
    }
}
