import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

// Where an async alternative may run on its caller's actor (`nonisolated(nonsending)`), and where
// it must share the original's isolation instead.

struct Trail: Codable, Sendable {
    var id: Int
    var name: String
}

protocol TrailStore: AnyObject, Sendable {
    @available(*, renamed: "trail(id:)")
    func trail(id: Int, completion: @escaping @Sendable (Result<Trail, Error>) -> Void)
}

/// Promise and async alternatives to the completion-handler requirements, added by vow-migrate.
extension TrailStore {
    /// Async alternative to `trail(id:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func trail(id: Int) async throws -> Trail {
        try await withCheckedThrowingContinuation { continuation in
            trail(id: id) { result in
                continuation.resume(with: result)
            }
        }
    }
}

/// A plain service: nonisolated, inheriting only the tree's nonisolated protocol and `Sendable`.
final class TrailService: TrailStore, @unchecked Sendable {
    @available(*, renamed: "trail(id:)")
    func trail(id: Int, completion: @escaping @Sendable (Result<Trail, Error>) -> Void) {
        completion(.success(Trail(id: id, name: "Eagle Ridge")))
    }

    /// Async alternative to `trail(id:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func trail(id: Int) async throws -> Trail {
        try await withCheckedThrowingContinuation { continuation in
            trail(id: id) { result in
                continuation.resume(with: result)
            }
        }
    }

    /// A function of its own, with a global actor: it stays isolated.
    @available(*, renamed: "refresh()")
    @MainActor func refresh(completion: @escaping @MainActor (Error?) -> Void) {
        completion(nil)
    }

    /// Async alternative to `refresh(completion:)`, added by vow-migrate.
    @MainActor
    func refresh() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            refresh { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
            }
        }
    }
}

/// An extension of a nonisolated type declared in the tree.
extension TrailService {
    @available(*, renamed: "rename(_:to:)")
    func rename(_ id: Int, to name: String, completion: @escaping @Sendable (Error?) -> Void) {
        completion(nil)
    }

    /// Async alternative to `rename(_:to:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func rename(_ id: Int, to name: String) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            rename(id, to: name) { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
            }
        }
    }
}

/// A `@MainActor` extension: its members are isolated.
@MainActor
extension TrailService {
    @available(*, renamed: "pin(_:)")
    func pin(_ id: Int, completion: @escaping @Sendable (Bool) -> Void) {
        completion(true)
    }

    /// Async alternative to `pin(_:completion:)`, added by vow-migrate.
    func pin(_ id: Int) async -> Bool {
        await withCheckedContinuation { continuation in
            pin(id) { value in
                continuation.resume(returning: value)
            }
        }
    }
}

/// A subclass of a Foundation class known not to be isolated.
final class LegacyLoader: NSObject, @unchecked Sendable {
    @available(*, renamed: "load(path:)")
    func load(path: String, completion: @escaping @Sendable (Data?, Error?) -> Void) {
        completion(Data(path.utf8), nil)
    }

    /// Async alternative to `load(path:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func load(path: String) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            load(path: path) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "load(path:completion:)"))
                }
            }
        }
    }
}

/// Isolated to the main actor: its alternatives share that isolation.
@MainActor
final class TrailViewModel {
    private(set) var trails: [Trail] = []

    @available(*, renamed: "reload()")
    func reload(completion: @escaping @MainActor ([Trail]) -> Void) {
        completion(trails)
    }

    /// Async alternative to `reload(completion:)`, added by vow-migrate.
    func reload() async -> [Trail] {
        await withCheckedContinuation { continuation in
            reload { value in
                continuation.resume(returning: value)
            }
        }
    }

    /// Written `nonisolated`: its alternative may run on its caller's actor.
    @available(*, renamed: "version()")
    nonisolated func version(completion: @escaping @Sendable (Int) -> Void) {
        completion(2)
    }

    /// Async alternative to `version(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func version() async -> Int {
        await withCheckedContinuation { continuation in
            version { value in
                continuation.resume(returning: value)
            }
        }
    }
}

/// An actor: its methods are isolated to it.
actor TrailCache {
    private var names: [Int: String] = [:]

    @available(*, renamed: "name(of:)")
    func name(of id: Int, completion: @escaping @Sendable (String?) -> Void) {
        completion(names[id])
    }

    /// Async alternative to `name(of:completion:)`, added by vow-migrate.
    func name(of id: Int) async -> String? {
        await withCheckedContinuation { continuation in
            name(of: id) { value in
                continuation.resume(returning: value)
            }
        }
    }
}

/// A subclass of a framework class the tool does not know (UIKit's are `@MainActor`): not provably
/// nonisolated.
final class SceneWorker: OperationQueue, @unchecked Sendable {
    @available(*, renamed: "prepare()")
    func prepare(completion: @escaping () -> Void) {
        completion()
    }

    /// Async alternative to `prepare(completion:)`, added by vow-migrate.
    func prepare() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            prepare {
                continuation.resume()
            }
        }
    }
}

/// At file scope.
@available(*, renamed: "loadDefaults()")
func loadDefaults(completion: @escaping @Sendable ([String: Int]) -> Void) {
    completion(["trails": 3])
}

/// Async alternative to `loadDefaults(completion:)`, added by vow-migrate.
nonisolated(nonsending) func loadDefaults() async -> [String: Int] {
    await withCheckedContinuation { continuation in
        loadDefaults { value in
            continuation.resume(returning: value)
        }
    }
}

/// A protocol of the tree refining one it does not declare (which may carry a global actor).
protocol SceneParticipant: CustomPlaygroundDisplayConvertible {
    @available(*, renamed: "join()")
    func join(completion: @escaping @Sendable (Bool) -> Void)
}

/// Promise and async alternatives to the completion-handler requirements, added by vow-migrate.
extension SceneParticipant {
    /// Async alternative to `join(completion:)`, added by vow-migrate.
    func join() async -> Bool {
        await withCheckedContinuation { continuation in
            join { value in
                continuation.resume(returning: value)
            }
        }
    }
}
