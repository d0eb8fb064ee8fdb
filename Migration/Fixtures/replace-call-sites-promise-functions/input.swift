import Dispatch
import Vow

struct Profile: Sendable {
    var name: String
}

/// An API that already returns promises: a fulfilled promise becomes its value.
final class Api: Sendable {
    func login(_ user: String) -> Promise<String> {
        .value("token-\(user)")
    }

    func profile(_ token: String) -> Promise<Profile> {
        .value(Profile(name: token))
    }
}

let api = Api()

final class ProfileService: Sendable {
    // One chain: `async throws -> String` on the main actor, where its handlers ran.
    func profileName(_ user: String) -> Promise<String> {
        return firstly {
            api.login(user)
        }.then { token in
            api.profile(token)
        }.map { profile in
            profile.name.uppercased()
        }
    }

    // `Promise<Void>`: `async throws`, the value dropped as `asVoid` dropped it.
    func touch(_ user: String) -> Promise<Void> {
        api.login(user).asVoid()
    }

    // Used as a promise in this file: the call becomes `Promise.immediate { try await token(...) }`,
    // which starts the function at once, as the call did.
    func token(_ user: String) -> Promise<String> {
        api.login(user).map { token in
            token + "!"
        }
    }

    func printToken() {
        token("ada").done { token in
            print(token)
        }.cauterize()
    }

    // A chain with its own `catch` does not return a promise; one with `[weak self]` stays a promise
    // function, its chain in the bridge.
    func weakly(_ user: String) -> Promise<String> {
        api.login(user).map { [weak self] token in
            self?.describe(token) ?? token
        }
    }

    func describe(_ token: String) -> String {
        "<\(token)>"
    }
}

@MainActor
final class Screen {
    // Already on the main actor: no attribute is added.
    func title(_ user: String) -> Promise<String> {
        api.login(user).map { token in
            "Hello \(token)"
        }
    }
}

enum ClockError: Error {
    case negative
}

final class Clock: Sendable {
    // Made from callback code: a checked continuation, every path settling it once.
    func tick(after delay: Double) -> Promise<Int> {
        return Promise { seal in
            guard delay >= 0 else {
                seal.reject(ClockError.negative)
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
                seal.fulfill(1)
            }
        }
    }

    // A path settles it twice, which a continuation must not: the promise is made as before and awaited.
    func twice() -> Promise<Int> {
        Promise { seal in
            seal.fulfill(1)
            seal.fulfill(2)
        }
    }

    // The resolver goes to another function, which settles it out of sight: the promise is awaited.
    func handedOn() -> Promise<Int> {
        Promise { seal in
            settle(seal: seal)
        }
    }

    func settle(seal: Resolver<Int>) {
        seal.fulfill(3)
    }

    // Earlier answers: a rejected promise is thrown, a fulfilled one returned.
    func count(from start: Int) -> Promise<Int> {
        guard start >= 0 else {
            return Promise(error: ClockError.negative)
        }
        if start == 0 {
            return .value(0)
        }
        return tick(after: 0).map { $0 + start }
    }

    // A `return` in the last `map` gives the function's value, as it gave the chain's.
    func label(after delay: Double) -> Promise<String> {
        tick(after: delay).map { count in
            guard count > 0 else { return "none" }
            return "\(count) ticks"
        }
    }

    func ticks() async throws -> Int {
        try await tick(after: 0).value + (try await twice().value)
    }
}

/// A team's shorthand for promises of nothing.
typealias Completion = Promise<Void>

final class Directory: Sendable {
    // Declared through a typealias: the index resolves it, and it converts as `Promise<Void>`.
    func ping(_ user: String) -> Completion {
        api.login(user).asVoid()
    }

    // A `compactMap` followed only by links keeping its type: the function's type is its type,
    // which the `PMKError.compactMap` thrown for `nil` names.
    func initial(of user: String) -> Promise<Character> {
        api.login(user).compactMap { token in
            token.first
        }.get { _ in
            print("read")
        }
    }

    func greet(_ user: String) {
        ping(user).done {
            print("pinged")
        }.catch { error in
            print("\(error)")
        }
        initial(of: user).done { letter in
            print(letter)
        }.cauterize()
    }
}

