import Dispatch
import Vow

struct Profile: Sendable {
    var name: String
}

/// An API that already returns promises: a fulfilled promise becomes its value.
final class Api: Sendable {
    @MainActor func login(_ user: String) async throws -> String {
        return "token-\(user)"
    }

    @MainActor func profile(_ token: String) async throws -> Profile {
        return Profile(name: token)
    }
}

let api = Api()

final class ProfileService: Sendable {
    // One chain: `async throws -> String` on the main actor, where its handlers ran.
    @MainActor func profileName(_ user: String) async throws -> String {
        let token = try await api.login(user)
        let profile = try await api.profile(token)
        return profile.name.uppercased()
    }

    // `Promise<Void>`: `async throws`, the value dropped as `asVoid` dropped it.
    @MainActor func touch(_ user: String) async throws {
        _ = try await api.login(user)
    }

    // Used as a promise in this file: the call becomes `Promise.immediate { try await token(...) }`,
    // which starts the function at once, as the call did.
    @MainActor func token(_ user: String) async throws -> String {
        let token = try await api.login(user)
        return token + "!"
    }

    func printToken() {
        let tokenPromise = Promise.immediate { @MainActor @Sendable [self] in try await token("ada") }
        Task { @MainActor in
            do {
                let token = try await tokenPromise.value
                print(token)
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                conf.logHandler(.cauterized(error))
            }
        }
    }

    // A chain with its own `catch` does not return a promise; one with `[weak self]` stays a promise
    // function, its chain in the bridge.
    func weakly(_ user: String) -> Promise<String> {
        let tokenPromise = Promise.immediate { @MainActor @Sendable in try await api.login(user) }
        return Promise { @MainActor @Sendable [weak self] in
            let token = try await tokenPromise.value
            return self?.describe(token) ?? token
        }
    }

    func describe(_ token: String) -> String {
        "<\(token)>"
    }
}

@MainActor
final class Screen {
    // Already on the main actor: no attribute is added.
    func title(_ user: String) async throws -> String {
        let token = try await api.login(user)
        return "Hello \(token)"
    }
}

enum ClockError: Error {
    case negative
}

final class Clock: Sendable {
    // Made from callback code: a checked continuation, every path settling it once.
    @MainActor func tick(after delay: Double) async throws -> Int {
        return try await withCheckedThrowingContinuation { continuation in
            guard delay >= 0 else {
                continuation.resume(throwing: ClockError.negative)
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
                continuation.resume(returning: 1)
            }
        }
    }

    // A path settles it twice, which a continuation must not: the promise is made as before and awaited.
    @MainActor func twice() async throws -> Int {
        return try await Promise { seal in
            seal.fulfill(1)
            seal.fulfill(2)
        }.value
    }

    // The resolver goes to another function, which settles it out of sight: the promise is awaited.
    @MainActor func handedOn() async throws -> Int {
        return try await Promise { seal in
            settle(seal: seal)
        }.value
    }

    func settle(seal: Resolver<Int>) {
        seal.fulfill(3)
    }

    // Earlier answers: a rejected promise is thrown, a fulfilled one returned.
    @MainActor func count(from start: Int) async throws -> Int {
        guard start >= 0 else {
            throw ClockError.negative
        }
        if start == 0 {
            return 0
        }
        let value = try await tick(after: 0)
        return value + start
    }

    // A `return` in the last `map` gives the function's value, as it gave the chain's.
    @MainActor func label(after delay: Double) async throws -> String {
        let count = try await tick(after: delay)
        guard count > 0 else { return "none" }
        return "\(count) ticks"
    }

    func ticks() async throws -> Int {
        try await tick(after: 0) + (try await twice())
    }
}

/// A team's shorthand for promises of nothing.
typealias Completion = Promise<Void>

final class Directory: Sendable {
    // Declared through a typealias: the index resolves it, and it converts as `Promise<Void>`.
    @MainActor func ping(_ user: String) async throws {
        _ = try await api.login(user)
    }

    // A `compactMap` followed only by links keeping its type: the function's type is its type,
    // which the `PMKError.compactMap` thrown for `nil` names.
    @MainActor func initial(of user: String) async throws -> Character {
        let token = try await api.login(user)
        guard let value = token.first else { throw PMKError.compactMap(token, Character.self) }
        print("read")
        return value
    }

    func greet(_ user: String) {
        let firstPromise = Promise.immediate { @MainActor @Sendable [self] in try await ping(user) }
        Task { @MainActor in
            do {
                _ = try await firstPromise.value
                print("pinged")
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                print("\(error)")
            }
        }
        let letterPromise = Promise.immediate { @MainActor @Sendable [self] in try await initial(of: user) }
        Task { @MainActor in
            do {
                let letter = try await letterPromise.value
                print(letter)
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                conf.logHandler(.cauterized(error))
            }
        }
    }
}

final class Gate: Sendable {
    // The last `then` answers in several places: each `return` becomes the function's own.
    @MainActor func open(_ user: String) async throws -> Bool {
        let token = try await api.login(user)
        guard !token.isEmpty else { return false }
        if token.count > 40 {
            throw ClockError.negative
        }
        _ = try await api.profile(token)
        return true
    }

    // A function returning a guarantee: its last `recover` is the guarantee form, whatever the
    // handler calls.
    @MainActor func name(_ user: String) async -> String {
        do {
            return try await api.login(user)
        } catch {
            return await self.fallback()
        }
    }

