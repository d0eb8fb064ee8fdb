// No Foundation and no Vow: the async alternatives must build with the standard library alone.

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

/// A handle on work in flight, like `URLSessionTask`.
final class Transfer: Sendable {
    func cancel() {}
}

/// A handle that is not `Sendable`, as many older SDKs' are.
final class LegacyTransfer {
    func cancel() {}
}

enum StoreError: Error {
    case offline
}

final class Store: Sendable {
    // `(nil, nil)` is neither a value nor an error.
    @available(*, renamed: "load(key:)")
    func load(key: String, completion: @escaping @Sendable (String?, Error?) -> Void) {
        completion(key, nil)
    }

    /// Async alternative to `load(key:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func load(key: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            load(key: key) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "load(key:completion:)"))
                }
            }
        }
    }

    // `(false, nil)` is a failure without an error.
    @available(*, renamed: "save(_:)")
    func save(_ value: String, completion: @escaping @Sendable (Bool, Error?) -> Void) {
        completion(true, nil)
    }

    /// Async alternative to `save(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func save(_ value: String) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            save(value) { success, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if success {
                    continuation.resume()
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "save(_:completion:)"))
                }
            }
        }
    }

    // Several values, one of them optional: a nil one is no answer either.
    @available(*, renamed: "stats()")
    func stats(completion: @escaping @Sendable (_ count: Int?, _ label: String, _ error: Error?) -> Void) {
        completion(1, "one", nil)
    }

    /// Async alternative to `stats(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func stats() async throws -> (count: Int, label: String) {
        try await withCheckedThrowingContinuation { continuation in
            stats { count, label, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let count {
                    continuation.resume(returning: (count: count, label: label))
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "stats(completion:)"))
                }
            }
        }
    }

    // A handle to cancel when the awaiting Task is cancelled.
    @available(*, renamed: "upload(_:)")
    @discardableResult
    func upload(_ value: String, completion: @escaping @Sendable (Result<Int, Error>) -> Void) -> Transfer {
        completion(.success(value.count))
        return Transfer()
    }

    /// Async alternative to `upload(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func upload(_ value: String) async throws -> Int {
        let cancellation = PendingCancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = upload(value) { result in
                    continuation.resume(with: result)
                }
                Task { await cancellation.store { task.cancel() } }
            }
        } onCancel: {
            Task { await cancellation.cancel() }
        }
    }

    // Throwing, with an optional handle and a handler that may answer `(nil, nil)`.
    @available(*, renamed: "download(key:)")
    func download(key: String, completion: @escaping @Sendable (String?, Error?) -> Void) throws -> Transfer? {
        guard !key.isEmpty else { throw StoreError.offline }
        completion(key, nil)
        return Transfer()
    }

    /// Async alternative to `download(key:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func download(key: String) async throws -> String {
        let cancellation = PendingCancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                do {
                    let task = try download(key: key) { value, error in
                        if let error {
                            continuation.resume(throwing: error)
                        } else if let value {
                            continuation.resume(returning: value)
                        } else {
                            continuation.resume(throwing: NeitherValueNorError(function: "download(key:completion:)"))
                        }
                    }
                    Task { await cancellation.store { task?.cancel() } }
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            Task { await cancellation.cancel() }
        }
    }

    // A handle that is not `Sendable`.
    @available(*, renamed: "sync()")
    func sync(completion: @escaping @Sendable (Error?) -> Void) -> LegacyTransfer {
        completion(nil)
        return LegacyTransfer()
    }

    /// Async alternative to `sync(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func sync() async throws {
        let cancellation = PendingCancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                nonisolated(unsafe) let task = sync { error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else {
                        continuation.resume()
                    }
                }
                Task { await cancellation.store { task.cancel() } }
            }
        } onCancel: {
            Task { await cancellation.cancel() }
        }
    }
}