final class Gate: Sendable {
    // The last `then` answers in several places: each `return` becomes the function's own.
    func open(_ user: String) -> Promise<Bool> {
        api.login(user).then { token -> Promise<Bool> in
            guard !token.isEmpty else { return .value(false) }
            if token.count > 40 {
                return Promise(error: ClockError.negative)
            }
            return api.profile(token).map { _ in true }
        }
    }

    // A function returning a guarantee: its last `recover` is the guarantee form, whatever the
    // handler calls.
    func name(_ user: String) -> Guarantee<String> {
        api.login(user).recover { _ in
            self.fallback()
        }
    }

    func fallback() -> Guarantee<String> {
        .value("guest")
    }

    // A guarantee's chain ending in `done`: a task, the call still made at once.
    func show(_ user: String) {
        name(user).done { text in
            print(text)
        }
    }

    // A `then` handler answering with a chain of its own: its links follow in the same code,
    // reading the handler's names as they did.
    func initials(_ user: String) -> Promise<String> {
        api.login(user).then { token in
            api.profile(token).map { profile in
                String(profile.name.prefix(1)) + String(token.suffix(1))
            }
        }
    }

    // A handler on another queue still runs there, in a closure Vow runs on it; the next step
    // waits for it, on the main actor.
    func shout(_ user: String) -> Promise<String> {
        api.login(user).map(on: .global()) { token in
            guard !token.isEmpty else { return "?" }
            return token.uppercased()
        }.get { loud in
            print(loud)
        }
    }

    // A `recover` answering before its end: its block answers there, as the handler did.
    func handle(_ user: String) -> Promise<String> {
        api.login(user).recover { error -> Promise<String> in
            if user.isEmpty {
                return .value("nobody")
            }
            throw error
        }.map { token in
            token.lowercased()
        }
    }

    // A `tap` reading its `Result`, of the function's type: the code before it settles one, which
    // the handler reads and the function answers from.
    func traced(_ user: String) -> Promise<String> {
        api.login(user).tap { result in
            if case .rejected(let error) = result {
                print("failed: \(error)")
            }
        }
    }

    // `$0` of the closure around a call would be the wrapper's own: the closure names it.
    func opened(_ users: [String]) -> Promise<Int> {
        when(fulfilled: users.map { self.open($0) }).map { opened in
            opened.filter { $0 }.count
        }
    }

    // Chains used as values on a call made async (a closure's answer, a constant): one wrapper
    // each around the chain's code, of the chain's own type, which still makes the call at once.
    func tokens(_ users: [String]) -> Promise<[String?]> {
        let checks = users.map { user in
            api.login(user).map { Optional($0) }.recover { _ in Guarantee.value(nil) }
        }
        return when(fulfilled: checks.map { Promise($0) })
    }

    func mirrored(_ user: String) -> Promise<String> {
        let shouted = api.login(user).map { token in
            token.uppercased()
        }
        return when(fulfilled: [shouted, api.login(user)]).map { $0.joined() }
    }

    // A constant given its promise on each path below and read once: the chain on it is the
    // function's own.
    func pick(_ user: String, loud: Bool) -> Promise<String> {
        let chosen: Promise<String>
        if loud {
            chosen = api.login(user).map { $0.uppercased() }
        } else {
            chosen = api.login(user)
        }
        return chosen.recover { error -> Promise<String> in
            guard user.isEmpty else { throw error }
            return .value("nobody")
        }
    }

    // `cauterize()` on a call made async, inside another chain's handler too.
    func remember(_ user: String) {
        api.login(user).cauterize()
        api.login(user).done { token in
            api.profile(token).cauterize()
        }.cauterize()
    }

    // Nothing is left to discard: `@discardableResult` goes with the promise.
    @discardableResult
    func forget(_ user: String) -> Promise<Void> {
        guard !user.isEmpty else { return .value(()) }
        return api.login(user).asVoid()
    }

    // A last `map` whose every branch returns or throws: its code as it is gives the value.
    func length(_ user: String) -> Promise<Int> {
        api.login(user).map { token in
            if token.count > 3 {
                return token.count
            } else {
                throw ClockError.negative
            }
        }
    }
}
