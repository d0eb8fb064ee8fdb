import Foundation

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

    public func load(completion: @escaping LoadCompletion) {
        completion(token, nil)
    }
}
