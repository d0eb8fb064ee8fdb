import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

enum ConfigError: Error {
    case missingKey
}

final class ConfigLoader: Sendable {
    @available(*, renamed: "load(key:)")
    func load(key: String, completion: @escaping @Sendable (String?, Error?) -> Void) throws {
        guard !key.isEmpty else { throw ConfigError.missingKey }
        completion("value", nil)
    }

    /// Async alternative to `load(key:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func load(key: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            do {
                try load(key: key) { value, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let value {
                        continuation.resume(returning: value)
                    } else {
                        continuation.resume(throwing: NeitherValueNorError(function: "load(key:completion:)"))
                    }
                }
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }

    @available(*, renamed: "warmUp()")
    func warmUp(completion: @escaping @Sendable () -> Void) throws {
        completion()
    }

    /// Async alternative to `warmUp(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func warmUp() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            do {
                try warmUp {
                    continuation.resume()
                }
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }
}
