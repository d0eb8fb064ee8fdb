import Foundation
import Vow

// Where an async alternative may run on its caller's actor (`nonisolated(nonsending)`), and where
// it must share the original's isolation instead.

struct Trail: Codable, Sendable {
    var id: Int
    var name: String
}

protocol TrailStore: AnyObject, Sendable {
    func trail(id: Int, completion: @escaping @Sendable (Swift.Result<Trail, Error>) -> Void)
}

/// Promise and async alternatives to the completion-handler requirements, added by vow-migrate.
extension TrailStore {
    /// Promise-based alternative to `trail(id:completion:)`, added by vow-migrate.
    func trail(id: Int) -> Promise<Trail> {
        Promise { seal in
            trail(id: id) { result in
                seal.resolve(result)
            }
        }
    }
}

/// A plain service: nonisolated, inheriting only the tree's nonisolated protocol and `Sendable`.
final class TrailService: TrailStore, @unchecked Sendable {
    func trail(id: Int, completion: @escaping @Sendable (Swift.Result<Trail, Error>) -> Void) {
        completion(.success(Trail(id: id, name: "Eagle Ridge")))
    }

    /// Promise-based alternative to `trail(id:completion:)`, added by vow-migrate.
    func trail(id: Int) -> Promise<Trail> {
        Promise { seal in
            trail(id: id) { result in
                seal.resolve(result)
            }
        }
    }

    /// A function of its own, with a global actor: it stays isolated.
    @MainActor func refresh(completion: @escaping @MainActor (Error?) -> Void) {
        completion(nil)
    }

    /// Promise-based alternative to `refresh(completion:)`, added by vow-migrate.
    @MainActor
    func refresh() -> Promise<Void> {
        Promise { seal in
            refresh { error in
                seal.resolve(error)
            }
        }
    }
}

/// An extension of a nonisolated type declared in the tree.
extension TrailService {
    func rename(_ id: Int, to name: String, completion: @escaping @Sendable (Error?) -> Void) {
        completion(nil)
    }

    /// Promise-based alternative to `rename(_:to:completion:)`, added by vow-migrate.
    func rename(_ id: Int, to name: String) -> Promise<Void> {
        Promise { seal in
            rename(id, to: name) { error in
                seal.resolve(error)
            }
        }
    }
}

/// A `@MainActor` extension: its members are isolated.
@MainActor
extension TrailService {
    func pin(_ id: Int, completion: @escaping @Sendable (Bool) -> Void) {
        completion(true)
    }

    /// Promise-based alternative to `pin(_:completion:)`, added by vow-migrate.
    func pin(_ id: Int) -> Guarantee<Bool> {
        Guarantee { resolve in
            pin(id) { value in
                resolve(value)
            }
        }
    }
}

/// A subclass of a Foundation class known not to be isolated.
final class LegacyLoader: NSObject, @unchecked Sendable {
    func load(path: String, completion: @escaping @Sendable (Data?, Error?) -> Void) {
        completion(Data(path.utf8), nil)
    }

    /// Promise-based alternative to `load(path:completion:)`, added by vow-migrate.
    func load(path: String) -> Promise<Data> {
        Promise { seal in
            load(path: path) { value, error in
                seal.resolve(value, error)
            }
        }
    }
}

/// Isolated to the main actor: its alternatives share that isolation.
@MainActor
final class TrailViewModel {
    private(set) var trails: [Trail] = []

    func reload(completion: @escaping @MainActor ([Trail]) -> Void) {
        completion(trails)
    }

    /// Promise-based alternative to `reload(completion:)`, added by vow-migrate.
    func reload() -> Guarantee<[Trail]> {
        Guarantee { resolve in
            reload { value in
                resolve(value)
            }
        }
    }

    /// Written `nonisolated`: its alternative may run on its caller's actor.
    nonisolated func version(completion: @escaping @Sendable (Int) -> Void) {
        completion(2)
    }

    /// Promise-based alternative to `version(completion:)`, added by vow-migrate.
    nonisolated func version() -> Guarantee<Int> {
        Guarantee { resolve in
            version { value in
                resolve(value)
            }
        }
    }
}

/// An actor: its methods are isolated to it.
actor TrailCache {
    private var names: [Int: String] = [:]

    func name(of id: Int, completion: @escaping @Sendable (String?) -> Void) {
        completion(names[id])
    }

    /// Promise-based alternative to `name(of:completion:)`, added by vow-migrate.
    func name(of id: Int) -> Guarantee<String?> {
        Guarantee { resolve in
            name(of: id) { value in
                resolve(value)
            }
        }
    }
}

/// A subclass of a framework class the tool does not know (UIKit's are `@MainActor`): not provably
/// nonisolated.
final class SceneWorker: OperationQueue, @unchecked Sendable {
    func prepare(completion: @escaping () -> Void) {
        completion()
    }

    /// Promise-based alternative to `prepare(completion:)`, added by vow-migrate.
    func prepare() -> Guarantee<Void> {
        Guarantee { resolve in
            prepare {
                resolve(())
            }
        }
    }
}

/// At file scope.
func loadDefaults(completion: @escaping @Sendable ([String: Int]) -> Void) {
    completion(["trails": 3])
}

/// Promise-based alternative to `loadDefaults(completion:)`, added by vow-migrate.
func loadDefaults() -> Guarantee<[String: Int]> {
    Guarantee { resolve in
        loadDefaults { value in
            resolve(value)
        }
    }
}

/// A protocol of the tree refining one it does not declare (which may carry a global actor).
protocol SceneParticipant: CustomPlaygroundDisplayConvertible {
    func join(completion: @escaping @Sendable (Bool) -> Void)
}

/// Promise and async alternatives to the completion-handler requirements, added by vow-migrate.
extension SceneParticipant {
    /// Promise-based alternative to `join(completion:)`, added by vow-migrate.
    func join() -> Guarantee<Bool> {
        Guarantee { resolve in
            join { value in
                resolve(value)
            }
        }
    }
}
