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
    @available(*, renamed: "request(path:)")
    func request(path: String, completion: @escaping Moya.Completion) {
        completion(.success(Data()))
    }

    /// Async alternative to `request(path:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func request(path: String) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            request(path: path) { result in
                continuation.resume(with: result)
            }
        }
    }

    @available(*, renamed: "authorize(scope:)")
    func authorize(scope: String, completion: OAuthSwiftHTTPRequest.CompletionHandler?) {
        completion?(.success(scope))
    }

    /// Async alternative to `authorize(scope:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func authorize(scope: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            authorize(scope: scope) { result in
                continuation.resume(with: result)
            }
        }
    }

    @available(*, renamed: "user(id:)")
    func user(id: Int, completion: @escaping Completion<User>) {
        completion(.success(User(name: "\(id)")))
    }

    /// Async alternative to `user(id:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func user(id: Int) async throws -> User {
        try await withCheckedThrowingContinuation { continuation in
            user(id: id) { result in
                continuation.resume(with: result)
            }
        }
    }
}
