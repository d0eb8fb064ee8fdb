import Foundation

struct Item: Sendable {
    let id: Int
}

final class ItemClient: @unchecked Sendable {
    @available(*, renamed: "fetchLegacy(id:)")
    func fetchLegacy(id: Int, completion: @escaping @Sendable (Result<Item, Error>) -> Void) {
        completion(.success(Item(id: id)))
    }

    /// Async alternative to `fetchLegacy(id:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func fetchLegacy(id: Int) async throws -> Item {
        try await withCheckedThrowingContinuation { continuation in
            fetchLegacy(id: id) { result in
                continuation.resume(with: result)
            }
        }
    }

    // One clause is compiled: each calls the handler once, or hands it on.
    @available(*, renamed: "fetch(id:)")
    func fetch(id: Int, completion: @escaping @Sendable (Result<Item, Error>) -> Void) {
        #if compiler(>=5.5.2)
        completion(.success(Item(id: id)))
        #elseif DEBUG
        fetchLegacy(id: id, completion: completion)
        #else
        fetchLegacy(id: id) { result in
            completion(result)
        }
        #endif
    }

    /// Async alternative to `fetch(id:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func fetch(id: Int) async throws -> Item {
        try await withCheckedThrowingContinuation { continuation in
            fetch(id: id) { result in
                continuation.resume(with: result)
            }
        }
    }

    // Nested clauses inside a callback the body passes on.
    @available(*, renamed: "refresh(id:)")
    func refresh(id: Int, completion: @escaping @Sendable (Error?) -> Void) {
        DispatchQueue.global().async {
            #if os(Linux)
            #if DEBUG
            completion(nil)
            #else
            completion(URLError(.badURL))
            #endif
            #else
            completion(nil)
            #endif
        }
    }

    /// Async alternative to `refresh(id:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func refresh(id: Int) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            refresh(id: id) { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
            }
        }
    }

    // A clause that answers early, then the call after it.
    @available(*, renamed: "remove(id:)")
    func remove(id: Int, completion: @escaping @Sendable (Error?) -> Void) {
        #if DEBUG
        guard id > 0 else {
            completion(URLError(.badURL))
            return
        }
        #endif
        completion(nil)
    }

    /// Async alternative to `remove(id:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func remove(id: Int) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            remove(id: id) { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
            }
        }
    }

    // Switch cases inside a clause are alternatives too.
    @available(*, renamed: "count(kind:)")
    func count(kind: Int, completion: @escaping @Sendable (Int) -> Void) {
        switch kind {
        case 0:
            completion(0)
        #if DEBUG
        case 1:
            completion(1)
        #endif
        default:
            completion(2)
        }
    }

    /// Async alternative to `count(kind:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func count(kind: Int) async -> Int {
        await withCheckedContinuation { continuation in
            count(kind: kind) { value in
                continuation.resume(returning: value)
            }
        }
    }

    // No `#else`: a build without DEBUG never calls it.
    @available(*, renamed: "debugOnly()")
    func debugOnly(completion: @escaping @Sendable (Error?) -> Void) {
        #if DEBUG
        completion(nil)
        #endif
    }

    /// Async alternative to `debugOnly(completion:)`, added by vow-migrate.
    /// Like the original, which ends without calling its handler on some path, it answers nothing there: the awaiting task stays suspended.
    nonisolated(nonsending) func debugOnly() async throws {
        try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
            debugOnly { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
            }
        }
    }
}
