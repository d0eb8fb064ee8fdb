import Foundation
import Vow

/// Aliases declared by a protocol and by its extension reach the types conforming to it.
public protocol TokenStore {
    typealias SaveCompletion = (Error?) -> Void
}

extension TokenStore {
    public typealias LoadCompletion = (String?, Error?) -> Void
}

public final class MemoryTokenStore: TokenStore, @unchecked Sendable {
    private var token: String?

    public init() {}

    public func save(_ token: String, completion: @escaping SaveCompletion) {
        self.token = token
        completion(nil)
    }

    /// Promise-based alternative to `save(_:completion:)`, added by vow-migrate.
    public func save(_ token: String) -> Promise<Void> {
        Promise { seal in
            save(token) { error in
                seal.resolve(error)
            }
        }
    }

    public func load(completion: @escaping LoadCompletion) {
        completion(token, nil)
    }

    /// Promise-based alternative to `load(completion:)`, added by vow-migrate.
    public func load() -> Promise<String> {
        Promise { seal in
            load { value, error in
                seal.resolve(value, error)
            }
        }
    }
}
