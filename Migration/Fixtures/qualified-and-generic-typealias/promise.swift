import Foundation
import Vow

/// Stands for a module's namespace, as `Moya.Completion` would be.
enum Moya {
    typealias Completion = @Sendable (Swift.Result<Data, Error>) -> Void
}

final class OAuthSwiftHTTPRequest: Sendable {
    typealias CompletionHandler = @Sendable (Swift.Result<String, Error>) -> Void
}

typealias Completion<T> = @Sendable (Swift.Result<T, Error>) -> Void

struct User: Sendable {
    let name: String
}

final class Client: Sendable {
    func request(path: String, completion: @escaping Moya.Completion) {
        completion(.success(Data()))
    }

    /// Promise-based alternative to `request(path:completion:)`, added by vow-migrate.
    func request(path: String) -> Promise<Data> {
        Promise { seal in
            request(path: path) { result in
                seal.resolve(result)
            }
        }
    }

    func authorize(scope: String, completion: OAuthSwiftHTTPRequest.CompletionHandler?) {
        completion?(.success(scope))
    }

    /// Promise-based alternative to `authorize(scope:completion:)`, added by vow-migrate.
    func authorize(scope: String) -> Promise<String> {
        Promise { seal in
            authorize(scope: scope) { result in
                seal.resolve(result)
            }
        }
    }

    func user(id: Int, completion: @escaping Completion<User>) {
        completion(.success(User(name: "\(id)")))
    }

    /// Promise-based alternative to `user(id:completion:)`, added by vow-migrate.
    func user(id: Int) -> Promise<User> {
        Promise { seal in
            user(id: id) { result in
                seal.resolve(result)
            }
        }
    }
}
