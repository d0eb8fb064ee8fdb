import Foundation

final class JSONClient: Sendable {
    func get<Model: Decodable>(_ type: Model.Type, path: String, completion: @escaping @Sendable (Result<Model, Error>) -> Void) {
        do {
            let model = try JSONDecoder().decode(Model.self, from: Data("{}".utf8))
            completion(.success(model))
        } catch {
            completion(.failure(error))
        }
    }

    func first<Element>(of items: [Element], completion: @escaping @Sendable (Element?, Error?) -> Void) where Element: Sendable {
        completion(items.first, nil)
    }
}
