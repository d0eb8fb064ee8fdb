import Foundation
import Vow

/// Methods added in extensions of a generic type or of a protocol with an associated type: the
/// value uses a parameter the extension does not constrain, so a promise needs it `Sendable`
/// (Parse-Swift's `extension ParseCloud { func runFunction(...) }` with `ReturnType`).
struct Box<Value> {
    var value: Value
}

extension Box {
    func load(completion: @escaping (Swift.Result<Value, Error>) -> Void) {
        completion(.success(value))
    }

    /// Promise-based alternative to `load(completion:)`, added by vow-migrate.
    func load() -> Promise<Value> where Value: Sendable {
        Promise { seal in
            load { result in
                seal.resolve(result)
            }
        }
    }
}

extension Box where Value: Sendable {
    func reload(completion: @escaping @Sendable (Swift.Result<Value, Error>) -> Void) {
        completion(.success(value))
    }

    /// Promise-based alternative to `reload(completion:)`, added by vow-migrate.
    func reload() -> Promise<Value> {
        Promise { seal in
            reload { result in
                seal.resolve(result)
            }
        }
    }
}

protocol Cloud {
    associatedtype ReturnType: Decodable
    var name: String { get }
    func decoded() throws -> ReturnType
}

extension Cloud {
    func run(delay: Double = 0, completion: @escaping (Swift.Result<ReturnType, Error>) -> Void) {
        completion(Swift.Result { try decoded() })
    }

    /// Promise-based alternative to `run(delay:completion:)`, added by vow-migrate.
    func run(delay: Double = 0) -> Promise<ReturnType> where ReturnType: Sendable {
        Promise { seal in
            run(delay: delay) { result in
                seal.resolve(result)
            }
        }
    }
}
