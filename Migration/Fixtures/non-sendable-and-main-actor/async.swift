import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

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

struct Item {
    let id: Int
}

final class Handle {
    func cancel() {}
}

/// A plain class, not Sendable, with non-Sendable handlers and a handle that is not Sendable either.
class Repository {
    var items: [Int: Item] = [:]

    @available(*, renamed: "item(id:)")
    func item(id: Int, completion: @escaping (Item?, Error?) -> Void) {
        completion(items[id], nil)
    }

    /// Async alternative to `item(id:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func item(id: Int) async throws -> Item {
        try await withCheckedThrowingContinuation { continuation in
            item(id: id) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "item(id:completion:)"))
                }
            }
        }
    }

    @available(*, renamed: "load()")
    func load(completion: @escaping (Result<[Item], Error>) -> Void) -> Handle {
        completion(.success(Array(items.values)))
        return Handle()
    }

    /// Async alternative to `load(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func load() async throws -> [Item] {
        let cancellation = PendingCancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                nonisolated(unsafe) let task = load { result in
                    continuation.resume(with: result)
                }
                Task { await cancellation.store { task.cancel() } }
            }
        } onCancel: {
            Task { await cancellation.cancel() }
        }
    }

    @available(*, renamed: "count()")
    func count(completion: @escaping (Int) -> Void) {
        completion(items.count)
    }

    /// Async alternative to `count(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func count() async -> Int {
        await withCheckedContinuation { continuation in
            count { value in
                continuation.resume(returning: value)
            }
        }
    }

    @available(*, renamed: "clear()")
    func clear(completion: @escaping (Error?) -> Void) {
        items = [:]
        completion(nil)
    }

    /// Async alternative to `clear(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func clear() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            clear { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
            }
        }
    }
}

@MainActor
final class ViewModel {
    var title = ""

    @available(*, renamed: "refresh()")
    func refresh(completion: @escaping (String?, Error?) -> Void) {
        completion(title, nil)
    }

    /// Async alternative to `refresh(completion:)`, added by vow-migrate.
    func refresh() async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            refresh { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "refresh(completion:)"))
                }
            }
        }
    }
}
