import Dispatch

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

/// Whether code after a call runs before its callback depends on the callee: one that calls its
/// handler only from a queue hop always calls back later; one that answers from a cache at once
/// may call back before it returns.
final class Store: @unchecked Sendable {
    private var cache: [String: String] = [:]

    @available(*, renamed: "fetch(_:)")
    func fetch(_ key: String, completion: @escaping @Sendable (String?, Error?) -> Void) {
        DispatchQueue.global().async { completion("value-\(key)", nil) }
    }

    /// Async alternative to `fetch(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func fetch(_ key: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            fetch(key) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "fetch(_:completion:)"))
                }
            }
        }
    }

    @available(*, renamed: "cached(_:)")
    func cached(_ key: String, completion: @escaping @Sendable (String?, Error?) -> Void) {
        if let value = cache[key] {
            completion(value, nil)
            return
        }
        DispatchQueue.global().async { completion("value-\(key)", nil) }
    }

    /// Async alternative to `cached(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func cached(_ key: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            cached(key) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "cached(_:completion:)"))
                }
            }
        }
    }

    @available(*, renamed: "ping()")
    func ping(completion: @escaping @Sendable () -> Void) {
        Task { completion() }
    }

    /// Async alternative to `ping(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func ping() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            ping {
                continuation.resume()
            }
        }
    }
}

let store = Store()

final class Screen: @unchecked Sendable {
    func show(_ text: String) {}
    func present(_ error: Error) {}

    // The callee calls back later on every path: `show("loading")` runs before the callback.
    // The promise chain keeps that order; a `Task` would also start the call after it.
    func load() {
        store.fetch("a") { value, error in
            if let error { self.present(error); return }
            self.show(value!)
        }
        show("loading")
    }

    // The callee may call back at once, from its cache: `show("loading")` may run after the
    // callback; the chain runs the callback's code at once too, as before.
    func loadCached() {
        store.cached("b") { value, error in
            if let error { self.present(error); return }
            self.show(value!)
        }
        show("loading")
    }

    // A task calls back later too.
    func poke() {
        store.ping {
            self.show("pong")
        }
        show("poked")
    }

    // Nothing after the call: converted in both forms.
    func last() {
        show("first")
        Task {
            do {
                let value = try await store.fetch("d")
                self.show(value)
            } catch {
                self.present(error)
            }
        }
    }
}
