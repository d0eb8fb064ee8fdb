import Dispatch

/// Whether code after a call runs before its callback depends on the callee: one that calls its
/// handler only from a queue hop always calls back later; one that answers from a cache at once
/// may call back before it returns.
final class Store: @unchecked Sendable {
    private var cache: [String: String] = [:]

    func fetch(_ key: String, completion: @escaping @Sendable (String?, Error?) -> Void) {
        DispatchQueue.global().async { completion("value-\(key)", nil) }
    }

    func cached(_ key: String, completion: @escaping @Sendable (String?, Error?) -> Void) {
        if let value = cache[key] {
            completion(value, nil)
            return
        }
        DispatchQueue.global().async { completion("value-\(key)", nil) }
    }

    func ping(completion: @escaping @Sendable () -> Void) {
        Task { completion() }
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
        store.fetch("d") { value, error in
            if let error { self.present(error); return }
            self.show(value!)
        }
    }
}
