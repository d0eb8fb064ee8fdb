import Foundation

/// Cancels the handle an async alternative added by vow-migrate waits on, once the awaiting Task
/// is cancelled: at once when the handle is stored, or as soon as it is if the Task was cancelled
/// before, and at most once. An actor rather than a lock, so the file needs neither Foundation nor
/// Vow; a cancellation that lands after the handler answered cancels a finished handle, which
/// changes nothing (the continuation has resumed).
fileprivate actor PendingCancellation {
    private var storedCancel: (@Sendable () -> Void)?
    private var isCancelled = false

    func store(_ cancelHandle: @escaping @Sendable () -> Void) {
        if isCancelled { cancelHandle() } else { storedCancel = cancelHandle }
    }

    func cancel() {
        isCancelled = true
        storedCancel?()
        storedCancel = nil
    }
}

final class ItemService: Sendable {
    @available(*, renamed: "fetch(id:)")
    @discardableResult
    func fetch(id: Int, completion: @escaping FetchCompletion) -> DataRequest {
        completion(.success(Item(id: id)))
        return ItemRequest()
    }

    /// Async alternative to `fetch(id:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func fetch(id: Int) async throws -> Item {
        let cancellation = PendingCancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = fetch(id: id) { result in
                    continuation.resume(with: result)
                }
                Task { await cancellation.store { task.cancel() } }
            }
        } onCancel: {
            Task { await cancellation.cancel() }
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
    nonisolated(nonsending) func upload(_ item: Item) async throws {
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
