import Foundation

enum ConfigError: Error {
    case missingKey
}

final class ConfigLoader: Sendable {
    func load(key: String, completion: @escaping @Sendable (String?, Error?) -> Void) throws {
        guard !key.isEmpty else { throw ConfigError.missingKey }
        completion("value", nil)
    }

    func warmUp(completion: @escaping @Sendable () -> Void) throws {
        completion()
    }
}
