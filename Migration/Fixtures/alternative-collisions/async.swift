import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

enum CustomError: Error {
    case offline
}

final class Feed: Sendable {
    // Two overloads that differ only in the handler's error type: both alternatives would be
    // `title()`, so neither is added.
    func title(completion: @escaping @Sendable (Result<String, Error>) -> Void) {
        completion(.success("news"))
    }

    func title(completion: @escaping @Sendable (Result<String, CustomError>) -> Void) {
        completion(.failure(.offline))
    }

    // The same collision where one overload can have no alternative (it can call its handler
    // twice): the other one has it, in every run.
    @available(*, renamed: "headline()")
    func headline(completion: @escaping @Sendable (Result<String, Error>) -> Void) {
        completion(.success("news"))
    }

    /// Async alternative to `headline(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func headline() async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            headline { result in
                continuation.resume(with: result)
            }
        }
    }

    static let cachedHeadline: String? = "cached"

    func headline(completion: @escaping @Sendable (String) -> Void) {
        if let cached = Feed.cachedHeadline {
            completion(cached)
        }
        completion("fresh")
    }

    // Overloads told apart by a kept parameter's type keep both alternatives.
    @available(*, renamed: "item(at:)")
    func item(at index: Int, completion: @escaping @Sendable (String?, Error?) -> Void) {
        completion("\(index)", nil)
    }

    /// Async alternative to `item(at:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func item(at index: Int) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            item(at: index) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "item(at:completion:)"))
                }
            }
        }
    }

    @available(*, renamed: "item(at:)")
    func item(at key: String, completion: @escaping @Sendable (String?, Error?) -> Void) {
        completion(key, nil)
    }

    /// Async alternative to `item(at:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func item(at key: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            item(at: key) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "item(at:completion:)"))
                }
            }
        }
    }

    // A generic parameter only the handler's error type names: a promise cannot keep it.
    @available(*, renamed: "count()")
    func count<Failure: Error>(completion: @escaping @Sendable (Result<Int, Failure>) -> Void) {
        completion(.success(1))
    }

    /// Async alternative to `count(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func count<Failure: Error>() async throws(Failure) -> Int {
        let outcome: Swift.Result<Int, Failure> = await withCheckedContinuation { continuation in
            count { result in
                continuation.resume(returning: result)
            }
        }
        return try outcome.get()
    }

    // A generic function whose async twin is already written below it.
    func decode<T: Decodable & Sendable>(_ data: Data, completion: @escaping @Sendable (Result<T, Error>) -> Void) {
        completion(Result { try JSONDecoder().decode(T.self, from: data) })
    }

    func decode<T: Decodable & Sendable>(_ data: Data) async throws -> T {
        try JSONDecoder().decode(T.self, from: data)
    }
}
