import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

final class JSONClient: Sendable {
    @available(*, renamed: "get(_:path:)")
    func get<Model: Decodable>(_ type: Model.Type, path: String, completion: @escaping @Sendable (Result<Model, Error>) -> Void) {
        do {
            let model = try JSONDecoder().decode(Model.self, from: Data("{}".utf8))
            completion(.success(model))
        } catch {
            completion(.failure(error))
        }
    }

    /// Async alternative to `get(_:path:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func get<Model: Decodable & Sendable>(_ type: Model.Type, path: String) async throws -> Model {
        try await withCheckedThrowingContinuation { continuation in
            get(type, path: path) { result in
                continuation.resume(with: result)
            }
        }
    }

    @available(*, renamed: "first(of:)")
    func first<Element>(of items: [Element], completion: @escaping @Sendable (Element?, Error?) -> Void) where Element: Sendable {
        completion(items.first, nil)
    }

    /// Async alternative to `first(of:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func first<Element>(of items: [Element]) async throws -> Element where Element: Sendable {
        try await withCheckedThrowingContinuation { continuation in
            first(of: items) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "first(of:completion:)"))
                }
            }
        }
    }
}
