import Dispatch
import Foundation

// Same-named completion-handler functions in several types: the receiver's type, as syntax
// shows it, tells which one a call reaches.

final class Api: Sendable {
    static let shared = Api()

    func login(_ user: String, completion: @escaping @Sendable (Result<String, Error>) -> Void) {
        DispatchQueue.global().async { completion(.success("token-\(user)")) }
    }
}

final class Vault: Sendable {
    func login(_ user: String, completion: @escaping @Sendable (Bool) -> Void) {
        DispatchQueue.global().async { completion(true) }
    }
}

protocol TokenSource: Sendable {
    func token(completion: @escaping @Sendable (Result<String, Error>) -> Void)
}

final class Keychain: TokenSource {
    func token(completion: @escaping @Sendable (Result<String, Error>) -> Void) {
        completion(.success("secret"))
    }
}

final class Clock: Sendable {
    func token(completion: @escaping @Sendable (Int) -> Void) {
        completion(42)
    }
}

/// The app's own queue of jobs; `OperationQueue.addBarrierBlock(_:)` is Foundation's.
final class JobQueue: Sendable {
    func addBarrierBlock(_ completion: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async { completion() }
    }
}

// Overloads told apart by the closure: one value, or a value and an error.
final class Feed: Sendable {
    func items(_ page: Int, completion: @escaping @Sendable ([String]?, Error?) -> Void) {
        completion(["a"], nil)
    }
}

final class Archive: Sendable {
    func items(_ page: Int, completion: @escaping @Sendable ([String]) -> Void) {
        completion([])
    }
}

func makeFeed() -> Feed { Feed() }

/// A base screen whose `dismiss` takes an optional handler, and a router with its own `dismiss`.
class Screen: @unchecked Sendable {
    func show(_ text: String) {}

    func dismiss(animated: Bool, completion: (@Sendable () -> Void)? = nil) {
        DispatchQueue.main.async { completion?() }
    }

    func ask(_ question: String, completion: (@Sendable (Bool) -> Void)? = nil) {
        DispatchQueue.main.async { completion?(true) }
    }
}

final class Router: Sendable {
    func dismiss(animated: Bool, completion: @escaping @Sendable (Error?) -> Void) {
        completion(nil)
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
        Api.shared.login("ada") { result in
            switch result {
            case .success(let token): self.show(token)
            case .failure(let error): self.show("\(error)")
            }
        }
    }

    // A typed property: Vault's login.
    func unlock() {
        vault.login("ada") { ok in
            self.show(ok ? "unlocked" : "locked")
        }
    }

    // Through the protocol the property is typed with.
    func refreshToken() {
        source.token { result in
            switch result {
            case .success(let token): self.show(token)
            case .failure(let error): self.show("\(error)")
            }
        }
    }

    // A local initialised with `Clock()`.
    func tick() {
        let clock = Clock()
        clock.token { value in
            self.show("\(value)")
        }
    }

    // The tree's `JobQueue`; an `OperationQueue` is Foundation's and its call stays as it is.
    func drain() {
        jobs.addBarrierBlock {
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
        makeFeed().items(1) { items, error in
            if let error {
                self.show("\(error)")
                return
            }
            self.show("\(items!.count)")
        }
    }

    // `self`: the screen's own `dismiss`, with its optional handler passed; and left out.
    func close() {
        self.dismiss(animated: true) {
            self.show("closed")
        }
    }

    func closeQuickly() {
        dismiss(animated: false)
    }

    // A defaulted handler passed: the converted call reaches the alternative, which answers.
    func confirmLeaving() {
        ask("Leave?") { sure in
            self.show(sure ? "leaving" : "staying")
        }
    }

    // The router's `dismiss`, whose handler takes an error.
    func leave() {
        router.dismiss(animated: true) { error in
            if let error {
                self.show("\(error)")
                return
            }
            self.show("left")
        }
    }
}
