import Foundation

// Where an async alternative may run on its caller's actor (`nonisolated(nonsending)`), and where
// it must share the original's isolation instead.

struct Trail: Codable, Sendable {
    var id: Int
    var name: String
}

protocol TrailStore: AnyObject, Sendable {
    func trail(id: Int, completion: @escaping @Sendable (Result<Trail, Error>) -> Void)
}

/// A plain service: nonisolated, inheriting only the tree's nonisolated protocol and `Sendable`.
final class TrailService: TrailStore, @unchecked Sendable {
    func trail(id: Int, completion: @escaping @Sendable (Result<Trail, Error>) -> Void) {
        completion(.success(Trail(id: id, name: "Eagle Ridge")))
    }

    /// A function of its own, with a global actor: it stays isolated.
    @MainActor func refresh(completion: @escaping @MainActor (Error?) -> Void) {
        completion(nil)
    }
}

/// An extension of a nonisolated type declared in the tree.
extension TrailService {
    func rename(_ id: Int, to name: String, completion: @escaping @Sendable (Error?) -> Void) {
        completion(nil)
    }
}

/// A `@MainActor` extension: its members are isolated.
@MainActor
extension TrailService {
    func pin(_ id: Int, completion: @escaping @Sendable (Bool) -> Void) {
        completion(true)
    }
}

/// A subclass of a Foundation class known not to be isolated.
final class LegacyLoader: NSObject, @unchecked Sendable {
    func load(path: String, completion: @escaping @Sendable (Data?, Error?) -> Void) {
        completion(Data(path.utf8), nil)
    }
}

/// Isolated to the main actor: its alternatives share that isolation.
@MainActor
final class TrailViewModel {
    private(set) var trails: [Trail] = []

    func reload(completion: @escaping @MainActor ([Trail]) -> Void) {
        completion(trails)
    }

    /// Written `nonisolated`: its alternative may run on its caller's actor.
    nonisolated func version(completion: @escaping @Sendable (Int) -> Void) {
        completion(2)
    }
}

/// An actor: its methods are isolated to it.
actor TrailCache {
    private var names: [Int: String] = [:]

    func name(of id: Int, completion: @escaping @Sendable (String?) -> Void) {
        completion(names[id])
    }
}

/// A subclass of a framework class the tool does not know (UIKit's are `@MainActor`): not provably
/// nonisolated.
final class SceneWorker: OperationQueue, @unchecked Sendable {
    func prepare(completion: @escaping () -> Void) {
        completion()
    }
}

/// At file scope.
func loadDefaults(completion: @escaping @Sendable ([String: Int]) -> Void) {
    completion(["trails": 3])
}

/// A protocol of the tree refining one it does not declare (which may carry a global actor).
protocol SceneParticipant: CustomPlaygroundDisplayConvertible {
    func join(completion: @escaping @Sendable (Bool) -> Void)
}
