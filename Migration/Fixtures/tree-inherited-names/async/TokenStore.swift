import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

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
    public nonisolated(nonsending) func save(_ token: String) async throws {
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
    public nonisolated(nonsending) func load() async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            load { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "load(completion:)"))
                }
            }
        }
    }
}
