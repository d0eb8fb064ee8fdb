// No Foundation and no Vow: the async alternatives must build with the standard library alone.

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

    // `(false, nil)` is a failure without an error.
    func save(_ value: String, completion: @escaping @Sendable (Bool, Error?) -> Void) {
        completion(true, nil)
    }

    // Several values, one of them optional: a nil one is no answer either.
    func stats(completion: @escaping @Sendable (_ count: Int?, _ label: String, _ error: Error?) -> Void) {
        completion(1, "one", nil)
    }

    // A handle to cancel when the awaiting Task is cancelled.
    @discardableResult
    func upload(_ value: String, completion: @escaping @Sendable (Result<Int, Error>) -> Void) -> Transfer {
        completion(.success(value.count))
        return Transfer()
    }

    // Throwing, with an optional handle and a handler that may answer `(nil, nil)`.
    func download(key: String, completion: @escaping @Sendable (String?, Error?) -> Void) throws -> Transfer? {
        guard !key.isEmpty else { throw StoreError.offline }
        completion(key, nil)
        return Transfer()
    }

    // A handle that is not `Sendable`.
    func sync(completion: @escaping @Sendable (Error?) -> Void) -> LegacyTransfer {
        completion(nil)
        return LegacyTransfer()
    }
}
