import Foundation

final class ItemService: Sendable {
    @discardableResult
    func fetch(id: Int, completion: @escaping FetchCompletion) -> DataRequest {
        completion(.success(Item(id: id)))
        return ItemRequest()
    }

    // Already has an async version, in ItemService+Async.swift.
    func list(completion: @escaping Catalog.Completion<[Item]>) {
        completion(.success([]))
    }

    // Its handler's alias comes from the vendored SDK (--context).
    func upload(_ item: Item, completion: @escaping VendorCompletion) {
        completion(nil)
    }
}
