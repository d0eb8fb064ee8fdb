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

let api = Api()

/// Places other than a method's body: property observers, accessors, `static` and `class`
/// methods, local functions, `#if` clauses, a `guard`'s `else`.
class Session: @unchecked Sendable {
    func show(_ text: String) {}
    func present(_ error: Error) {}

    var user: String = "" {
        didSet {
            api.login(oldValue).done(on: nil) { token in
                self.show(token)
            }.catch(on: nil, policy: .allErrors) { error in
                self.present(error)
            }
        }
    }

    var nickname: String {
        get { "nick" }
        set {
            api.ping().done(on: nil) { _ in
                self.show(newValue)
            }
        }
    }

    static func warmUp() {
        api.ping().done(on: nil) { _ in
            print("warm")
        }
    }

    class func coolDown() {
        api.ping().done(on: nil) { _ in
            print("cool")
        }
    }

    func outer() {
        func inner() {
            api.ping().done(on: nil) { _ in
                self.show("inner")
            }
        }
        inner()
    }

    func platform() {
        #if os(Linux)
        api.ping().done(on: nil) { _ in
            self.show("linux")
        }
        #else
        api.ping().done(on: nil) { _ in
            self.show("elsewhere")
        }
        #endif
    }

    func greet(_ name: String?) {
        guard let name else {
            api.ping().done(on: nil) { _ in
                self.show("anonymous")
            }
            return
        }
        show(name)
    }

    // A `defer` runs after the pyramid's statement: code after it (async form: left alone).
    func deferred() {
        defer { show("done") }
        api.ping().done(on: nil) { _ in
            self.show("pong")
        }
    }
}
