import Dispatch
import Vow

final class Api: Sendable {
    func login(_ user: String, completion: @escaping @Sendable (String?, Error?) -> Void) {
        DispatchQueue.global().async { completion("token-\(user)", nil) }
    }

    /// Promise-based alternative to `login(_:completion:)`, added by vow-migrate.
    func login(_ user: String) -> Promise<String> {
        Promise { seal in
            login(user) { value, error in
                seal.resolve(value, error)
            }
        }
    }

    func ping(completion: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async { completion() }
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

let sharedApi = Api()

final class Screen: @unchecked Sendable {
    let api = Api()

    func show(_ message: String) {}
    func present(_ error: Error) {}

    // The first call reads `api` through `self`: inside `Task { [weak self] }` it would need
    // `self?.`, which skips the call once the screen is gone; the async form reads `api` before
    // the task, as the call did.
    func open(_ user: String) {
        api.login(user).done(on: nil) { [weak self] token in
            self?.show(token)
        }.catch(on: nil, policy: .allErrors) { [weak self] error in
            self?.present(error)
        }
    }

    // The same with a global: nothing read through `self`, converted in both forms.
    func openShared(_ user: String) {
        sharedApi.login(user).done(on: nil) { [weak self] token in
            self?.show(token)
        }.catch(on: nil, policy: .allErrors) { [weak self] error in
            self?.present(error)
        }
    }

    // Two callbacks started one after the other: a `Task` for the second could make its call
    // after the first callback ran (async form: both left alone; promise form keeps the order).
    func refresh() {
        api.ping().done(on: nil) { _ in
            self.show("pong")
        }
        api.login("again").done(on: nil) { token in
            self.show(token)
        }.catch(on: nil, policy: .allErrors) { error in
            self.present(error)
        }
    }

    // Branches exclude each other: each converts in both forms.
    func either(_ quick: Bool) {
        if quick {
            api.ping().done(on: nil) { _ in
                self.show("pong")
            }
        } else {
            api.login("slow").done(on: nil) { token in
                self.show(token)
            }.catch(on: nil, policy: .allErrors) { error in
                self.present(error)
            }
        }
    }
}
