import Foundation

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
    func headline(completion: @escaping @Sendable (Result<String, Error>) -> Void) {
        completion(.success("news"))
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

    func item(at key: String, completion: @escaping @Sendable (String?, Error?) -> Void) {
        completion(key, nil)
    }

    // A generic parameter only the handler's error type names: a promise cannot keep it.
    func count<Failure: Error>(completion: @escaping @Sendable (Result<Int, Failure>) -> Void) {
        completion(.success(1))
    }

    // A generic function whose async twin is already written below it.
    func decode<T: Decodable & Sendable>(_ data: Data, completion: @escaping @Sendable (Result<T, Error>) -> Void) {
        completion(Result { try JSONDecoder().decode(T.self, from: data) })
    }

    func decode<T: Decodable & Sendable>(_ data: Data) async throws -> T {
        try JSONDecoder().decode(T.self, from: data)
    }
}
