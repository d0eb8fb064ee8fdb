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

let api = Api()

/// Places other than a method's body: property observers, accessors, `static` and `class`
/// methods, local functions, `#if` clauses, a `guard`'s `else`.
class Session: @unchecked Sendable {
    func show(_ text: String) {}
    func present(_ error: Error) {}

    var user: String = "" {
        didSet {
            Task {
                do {
                    let token = try await api.login(oldValue)
                    self.show(token)
                } catch {
                    self.present(error)
                }
            }
        }
    }

    var nickname: String {
        get { "nick" }
        set {
            Task {
                await api.ping()
                self.show(newValue)
            }
        }
    }

    static func warmUp() {
        Task {
            await api.ping()
            print("warm")
        }
    }

    class func coolDown() {
        Task {
            await api.ping()
            print("cool")
        }
    }

    func outer() {
        func inner() {
            Task {
                await api.ping()
                self.show("inner")
            }
        }
        inner()
    }

    func platform() {
        #if os(Linux)
        Task {
            await api.ping()
            self.show("linux")
        }
        #else
        Task {
            await api.ping()
            self.show("elsewhere")
        }
        #endif
    }

    func greet(_ name: String?) {
        guard let name else {
            Task {
                await api.ping()
                self.show("anonymous")
            }
            return
        }
        show(name)
    }

    // A `defer` runs after the pyramid's statement: code after it (async form: left alone).
    func deferred() {
        defer { show("done") }
        api.ping {
            self.show("pong")
        }
    }
}
