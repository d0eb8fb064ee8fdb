import Foundation

/// Methods added in extensions of a generic type or of a protocol with an associated type: the
/// value uses a parameter the extension does not constrain, so a promise needs it `Sendable`
/// (Parse-Swift's `extension ParseCloud { func runFunction(...) }` with `ReturnType`).
struct Box<Value> {
    var value: Value
}

extension Box {
    @available(*, renamed: "load()")
    func load(completion: @escaping (Result<Value, Error>) -> Void) {
        completion(.success(value))
    }

    /// Async alternative to `load(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func load() async throws -> Value where Value: Sendable {
        try await withCheckedThrowingContinuation { continuation in
            load { result in
                continuation.resume(with: result)
            }
        }
    }
}

extension Box where Value: Sendable {
    @available(*, renamed: "reload()")
    func reload(completion: @escaping @Sendable (Result<Value, Error>) -> Void) {
        completion(.success(value))
    }

    /// Async alternative to `reload(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func reload() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            reload { result in
                continuation.resume(with: result)
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
    @available(*, renamed: "run(delay:)")
    func run(delay: Double = 0, completion: @escaping (Result<ReturnType, Error>) -> Void) {
        completion(Result { try decoded() })
    }

    /// Async alternative to `run(delay:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func run(delay: Double = 0) async throws -> ReturnType where ReturnType: Sendable {
        try await withCheckedThrowingContinuation { continuation in
            run(delay: delay) { result in
                continuation.resume(with: result)
            }
        }
    }
}
