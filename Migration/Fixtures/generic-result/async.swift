import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

final class API: Sendable {
    @available(*, renamed: "get(path:as:)")
    func get<T: Decodable>(path: String, completion: @escaping @Sendable (Result<T, Error>) -> Void) {
        completion(.failure(URLError(.badURL)))
    }

    /// Async alternative to `get(path:completion:)`, added by vow-migrate.
    /// `T` comes from the call's context, or from `as:` (`as: SomeType.self`).
    nonisolated(nonsending) func get<T: Decodable & Sendable>(path: String, as type: T.Type = T.self) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            get(path: path) { result in
                continuation.resume(with: result)
            }
        }
    }

    // The type is named by an argument already: nothing to add.
    @available(*, renamed: "decode(_:from:)")
    func decode<T: Decodable>(_ type: T.Type, from data: Data, completion: @escaping @Sendable (T?, Error?) -> Void) {
        completion(try? JSONDecoder().decode(type, from: data), nil)
    }

    /// Async alternative to `decode(_:from:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func decode<T: Decodable & Sendable>(_ type: T.Type, from data: Data) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            decode(type, from: data) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "decode(_:from:completion:)"))
                }
            }
        }
    }
}
