import Foundation
import Vow

final class ItemService: Sendable {
    @available(*, renamed: "fetch(id:)")
    @discardableResult
    func fetch(id: Int, completion: @escaping FetchCompletion) -> DataRequest {
        completion(.success(Item(id: id)))
        return ItemRequest()
    }

    /// Async alternative to `fetch(id:completion:)`, added by vow-migrate.
    func fetch(id: Int) async throws -> Item {
        let cancellationSource = CancellationTokenSource()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = fetch(id: id) { result in
                    continuation.resume(with: result)
                }
                cancellationSource.token.register { task.cancel() }
            }
        } onCancel: {
            cancellationSource.cancel()
        }
    }

    // Already has an async version, in ItemService+Async.swift.
    func list(completion: @escaping Catalog.Completion<[Item]>) {
        completion(.success([]))
    }

    // Its handler's alias comes from the vendored SDK (--context).
    @available(*, renamed: "upload(_:)")
    func upload(_ item: Item, completion: @escaping VendorCompletion) {
        completion(nil)
    }

    /// Async alternative to `upload(_:completion:)`, added by vow-migrate.
    func upload(_ item: Item) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            upload(item) { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
            }
        }
    }
}
