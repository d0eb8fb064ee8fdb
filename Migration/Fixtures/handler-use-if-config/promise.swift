import Foundation
import Vow

struct Item: Sendable {
    let id: Int
}

final class ItemClient: @unchecked Sendable {
    func fetchLegacy(id: Int, completion: @escaping @Sendable (Swift.Result<Item, Error>) -> Void) {
        completion(.success(Item(id: id)))
    }

    /// Promise-based alternative to `fetchLegacy(id:completion:)`, added by vow-migrate.
    func fetchLegacy(id: Int) -> Promise<Item> {
        Promise { seal in
            fetchLegacy(id: id) { result in
                seal.resolve(result)
            }
        }
    }

    // One clause is compiled: each calls the handler once, or hands it on.
    func fetch(id: Int, completion: @escaping @Sendable (Swift.Result<Item, Error>) -> Void) {
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

    /// Promise-based alternative to `fetch(id:completion:)`, added by vow-migrate.
    func fetch(id: Int) -> Promise<Item> {
        Promise { seal in
            fetch(id: id) { result in
                seal.resolve(result)
            }
        }
    }

    // Nested clauses inside a callback the body passes on.
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

    /// Promise-based alternative to `refresh(id:completion:)`, added by vow-migrate.
    func refresh(id: Int) -> Promise<Void> {
        Promise { seal in
            refresh(id: id) { error in
                seal.resolve(error)
            }
        }
    }

    // A clause that answers early, then the call after it.
    func remove(id: Int, completion: @escaping @Sendable (Error?) -> Void) {
        #if DEBUG
        guard id > 0 else {
            completion(URLError(.badURL))
            return
        }
        #endif
        completion(nil)
    }

    /// Promise-based alternative to `remove(id:completion:)`, added by vow-migrate.
    func remove(id: Int) -> Promise<Void> {
        Promise { seal in
            remove(id: id) { error in
                seal.resolve(error)
            }
        }
    }

    // Switch cases inside a clause are alternatives too.
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

    /// Promise-based alternative to `count(kind:completion:)`, added by vow-migrate.
    func count(kind: Int) -> Guarantee<Int> {
        Guarantee { resolve in
            count(kind: kind) { value in
                resolve(value)
            }
        }
    }

    // No `#else`: a build without DEBUG never calls it.
    func debugOnly(completion: @escaping @Sendable (Error?) -> Void) {
        #if DEBUG
        completion(nil)
        #endif
    }

    /// Promise-based alternative to `debugOnly(completion:)`, added by vow-migrate.
    /// Like the original, which ends without calling its handler on some path, it answers nothing there: the promise stays pending.
    func debugOnly() -> Promise<Void> {
        Promise(ifAbandoned: .stayPending) { seal in
            debugOnly { error in
                seal.resolve(error)
            }
        }
    }
}
