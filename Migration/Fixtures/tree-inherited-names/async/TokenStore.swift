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

    @available(*, renamed: "save(_:)")
    public func save(_ token: String, completion: @escaping SaveCompletion) {
        self.token = token
        completion(nil)
    }

    /// Async alternative to `save(_:completion:)`, added by vow-migrate.
    public func save(_ token: String) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            save(token) { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
            }
        }
    }

    @available(*, renamed: "load()")
    public func load(completion: @escaping LoadCompletion) {
        completion(token, nil)
    }

    /// Async alternative to `load(completion:)`, added by vow-migrate.
    public func load() async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            load { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: PMKError.invalidCallingConvention)
                }
            }
        }
    }
}
