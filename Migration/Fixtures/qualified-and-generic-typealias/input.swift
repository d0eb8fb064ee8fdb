import Foundation

/// Stands for a module's namespace, as `Moya.Completion` would be.
enum Moya {
    typealias Completion = @Sendable (Result<Data, Error>) -> Void
}

final class OAuthSwiftHTTPRequest: Sendable {
    typealias CompletionHandler = @Sendable (Result<String, Error>) -> Void
}

typealias Completion<T> = @Sendable (Result<T, Error>) -> Void

struct User: Sendable {
    let name: String
}

final class Client: Sendable {
    func request(path: String, completion: @escaping Moya.Completion) {
        completion(.success(Data()))
    }

    func authorize(scope: String, completion: OAuthSwiftHTTPRequest.CompletionHandler?) {
        completion?(.success(scope))
    }

    func user(id: Int, completion: @escaping Completion<User>) {
        completion(.success(User(name: "\(id)")))
    }
}
