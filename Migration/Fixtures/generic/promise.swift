import Foundation
import Vow

final class JSONClient: Sendable {
    func get<Model: Decodable>(_ type: Model.Type, path: String, completion: @escaping @Sendable (Swift.Result<Model, Error>) -> Void) {
        do {
            let model = try JSONDecoder().decode(Model.self, from: Data("{}".utf8))
            completion(.success(model))
        } catch {
            completion(.failure(error))
        }
    }

    /// Promise-based alternative to `get(_:path:completion:)`, added by vow-migrate.
    func get<Model: Decodable & Sendable>(_ type: Model.Type, path: String) -> Promise<Model> {
        Promise { seal in
            get(type, path: path) { result in
                seal.resolve(result)
            }
        }
    }

    func first<Element>(of items: [Element], completion: @escaping @Sendable (Element?, Error?) -> Void) where Element: Sendable {
        completion(items.first, nil)
    }

    /// Promise-based alternative to `first(of:completion:)`, added by vow-migrate.
    func first<Element>(of items: [Element]) -> Promise<Element> where Element: Sendable {
        Promise { seal in
            first(of: items) { value, error in
                seal.resolve(value, error)
            }
        }
    }
}
