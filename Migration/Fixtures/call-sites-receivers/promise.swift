import Dispatch
import Foundation
import Vow

// Same-named completion-handler functions in several types: the receiver's type, as syntax
// shows it, tells which one a call reaches.

final class Api: Sendable {
    static let shared = Api()

    func login(_ user: String, completion: @escaping @Sendable (Swift.Result<String, Error>) -> Void) {
        DispatchQueue.global().async { completion(.success("token-\(user)")) }
    }

    /// Promise-based alternative to `login(_:completion:)`, added by vow-migrate.
    func login(_ user: String) -> Promise<String> {
        Promise { seal in
            login(user) { result in
                seal.resolve(result)
            }
        }
    }
}

final class Vault: Sendable {
    func login(_ user: String, completion: @escaping @Sendable (Bool) -> Void) {
        DispatchQueue.global().async { completion(true) }
    }

    /// Promise-based alternative to `login(_:completion:)`, added by vow-migrate.
    func login(_ user: String) -> Guarantee<Bool> {
        Guarantee { resolve in
            login(user) { value in
                resolve(value)
            }
        }
    }
}

protocol TokenSource: Sendable {
    func token(completion: @escaping @Sendable (Swift.Result<String, Error>) -> Void)
}

/// Promise and async alternatives to the completion-handler requirements, added by vow-migrate.
extension TokenSource {
    /// Promise-based alternative to `token(completion:)`, added by vow-migrate.
    func token() -> Promise<String> {
        Promise { seal in
            token { result in
                seal.resolve(result)
            }
        }
    }
}

final class Keychain: TokenSource {
    func token(completion: @escaping @Sendable (Swift.Result<String, Error>) -> Void) {
        completion(.success("secret"))
    }

    /// Promise-based alternative to `token(completion:)`, added by vow-migrate.
    func token() -> Promise<String> {
        Promise { seal in
            token { result in
                seal.resolve(result)
            }
        }
    }
}

final class Clock: Sendable {
    func token(completion: @escaping @Sendable (Int) -> Void) {
        completion(42)
    }

    /// Promise-based alternative to `token(completion:)`, added by vow-migrate.
    func token() -> Guarantee<Int> {
        Guarantee { resolve in
            token { value in
                resolve(value)
            }
        }
    }
}

/// The app's own queue of jobs; `OperationQueue.addBarrierBlock(_:)` is Foundation's.
final class JobQueue: Sendable {
    func addBarrierBlock(_ completion: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async { completion() }
    }

    /// Promise-based alternative to `addBarrierBlock(_:)`, added by vow-migrate.
    func addBarrierBlock() -> Guarantee<Void> {
        Guarantee { resolve in
            addBarrierBlock {
                resolve(())
            }
        }
    }
}

// Overloads told apart by the closure: one value, or a value and an error.
final class Feed: Sendable {
    func items(_ page: Int, completion: @escaping @Sendable ([String]?, Error?) -> Void) {
        completion(["a"], nil)
    }

    /// Promise-based alternative to `items(_:completion:)`, added by vow-migrate.
    func items(_ page: Int) -> Promise<[String]> {
        Promise { seal in
            items(page) { value, error in
                seal.resolve(value, error)
            }
        }
    }
}

final class Archive: Sendable {
    func items(_ page: Int, completion: @escaping @Sendable ([String]) -> Void) {
        completion([])
    }

    /// Promise-based alternative to `items(_:completion:)`, added by vow-migrate.
    func items(_ page: Int) -> Guarantee<[String]> {
        Guarantee { resolve in
            items(page) { value in
                resolve(value)
            }
        }
    }
}

func makeFeed() -> Feed { Feed() }

/// A base screen whose `dismiss` takes an optional handler, and a router with its own `dismiss`.
class Screen: @unchecked Sendable {
    func show(_ text: String) {}

    func dismiss(animated: Bool, completion: (@Sendable () -> Void)? = nil) {
        DispatchQueue.main.async { completion?() }
    }

    /// Promise-based alternative to `dismiss(animated:completion:)`, added by vow-migrate.
    func dismiss(animated: Bool) -> Guarantee<Void> {
        Guarantee { resolve in
            dismiss(animated: animated) {
                resolve(())
            }
        }
    }

    func ask(_ question: String, completion: (@Sendable (Bool) -> Void)? = nil) {
        DispatchQueue.main.async { completion?(true) }
    }

    /// Promise-based alternative to `ask(_:completion:)`, added by vow-migrate.
    func ask(_ question: String) -> Guarantee<Bool> {
        Guarantee { resolve in
            ask(question) { value in
                resolve(value)
            }
        }
    }
}

final class Router: Sendable {
    func dismiss(animated: Bool, completion: @escaping @Sendable (Error?) -> Void) {
        completion(nil)
    }

    /// Promise-based alternative to `dismiss(animated:completion:)`, added by vow-migrate.
    func dismiss(animated: Bool) -> Promise<Void> {
        Promise { seal in
            dismiss(animated: animated) { error in
                seal.resolve(error)
            }
        }
    }
}

final class SettingsScreen: Screen, @unchecked Sendable {
    let vault = Vault()
    let jobs = JobQueue()
    let operations = OperationQueue()
    let router = Router()
    var source: any TokenSource = Keychain()

    // `Api.shared`: Api's login, not Vault's.
    func signIn() {
        Api.shared.login("ada").done(on: nil) { token in
            self.show(token)
        }.catch(on: nil, policy: .allErrors) { error in
            self.show("\(error)")
        }
    }

    // A typed property: Vault's login.
    func unlock() {
        vault.login("ada").done(on: nil) { ok in
            self.show(ok ? "unlocked" : "locked")
        }
    }

    // Through the protocol the property is typed with.
    func refreshToken() {
        source.token().done(on: nil) { token in
            self.show(token)
        }.catch(on: nil, policy: .allErrors) { error in
            self.show("\(error)")
        }
    }

    // A local initialised with `Clock()`.
    func tick() {
        let clock = Clock()
        clock.token().done(on: nil) { value in
            self.show("\(value)")
        }
    }

    // The tree's `JobQueue`; an `OperationQueue` is Foundation's and its call stays as it is.
    func drain() {
        jobs.addBarrierBlock().done(on: nil) { _ in
            self.show("jobs drained")
        }
    }

    func drainOperations() {
        operations.addBarrierBlock {
            print("operations drained")
        }
    }

    // The closure takes a value and an error: Feed's `items`, whatever `makeFeed()` returns.
    func page() {
        makeFeed().items(1).done(on: nil) { items in
            self.show("\(items.count)")
        }.catch(on: nil, policy: .allErrors) { error in
            self.show("\(error)")
        }
    }

    // `self`: the screen's own `dismiss`, with its optional handler passed; and left out.
    func close() {
        self.dismiss(animated: true).done(on: nil) { _ in
            self.show("closed")
        }
    }

    func closeQuickly() {
        dismiss(animated: false, completion: nil)
    }

    // A defaulted handler passed: the converted call reaches the alternative, which answers.
    func confirmLeaving() {
        ask("Leave?").done(on: nil) { sure in
            self.show(sure ? "leaving" : "staying")
        }
    }

    // The router's `dismiss`, whose handler takes an error.
    func leave() {
        router.dismiss(animated: true).done(on: nil) { _ in
            self.show("left")
        }.catch(on: nil, policy: .allErrors) { error in
            self.show("\(error)")
        }
    }
}
