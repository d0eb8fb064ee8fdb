import Dispatch

final class Api: Sendable {
    func login(_ user: String, completion: @escaping @Sendable (String?, Error?) -> Void) {
        DispatchQueue.global().async { completion("token-\(user)", nil) }
    }

    func ping(completion: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async { completion() }
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
            api.login(oldValue) { token, error in
                if let error { self.present(error); return }
                self.show(token!)
            }
        }
    }

    var nickname: String {
        get { "nick" }
        set {
            api.ping {
                self.show(newValue)
            }
        }
    }

    static func warmUp() {
        api.ping {
            print("warm")
        }
    }

    class func coolDown() {
        api.ping {
            print("cool")
        }
    }

    func outer() {
        func inner() {
            api.ping {
                self.show("inner")
            }
        }
        inner()
    }

    func platform() {
        #if os(Linux)
        api.ping {
            self.show("linux")
        }
        #else
        api.ping {
            self.show("elsewhere")
        }
        #endif
    }

    func greet(_ name: String?) {
        guard let name else {
            api.ping {
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
