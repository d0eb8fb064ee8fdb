import Dispatch

final class Api: Sendable {
    func login(_ user: String, completion: @escaping @Sendable (String?, Error?) -> Void) {
        DispatchQueue.global().async { completion("token-\(user)", nil) }
    }

    func ping(completion: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async { completion() }
    }
}

let sharedApi = Api()

final class Screen: @unchecked Sendable {
    let api = Api()

    func show(_ message: String) {}
    func present(_ error: Error) {}

    // The first call reads `api` through `self`: inside `Task { [weak self] }` it would need
    // `self?.`, which skips the call once the screen is gone; the async form reads `api` before
    // the task, as the call did.
    func open(_ user: String) {
        api.login(user) { [weak self] token, error in
            if let error { self?.present(error); return }
            self?.show(token!)
        }
    }

    // The same with a global: nothing read through `self`, converted in both forms.
    func openShared(_ user: String) {
        sharedApi.login(user) { [weak self] token, error in
            if let error { self?.present(error); return }
            self?.show(token!)
        }
    }

    // Two callbacks started one after the other: a `Task` for the second could make its call
    // after the first callback ran (async form: both left alone; promise form keeps the order).
    func refresh() {
        api.ping {
            self.show("pong")
        }
        api.login("again") { token, error in
            if let error { self.present(error); return }
            self.show(token!)
        }
    }

    // Branches exclude each other: each converts in both forms.
    func either(_ quick: Bool) {
        if quick {
            api.ping {
                self.show("pong")
            }
        } else {
            api.login("slow") { token, error in
                if let error { self.present(error); return }
                self.show(token!)
            }
        }
    }
}
