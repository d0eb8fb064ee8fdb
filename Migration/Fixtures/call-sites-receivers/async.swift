import Dispatch
import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

// Same-named completion-handler functions in several types: the receiver's type, as syntax
// shows it, tells which one a call reaches.

final class Api: Sendable {
    static let shared = Api()

    @available(*, renamed: "login(_:)")
    func login(_ user: String, completion: @escaping @Sendable (Result<String, Error>) -> Void) {
        DispatchQueue.global().async { completion(.success("token-\(user)")) }
    }

    /// Async alternative to `login(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func login(_ user: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            login(user) { result in
                continuation.resume(with: result)
            }
        }
    }
}

final class Vault: Sendable {
    @available(*, renamed: "login(_:)")
    func login(_ user: String, completion: @escaping @Sendable (Bool) -> Void) {
        DispatchQueue.global().async { completion(true) }
    }

    /// Async alternative to `login(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func login(_ user: String) async -> Bool {
        await withCheckedContinuation { continuation in
            login(user) { value in
                continuation.resume(returning: value)
            }
        }
    }
}

protocol TokenSource: Sendable {
    @available(*, renamed: "token()")
    func token(completion: @escaping @Sendable (Result<String, Error>) -> Void)
}

/// Promise and async alternatives to the completion-handler requirements, added by vow-migrate.
extension TokenSource {
    /// Async alternative to `token(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func token() async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            token { result in
                continuation.resume(with: result)
            }
        }
    }
}

final class Keychain: TokenSource {
    @available(*, renamed: "token()")
    func token(completion: @escaping @Sendable (Result<String, Error>) -> Void) {
        completion(.success("secret"))
    }

    /// Async alternative to `token(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func token() async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            token { result in
                continuation.resume(with: result)
            }
        }
    }
}

final class Clock: Sendable {
    @available(*, renamed: "token()")
    func token(completion: @escaping @Sendable (Int) -> Void) {
        completion(42)
    }

    /// Async alternative to `token(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func token() async -> Int {
        await withCheckedContinuation { continuation in
            token { value in
                continuation.resume(returning: value)
            }
        }
    }
}

/// The app's own queue of jobs; `OperationQueue.addBarrierBlock(_:)` is Foundation's.
final class JobQueue: Sendable {
    @available(*, renamed: "addBarrierBlock()")
    func addBarrierBlock(_ completion: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async { completion() }
    }

    /// Async alternative to `addBarrierBlock(_:)`, added by vow-migrate.
    nonisolated(nonsending) func addBarrierBlock() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            addBarrierBlock {
                continuation.resume()
            }
        }
    }
}

// Overloads told apart by the closure: one value, or a value and an error.
final class Feed: Sendable {
    @available(*, renamed: "items(_:)")
    func items(_ page: Int, completion: @escaping @Sendable ([String]?, Error?) -> Void) {
        completion(["a"], nil)
    }

    /// Async alternative to `items(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func items(_ page: Int) async throws -> [String] {
        try await withCheckedThrowingContinuation { continuation in
            items(page) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "items(_:completion:)"))
                }
            }
        }
    }
}

final class Archive: Sendable {
    @available(*, renamed: "items(_:)")
    func items(_ page: Int, completion: @escaping @Sendable ([String]) -> Void) {
        completion([])
    }

    /// Async alternative to `items(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func items(_ page: Int) async -> [String] {
        await withCheckedContinuation { continuation in
            items(page) { value in
                continuation.resume(returning: value)
            }
        }
    }
}

func makeFeed() -> Feed { Feed() }

/// A base screen whose `dismiss` takes an optional handler, and a router with its own `dismiss`.
class Screen: @unchecked Sendable {
    func show(_ text: String) {}

    @available(*, renamed: "dismiss(animated:)")
    func dismiss(animated: Bool, completion: (@Sendable () -> Void)? = nil) {
        DispatchQueue.main.async { completion?() }
    }

    /// Async alternative to `dismiss(animated:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func dismiss(animated: Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            dismiss(animated: animated) {
                continuation.resume()
            }
        }
    }

    @available(*, renamed: "ask(_:)")
    func ask(_ question: String, completion: (@Sendable (Bool) -> Void)? = nil) {
        DispatchQueue.main.async { completion?(true) }
    }

    /// Async alternative to `ask(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func ask(_ question: String) async -> Bool {
        await withCheckedContinuation { continuation in
            ask(question) { value in
                continuation.resume(returning: value)
            }
        }
    }
}

final class Router: Sendable {
    @available(*, renamed: "dismiss(animated:)")
    func dismiss(animated: Bool, completion: @escaping @Sendable (Error?) -> Void) {
        completion(nil)
    }

    /// Async alternative to `dismiss(animated:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func dismiss(animated: Bool) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            dismiss(animated: animated) { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
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
        Task {
            do {
                let token = try await Api.shared.login("ada")
                self.show(token)
            } catch {
                self.show("\(error)")
            }
        }
    }

    // A typed property: Vault's login.
    func unlock() {
        Task {
            let ok = await vault.login("ada")
            self.show(ok ? "unlocked" : "locked")
        }
    }

    // Through the protocol the property is typed with.
    func refreshToken() {
        Task {
            do {
                let token = try await source.token()
                self.show(token)
            } catch {
                self.show("\(error)")
            }
        }
    }

    // A local initialised with `Clock()`.
    func tick() {
        let clock = Clock()
        Task {
            let value = await clock.token()
            self.show("\(value)")
        }
    }

    // The tree's `JobQueue`; an `OperationQueue` is Foundation's and its call stays as it is.
    func drain() {
        Task {
            await jobs.addBarrierBlock()
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
        Task {
            do {
                let items = try await makeFeed().items(1)
                self.show("\(items.count)")
            } catch {
                self.show("\(error)")
            }
        }
    }

    // `self`: the screen's own `dismiss`, with its optional handler passed; and left out.
    func close() {
        Task { @MainActor in
            await self.dismiss(animated: true)
            self.show("closed")
        }
    }

    func closeQuickly() {
        dismiss(animated: false, completion: nil)
    }

    // A defaulted handler passed: the converted call reaches the alternative, which answers.
    func confirmLeaving() {
        Task { @MainActor in
            let sure = await ask("Leave?")
            self.show(sure ? "leaving" : "staying")
        }
    }

    // The router's `dismiss`, whose handler takes an error.
    func leave() {
        Task {
            do {
                try await router.dismiss(animated: true)
                self.show("left")
            } catch {
                self.show("\(error)")
            }
        }
    }
}
