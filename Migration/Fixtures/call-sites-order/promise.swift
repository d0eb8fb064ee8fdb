import Dispatch
import Vow

/// Whether code after a call runs before its callback depends on the callee: one that calls its
/// handler only from a queue hop always calls back later; one that answers from a cache at once
/// may call back before it returns.
final class Store: @unchecked Sendable {
    private var cache: [String: String] = [:]

    func fetch(_ key: String, completion: @escaping @Sendable (String?, Error?) -> Void) {
        DispatchQueue.global().async { completion("value-\(key)", nil) }
    }

    /// Promise-based alternative to `fetch(_:completion:)`, added by vow-migrate.
    func fetch(_ key: String) -> Promise<String> {
        Promise { seal in
            fetch(key) { value, error in
                seal.resolve(value, error)
            }
        }
    }

    func cached(_ key: String, completion: @escaping @Sendable (String?, Error?) -> Void) {
        if let value = cache[key] {
            completion(value, nil)
            return
        }
        DispatchQueue.global().async { completion("value-\(key)", nil) }
    }

    /// Promise-based alternative to `cached(_:completion:)`, added by vow-migrate.
    func cached(_ key: String) -> Promise<String> {
        Promise { seal in
            cached(key) { value, error in
                seal.resolve(value, error)
            }
        }
    }

    func ping(completion: @escaping @Sendable () -> Void) {
        Task { completion() }
    }

    /// Promise-based alternative to `ping(completion:)`, added by vow-migrate.
    func ping() -> Guarantee<Void> {
        Guarantee { resolve in
            ping {
                resolve(())
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
        store.fetch("a").done(on: nil) { value in
            self.show(value)
        }.catch(on: nil, policy: .allErrors) { error in
            self.present(error)
        }
        show("loading")
    }

    // The callee may call back at once, from its cache: `show("loading")` may run after the
    // callback; the chain runs the callback's code at once too, as before.
    func loadCached() {
        store.cached("b").done(on: nil) { value in
            self.show(value)
        }.catch(on: nil, policy: .allErrors) { error in
            self.present(error)
        }
        show("loading")
    }

    // A task calls back later too.
    func poke() {
        store.ping().done(on: nil) { _ in
            self.show("pong")
        }
        show("poked")
    }

    // Nothing after the call: converted in both forms.
    func last() {
        show("first")
        store.fetch("d").done(on: nil) { value in
            self.show(value)
        }.catch(on: nil, policy: .allErrors) { error in
            self.present(error)
        }
    }
}
