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

    func profile(_ token: String, completion: @escaping @Sendable (Swift.Result<String, Error>) -> Void) {
        DispatchQueue.global().async { completion(.success("name-\(token)")) }
    }

    /// Promise-based alternative to `profile(_:completion:)`, added by vow-migrate.
    func profile(_ token: String) -> Promise<String> {
        Promise { seal in
            profile(token) { result in
                seal.resolve(result)
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

let api = Api()

/// Stands for a UI framework outside the tree: `onTap` keeps its action for later, but nothing
/// in the syntax says it does not run it at once.
final class Button: @unchecked Sendable {
    var action: (@Sendable () -> Void)?

    func onTap(action: @escaping @Sendable () -> Void) {
        self.action = action
    }
}

final class Screen: @unchecked Sendable {
    let button = Button()
    let helper = Api()

    func show(_ text: String) {}
    func present(_ error: Error) {}

    // A button's action: the pyramid is the closure's one statement (converted in both forms, a
    // `Task { }` inside the action in async form).
    func bind() {
        button.onTap {
            firstly {
                api.login("ada")
            }.then(on: nil) { token in
                return api.profile(token)
            }.done(on: nil) { name in
                self.show(name)
            }.catch(on: nil, policy: .allErrors) { error in
                self.present(error)
            }
        }
    }

    // A hop to the main queue runs after the function returns: the code after the hop is not
    // code after the pyramid (converted in both forms).
    func refreshLater() {
        DispatchQueue.main.async {
            api.ping().done(on: nil) { _ in
                self.show("pong")
            }
        }
        show("scheduled")
    }

    // `onTap` may run its action at once, before `show("bound")`: a `Task` would move the call
    // after it (async form: left alone; the promise chain keeps the order).
    func bindThenShow() {
        button.onTap {
            api.ping().done(on: nil) { _ in
                self.show("pong")
            }
        }
        show("bound")
    }

    // A closure in a closure.
    func bindLater() {
        DispatchQueue.main.async {
            self.button.onTap {
                api.login("bo").done(on: nil) { token in
                    self.show(token)
                }.catch(on: nil, policy: .allErrors) { error in
                    self.present(error)
                }
            }
        }
    }

    // `self?.` may skip the call: left alone in both forms.
    func bindWeakly() {
        button.onTap { [weak self] in
            self?.helper.ping { [weak self] in
                self?.show("pong")
            }
        }
    }

    // A closure run once per element is a loop: left alone in both forms.
    func loginAll(_ users: [String]) {
        users.forEach { user in
            api.login(user) { token, error in
                if let error { self.present(error); return }
                self.show(token!)
            }
        }
    }

    // A bridge: the callback settles the continuation, nothing to flatten (never reported).
    func waitForPing() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            api.ping {
                continuation.resume()
            }
        }
    }

    // A new task's closure is async: `try await` goes straight into it.
    func start() {
        Task {
            api.login("cy").done(on: nil) { token in
                self.show(token)
            }.catch(on: nil, policy: .allErrors) { error in
                self.present(error)
            }
        }
    }

    // A closure returning a value: the `return` is code after the pyramid.
    func makeAction() -> @Sendable () -> Bool {
        return {
            api.ping().done(on: nil) { _ in
                self.show("pong")
            }
            return true
        }
    }

    // A one-line closure kept for later: converted in promise form; in async form left alone, as
    // it may be called at once, before `return action`.
    func wrapped() -> @Sendable () -> Void {
        let action: @Sendable () -> Void = { api.ping().done(on: nil) { _ in
            self.show("pong")
        } }
        return action
    }
}
