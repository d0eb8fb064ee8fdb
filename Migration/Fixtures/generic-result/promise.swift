import Foundation
import Vow

final class API: Sendable {
    func get<T: Decodable>(path: String, completion: @escaping @Sendable (Swift.Result<T, Error>) -> Void) {
        completion(.failure(URLError(.badURL)))
    }

    /// Promise-based alternative to `get(path:completion:)`, added by vow-migrate.
    /// `T` comes from the call's context, or from `as:` (`as: SomeType.self`).
    func get<T: Decodable & Sendable>(path: String, as type: T.Type = T.self) -> Promise<T> {
        Promise { seal in
            get(path: path) { result in
                seal.resolve(result)
            }
        }
    }

    // The type is named by an argument already: nothing to add.
    func decode<T: Decodable>(_ type: T.Type, from data: Data, completion: @escaping @Sendable (T?, Error?) -> Void) {
        completion(try? JSONDecoder().decode(type, from: data), nil)
    }

    /// Promise-based alternative to `decode(_:from:completion:)`, added by vow-migrate.
    func decode<T: Decodable & Sendable>(_ type: T.Type, from data: Data) -> Promise<T> {
        Promise { seal in
            decode(type, from: data) { value, error in
                seal.resolve(value, error)
            }
        }
    }
}