    @MainActor func fallback() async -> String {
        return "guest"
    }

    // A guarantee's chain ending in `done`: a task, the call still made at once.
    func show(_ user: String) {
        let textPromise = Guarantee.immediate { @MainActor @Sendable [self] in await name(user) }
        Task { @MainActor in
            let text = await textPromise.value
            print(text)
        }
    }

    // A `then` handler answering with a chain of its own: its links follow in the same code,
    // reading the handler's names as they did.
    @MainActor func initials(_ user: String) async throws -> String {
        let token = try await api.login(user)
        let profile = try await api.profile(token)
        return String(profile.name.prefix(1)) + String(token.suffix(1))
    }

    // A handler on another queue still runs there, in a closure Vow runs on it; the next step
    // waits for it, on the main actor.
    @MainActor func shout(_ user: String) async throws -> String {
        let token = try await api.login(user)
        let loud = await DispatchQueue.global().async(.promise) {
            guard !token.isEmpty else { return "?" }
            return token.uppercased()
        }.value
        print(loud)
        return loud
    }

    // A `recover` answering before its end: its block answers there, as the handler did.
    @MainActor func handle(_ user: String) async throws -> String {
        let token = try await { () async throws in
            do {
                return try await api.login(user)
            } catch {
                // `recover` passed cancellations on (its default policy).
                if error.isCancelled { throw error }
                if user.isEmpty {
                    return "nobody"
                }
                throw error
            }
        }()
        return token.lowercased()
    }

    // A `tap` reading its `Result`, of the function's type: the code before it settles one, which
    // the handler reads and the function answers from.
    @MainActor func traced(_ user: String) async throws -> String {
        let result: Vow.Result<String>
        do {
            result = .fulfilled(try await api.login(user))
        } catch {
            result = .rejected(error)
        }
        if case .rejected(let error) = result {
            print("failed: \(error)")
        }
        return try result.get()
    }

    // `$0` of the closure around a call would be the wrapper's own: the closure names it.
    @MainActor func opened(_ users: [String]) async throws -> Int {
        let opened = try await when(fulfilled: users.map { value in Promise.immediate { @MainActor @Sendable in try await self.open(value) } }).value
        return opened.filter { $0 }.count
    }

    // Chains used as values on a call made async (a closure's answer, a constant): one wrapper
    // each around the chain's code, of the chain's own type, which still makes the call at once.
    @MainActor func tokens(_ users: [String]) async throws -> [String?] {
        let checks = users.map { user in
            let firstPromise = Promise.immediate { @MainActor @Sendable in try await api.login(user) }
            return Guarantee { @MainActor @Sendable in
                do {
                    let value = try await firstPromise.value
                    return Optional(value)
                } catch {
                    return nil
                }
            }
        }
        return try await when(fulfilled: checks.map { Promise($0) }).value
    }

    @MainActor func mirrored(_ user: String) async throws -> String {
        let tokenPromise = Promise.immediate { @MainActor @Sendable in try await api.login(user) }
        let shouted = Promise { @MainActor @Sendable in
            let token = try await tokenPromise.value
            return token.uppercased()
        }
        let value = try await when(fulfilled: [shouted, Promise.immediate { @MainActor @Sendable in try await api.login(user) }]).value
        return value.joined()
    }

    // A constant given its promise on each path below and read once: the chain on it is the
    // function's own.
    @MainActor func pick(_ user: String, loud: Bool) async throws -> String {
        let chosen: Promise<String>
        if loud {
            let firstPromise = Promise.immediate { @MainActor @Sendable in try await api.login(user) }
            chosen = Promise { @MainActor @Sendable in
                let value = try await firstPromise.value
                return value.uppercased()
            }
        } else {
            chosen = Promise.immediate { @MainActor @Sendable in try await api.login(user) }
        }
        do {
            return try await chosen.value
        } catch {
            // `recover` passed cancellations on (its default policy).
            if error.isCancelled { throw error }
            guard user.isEmpty else { throw error }
            return "nobody"
        }
    }

    // `cauterize()` on a call made async, inside another chain's handler too.
    func remember(_ user: String) {
        let firstPromise = Promise.immediate { @MainActor @Sendable in try await api.login(user) }
        Task { @MainActor in
            do {
                _ = try await firstPromise.value
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                conf.logHandler(.cauterized(error))
            }
        }
        let tokenPromise = Promise.immediate { @MainActor @Sendable in try await api.login(user) }
        Task { @MainActor in
            do {
                let token = try await tokenPromise.value
                let firstPromise2 = Promise.immediate { @MainActor @Sendable in try await api.profile(token) }
                Task { @MainActor in
                    do {
                        _ = try await firstPromise2.value
                    } catch {
                        // The chain's `catch` skipped cancellations (its default policy).
                        if error.isCancelled { return }
                        conf.logHandler(.cauterized(error))
                    }
                }
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                conf.logHandler(.cauterized(error))
            }
        }
    }

    // Nothing is left to discard: `@discardableResult` goes with the promise.
    @MainActor func forget(_ user: String) async throws {
        guard !user.isEmpty else { return }
        _ = try await api.login(user)
    }

    // A last `map` whose every branch returns or throws: its code as it is gives the value.
    @MainActor func length(_ user: String) async throws -> Int {
        let token = try await api.login(user)
        if token.count > 3 {
            return token.count
        } else {
            throw ClockError.negative
        }
    }
}
