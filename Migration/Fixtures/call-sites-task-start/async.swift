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

let sharedApi = Api()

final class Screen: @unchecked Sendable {
    let api = Api()

    func show(_ message: String) {}
    func present(_ error: Error) {}

    // The first call reads `api` through `self`: inside `Task { [weak self] }` it would need
    // `self?.`, which skips the call once the screen is gone; the async form reads `api` before
    // the task, as the call did.
    func open(_ user: String) {
        let api = self.api
        Task { [weak self] in
            let token: String?
            let error: Error?
            do {
                token = try await api.login(user)
                error = nil
            } catch let caught {
                token = nil
                error = String(describing: type(of: caught)) == "NeitherValueNorError" ? nil : caught
            }
            if let error { self?.present(error); return }
            self?.show(token!)
        }
    }

    // The same with a global: nothing read through `self`, converted in both forms.
    func openShared(_ user: String) {
        Task { [weak self] in
            do {
                let token = try await sharedApi.login(user)
                self?.show(token)
            } catch {
                self?.present(error)
            }
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
            Task {
                await api.ping()
                self.show("pong")
            }
        } else {
            Task {
                do {
                    let token = try await api.login("slow")
                    self.show(token)
                } catch {
                    self.present(error)
                }
            }
        }
    }
}
