import Foundation

/// Methods added in extensions of a generic type or of a protocol with an associated type: the
/// value uses a parameter the extension does not constrain, so a promise needs it `Sendable`
/// (Parse-Swift's `extension ParseCloud { func runFunction(...) }` with `ReturnType`).
struct Box<Value> {
    var value: Value
}

extension Box {
    func load(completion: @escaping (Result<Value, Error>) -> Void) {
        completion(.success(value))
    }
}

extension Box where Value: Sendable {
    func reload(completion: @escaping @Sendable (Result<Value, Error>) -> Void) {
        completion(.success(value))
    }
}

protocol Cloud {
    associatedtype ReturnType: Decodable
    var name: String { get }
    func decoded() throws -> ReturnType
}

extension Cloud {
    func run(delay: Double = 0, completion: @escaping (Result<ReturnType, Error>) -> Void) {
        completion(Result { try decoded() })
    }
}
