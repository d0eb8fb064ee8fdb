import Foundation
import Vow

final class ItemService: Sendable {
    @discardableResult
    func fetch(id: Int, completion: @escaping FetchCompletion) -> DataRequest {
        completion(.success(Item(id: id)))
        return ItemRequest()
    }

    /// Promise-based alternative to `fetch(id:completion:)`, added by vow-migrate.
    func fetch(id: Int, cancellation token: CancellationToken? = nil) -> Promise<Item> {
        Promise(cancellation: token) { seal in
            let task = fetch(id: id) { result in
                seal.resolve(result)
            }
            seal.onCancel { task.cancel() }
        }
    }

    // Already has an async version, in ItemService+Async.swift.
    func list(completion: @escaping Catalog.Completion<[Item]>) {
        completion(.success([]))
    }

    /// Promise-based alternative to `list(completion:)`, added by vow-migrate.
    func list() -> Promise<[Item]> {
        Promise { seal in
            list { result in
                seal.resolve(result)
            }
        }
    }

    // Its handler's alias comes from the vendored SDK (--context).
    func upload(_ item: Item, completion: @escaping VendorCompletion) {
        completion(nil)
    }

    /// Promise-based alternative to `upload(_:completion:)`, added by vow-migrate.
    func upload(_ item: Item) -> Promise<Void> {
        Promise { seal in
            upload(item) { error in
                seal.resolve(error)
            }
        }
    }
}
