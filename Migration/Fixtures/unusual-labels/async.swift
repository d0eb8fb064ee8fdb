import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

final class Runner: Sendable {
    @available(*, renamed: "run(_:)")
    func run(_ command: String, execute: @escaping @Sendable (Result<Int, Error>) -> Void) {
        execute(.success(0))
    }

    /// Async alternative to `run(_:execute:)`, added by vow-migrate.
    nonisolated(nonsending) func run(_ command: String) async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            run(command) { result in
                continuation.resume(with: result)
            }
        }
    }

    @available(*, renamed: "load(name:)")
    func load(name: String, then: @escaping @Sendable (String?, Error?) -> Void) {
        then(name, nil)
    }

    /// Async alternative to `load(name:then:)`, added by vow-migrate.
    nonisolated(nonsending) func load(name: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            load(name: name) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "load(name:then:)"))
                }
            }
        }
    }
}
