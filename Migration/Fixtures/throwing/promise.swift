import Foundation
import Vow

enum ConfigError: Error {
    case missingKey
}

final class ConfigLoader: Sendable {
    func load(key: String, completion: @escaping @Sendable (String?, Error?) -> Void) throws {
        guard !key.isEmpty else { throw ConfigError.missingKey }
        completion("value", nil)
    }

    /// Promise-based alternative to `load(key:completion:)`, added by vow-migrate.
    func load(key: String) -> Promise<String> {
        Promise { seal in
            try load(key: key) { value, error in
                seal.resolve(value, error)
            }
        }
    }

    func warmUp(completion: @escaping @Sendable () -> Void) throws {
        completion()
    }

    /// Promise-based alternative to `warmUp(completion:)`, added by vow-migrate.
    func warmUp() -> Promise<Void> {
        Promise { seal in
            try warmUp {
                seal.fulfill()
            }
        }
    }
}
