// No Foundation and no Vow: the async alternatives must build with the standard library alone.

import Vow

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
    func load(key: String, completion: @escaping @Sendable (String?, Error?) -> Void) {
        completion(key, nil)
    }

    /// Promise-based alternative to `load(key:completion:)`, added by vow-migrate.
    func load(key: String) -> Promise<String> {
        Promise { seal in
            load(key: key) { value, error in
                seal.resolve(value, error)
            }
        }
    }

    // `(false, nil)` is a failure without an error.
    func save(_ value: String, completion: @escaping @Sendable (Bool, Error?) -> Void) {
        completion(true, nil)
    }

    /// Promise-based alternative to `save(_:completion:)`, added by vow-migrate.
    func save(_ value: String) -> Promise<Void> {
        Promise { seal in
            save(value) { success, error in
                if let error {
                    seal.reject(error)
                } else if success {
                    seal.fulfill()
                } else {
                    seal.reject(PMKError.invalidCallingConvention)
                }
            }
        }
    }

    // Several values, one of them optional: a nil one is no answer either.
    func stats(completion: @escaping @Sendable (_ count: Int?, _ label: String, _ error: Error?) -> Void) {
        completion(1, "one", nil)
    }

    /// Promise-based alternative to `stats(completion:)`, added by vow-migrate.
    func stats() -> Promise<(count: Int, label: String)> {
        Promise { seal in
            stats { count, label, error in
                if let error {
                    seal.reject(error)
                } else if let count {
                    seal.fulfill((count: count, label: label))
                } else {
                    seal.reject(PMKError.invalidCallingConvention)
                }
            }
        }
    }

    // A handle to cancel when the awaiting Task is cancelled.
    @discardableResult
    func upload(_ value: String, completion: @escaping @Sendable (Swift.Result<Int, Error>) -> Void) -> Transfer {
        completion(.success(value.count))
        return Transfer()
    }

    /// Promise-based alternative to `upload(_:completion:)`, added by vow-migrate.
    func upload(_ value: String, cancellation token: CancellationToken? = nil) -> Promise<Int> {
        Promise(cancellation: token) { seal in
            let task = upload(value) { result in
                seal.resolve(result)
            }
            seal.onCancel { task.cancel() }
        }
    }

    // Throwing, with an optional handle and a handler that may answer `(nil, nil)`.
    func download(key: String, completion: @escaping @Sendable (String?, Error?) -> Void) throws -> Transfer? {
        guard !key.isEmpty else { throw StoreError.offline }
        completion(key, nil)
        return Transfer()
    }

    /// Promise-based alternative to `download(key:completion:)`, added by vow-migrate.
    func download(key: String, cancellation token: CancellationToken? = nil) -> Promise<String> {
        Promise(cancellation: token) { seal in
            let task = try download(key: key) { value, error in
                seal.resolve(value, error)
            }
            seal.onCancel { task?.cancel() }
        }
    }

    // A handle that is not `Sendable`.
    func sync(completion: @escaping @Sendable (Error?) -> Void) -> LegacyTransfer {
        completion(nil)
        return LegacyTransfer()
    }

    /// Promise-based alternative to `sync(completion:)`, added by vow-migrate.
    func sync(cancellation token: CancellationToken? = nil) -> Promise<Void> {
        Promise(cancellation: token) { seal in
            nonisolated(unsafe) let task = sync { error in
                seal.resolve(error)
            }
            seal.onCancel { task.cancel() }
        }
    }
}
