import Dispatch

/// Stands for a UI control outside the tree: it keeps its action and runs it when tapped.
final class Button: @unchecked Sendable {
    private var action: (@Sendable () -> Void)?

    func onTap(action: @escaping @Sendable () -> Void) {
        self.action = action
    }

    func tap() {
        action?()
    }
}

/// A cache that answers at once when it has the value, and from the service queue when not.
final class Cache: Sendable {
    func lookup(_ key: String, completion: @escaping @Sendable (String?, Error?) -> Void) {
        Trace.shared.record("lookup(\(key)) called", final: false)
        if Script.shared.fails("lookup") {
            completion(nil, ServiceError.failed("lookup"))
        } else if Script.shared.fails("cache") {
            serviceQueue.async { completion("fresh-\(key)", nil) }
        } else {
            completion("cached-\(key)", nil)
        }
    }
}

let cache = Cache()

/// Another queue the code hops to; the runner holds it, like the service queue, until a
/// scenario's synchronous part has returned.
let workQueue = DispatchQueue(label: "work")

/// Pyramids outside plain method bodies: a button's action bound in an initializer, a hop to
/// another queue, a property observer, a `guard`'s `else`, a new task; and a callee that may
/// answer before it returns, with code after the call.
final class Places: @unchecked Sendable {
    let button = Button()

    func show(_ text: String) { Trace.shared.record("show: \(text)", final: true) }
    func log(_ text: String) { Trace.shared.record("log: \(text)", final: false) }

    init() {
        button.onTap {
            api.login("tap") { token, error in
                if let error { self.show("tap failed: \(error)"); return }
                api.profile(token!) { result in
                    switch result {
                    case .success(let profile): self.show("tapped \(profile.name)")
                    case .failure(let error): self.show("tap failed: \(error)")
                    }
                }
            }
        }
    }

    var user = "" {
        didSet {
            let name = user
            api.login(name) { token, error in
                if let error { self.show("user failed: \(error)"); return }
                self.show("user \(token!)")
            }
        }
    }

    // The hop runs after the function returns: the code after it still runs first.
    func hop(_ user: String) {
        workQueue.async {
            api.login(user) { token, error in
                if let error { self.show("hop failed: \(error)"); return }
                self.show("hopped \(token!)")
            }
        }
        log("hop scheduled")
    }

    func greet(_ name: String?) {
        guard let name else {
            store.count { count in
                self.show("guest \(count)")
            }
            return
        }
        show("hello \(name)")
    }

    func spawn(_ user: String) {
        Task {
            api.login(user) { token, error in
                if let error { self.show("spawn failed: \(error)"); return }
                self.show("spawned \(token!)")
            }
        }
    }

    // The cache may answer at once: its callback then runs before `show`, in the chain too
    // (async form leaves it alone: a `Task` would run it after).
    func peek() {
        cache.lookup("key") { value, error in
            if let error { self.log("peek failed: \(error)"); return }
            self.log("peeked \(value!)")
        }
        show("after peek")
    }
}
