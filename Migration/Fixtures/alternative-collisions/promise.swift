import Foundation
import Vow

enum CustomError: Error {
    case offline
}

final class Feed: Sendable {
    // Two overloads that differ only in the handler's error type: both alternatives would be
    // `title()`, so neither is added.
    func title(completion: @escaping @Sendable (Swift.Result<String, Error>) -> Void) {
        completion(.success("news"))
    }

    func title(completion: @escaping @Sendable (Swift.Result<String, CustomError>) -> Void) {
        completion(.failure(.offline))
    }

    // The same collision where one overload can have no alternative (it can call its handler
    // twice): the other one has it, in every run.
    func headline(completion: @escaping @Sendable (Swift.Result<String, Error>) -> Void) {
        completion(.success("news"))
    }

    /// Promise-based alternative to `headline(completion:)`, added by vow-migrate.
    func headline() -> Promise<String> {
        Promise { seal in
            headline { result in
                seal.resolve(result)
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
    func item(at index: Int, completion: @escaping @Sendable (String?, Error?) -> Void) {
        completion("\(index)", nil)
    }

    /// Promise-based alternative to `item(at:completion:)`, added by vow-migrate.
    func item(at index: Int) -> Promise<String> {
        Promise { seal in
            item(at: index) { value, error in
                seal.resolve(value, error)
            }
        }
    }

    func item(at key: String, completion: @escaping @Sendable (String?, Error?) -> Void) {
        completion(key, nil)
    }

    /// Promise-based alternative to `item(at:completion:)`, added by vow-migrate.
    func item(at key: String) -> Promise<String> {
        Promise { seal in
            item(at: key) { value, error in
                seal.resolve(value, error)
            }
        }
    }

    // A generic parameter only the handler's error type names: a promise cannot keep it.
    func count<Failure: Error>(completion: @escaping @Sendable (Swift.Result<Int, Failure>) -> Void) {
        completion(.success(1))
    }

    // A generic function whose async twin is already written below it.
    func decode<T: Decodable & Sendable>(_ data: Data, completion: @escaping @Sendable (Swift.Result<T, Error>) -> Void) {
        completion(Swift.Result { try JSONDecoder().decode(T.self, from: data) })
    }

    /// Promise-based alternative to `decode(_:completion:)`, added by vow-migrate.
    /// `T` comes from the call's context, or from `as:` (`as: SomeType.self`).
    func decode<T: Decodable & Sendable>(_ data: Data, as type: T.Type = T.self) -> Promise<T> {
        Promise { seal in
            decode(data) { result in
                seal.resolve(result)
            }
        }
    }

    func decode<T: Decodable & Sendable>(_ data: Data) async throws -> T {
        try JSONDecoder().decode(T.self, from: data)
    }
}
