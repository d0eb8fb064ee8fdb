import Foundation
import Vow

struct Item {
    let id: Int
}

final class Handle {
    func cancel() {}
}

/// A plain class, not Sendable, with non-Sendable handlers and a handle that is not Sendable either.
class Repository {
    var items: [Int: Item] = [:]

    func item(id: Int, completion: @escaping (Item?, Error?) -> Void) {
        completion(items[id], nil)
    }

    /// Promise-based alternative to `item(id:completion:)`, added by vow-migrate.
    func item(id: Int) -> Promise<Item> {
        Promise { seal in
            item(id: id) { value, error in
                seal.resolve(value, error)
            }
        }
    }

    func load(completion: @escaping (Swift.Result<[Item], Error>) -> Void) -> Handle {
        completion(.success(Array(items.values)))
        return Handle()
    }

    /// Promise-based alternative to `load(completion:)`, added by vow-migrate.
    func load(cancellation token: CancellationToken? = nil) -> Promise<[Item]> {
        Promise(cancellation: token) { seal in
            nonisolated(unsafe) let task = load { result in
                seal.resolve(result)
            }
            seal.onCancel { task.cancel() }
        }
    }

    func count(completion: @escaping (Int) -> Void) {
        completion(items.count)
    }

    /// Promise-based alternative to `count(completion:)`, added by vow-migrate.
    func count() -> Guarantee<Int> {
        Guarantee { resolve in
            count { value in
                resolve(value)
            }
        }
    }

    func clear(completion: @escaping (Error?) -> Void) {
        items = [:]
        completion(nil)
    }

    /// Promise-based alternative to `clear(completion:)`, added by vow-migrate.
    func clear() -> Promise<Void> {
        Promise { seal in
            clear { error in
                seal.resolve(error)
            }
        }
    }
}

@MainActor
final class ViewModel {
    var title = ""

    func refresh(completion: @escaping (String?, Error?) -> Void) {
        completion(title, nil)
    }

    /// Promise-based alternative to `refresh(completion:)`, added by vow-migrate.
    func refresh() -> Promise<String> {
        Promise { seal in
            refresh { value, error in
                seal.resolve(value, error)
            }
        }
    }
}
