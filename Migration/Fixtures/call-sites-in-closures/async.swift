import Dispatch

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

final class Api: Sendable {
    @available(*, renamed: "login(_:)")
    func login(_ user: String, completion: @escaping @Sendable (String?, Error?) -> Void) {
        DispatchQueue.global().async { completion("token-\(user)", nil) }
    }

    /// Async alternative to `login(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func login(_ user: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            login(user) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "login(_:completion:)"))
                }
            }
        }
    }

    @available(*, renamed: "profile(_:)")
    func profile(_ token: String, completion: @escaping @Sendable (Result<String, Error>) -> Void) {
        DispatchQueue.global().async { completion(.success("name-\(token)")) }
    }

    /// Async alternative to `profile(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func profile(_ token: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            profile(token) { result in
                continuation.resume(with: result)
            }
        }
    }

    @available(*, renamed: "ping()")
    func ping(completion: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async { completion() }
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
            Task {
                do {
                    let token = try await api.login("ada")
                    let name = try await api.profile(token)
                    self.show(name)
                } catch {
                    self.present(error)
                }
            }
        }
    }

    // A hop to the main queue runs after the function returns: the code after the hop is not
    // code after the pyramid (converted in both forms).
    func refreshLater() {
        DispatchQueue.main.async {
            Task {
                await api.ping()
                self.show("pong")
            }
        }
        show("scheduled")
    }

    // `onTap` may run its action at once, before `show("bound")`: a `Task` would move the call
    // after it (async form: left alone; the promise chain keeps the order).
    func bindThenShow() {
        button.onTap {
            api.ping {
                self.show("pong")
            }
        }
        show("bound")
    }

    // A closure in a closure.
    func bindLater() {
        DispatchQueue.main.async {
            self.button.onTap {
                Task {
                    do {
                        let token = try await api.login("bo")
                        self.show(token)
                    } catch {
                        self.present(error)
                    }
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
            do {
                let token = try await api.login("cy")
                self.show(token)
            } catch {
                self.present(error)
            }
        }
    }

    // A closure returning a value: the `return` is code after the pyramid.
    func makeAction() -> @Sendable () -> Bool {
        return {
            api.ping {
                self.show("pong")
            }
            return true
        }
    }

    // A one-line closure kept for later: converted in promise form; in async form left alone, as
    // it may be called at once, before `return action`.
    func wrapped() -> @Sendable () -> Void {
        let action: @Sendable () -> Void = { api.ping { self.show("pong") } }
        return action
    }
}
