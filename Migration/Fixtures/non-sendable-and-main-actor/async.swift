import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

/// Resumes the continuation of an async alternative added by vow-migrate once: with the
/// original's answer, or with `CancellationError` as soon as the awaiting Task is cancelled,
/// whichever comes first, cancelling the handle the original returned; the other is dropped.
/// A callee that never answers a cancelled request (`if error.code == NSURLErrorCancelled
/// { return }`) cannot leave the await waiting.
fileprivate final class CancellableAnswer<Value>: @unchecked Sendable {
    // @unchecked: every stored property is read and written only under `lock`.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, any Error>?
    private var cancelHandle: (@Sendable () -> Void)?
    private var isCancelled = false

    /// Keeps the continuation; false, the await throwing `CancellationError`, when the Task
    /// was cancelled before the original is called (it is not called then).
    func start(_ continuation: CheckedContinuation<Value, any Error>) -> Bool {
        lock.lock()
        let cancelled = isCancelled
        if !cancelled { self.continuation = continuation }
        lock.unlock()
        if cancelled { continuation.resume(throwing: CancellationError()) }
        return !cancelled
    }

    fileprivate func take() -> CheckedContinuation<Value, any Error>? {
        lock.lock()
        defer { lock.unlock() }
        let taken = continuation
        continuation = nil
        return taken
    }

    func resume(returning value: sending Value) { take()?.resume(returning: value) }
    func resume(throwing error: any Error) { take()?.resume(throwing: error) }
    func resume<Failure: Error>(with result: sending Swift.Result<Value, Failure>) {
        switch result {
        case .success(let value): resume(returning: value)
        case .failure(let error): resume(throwing: error)
        }
    }

    /// Keeps how to cancel the handle, or cancels it at once when the Task was cancelled already.
    func store(_ cancelHandle: @escaping @Sendable () -> Void) {
        lock.lock()
        let cancelled = isCancelled
        if !cancelled { self.cancelHandle = cancelHandle }
        lock.unlock()
        if cancelled { cancelHandle() }
    }

    /// The awaiting Task was cancelled: unless the original answered first, the await throws
    /// `CancellationError`; the handle is cancelled.
    func cancel() {
        lock.lock()
        isCancelled = true
        let cancelHandle = self.cancelHandle
        self.cancelHandle = nil
        let taken = continuation
        continuation = nil
        lock.unlock()
        taken?.resume(throwing: CancellationError())
        cancelHandle?()
    }
}

extension CancellableAnswer where Value == Void {
    func resume() { take()?.resume() }
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
        let answer = CancellableAnswer<[Item]>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard answer.start(continuation) else { return }
                nonisolated(unsafe) let task = load { result in
                    answer.resume(with: result)
                }
                answer.store { task.cancel() }
            }
        } onCancel: {
            answer.cancel()
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
