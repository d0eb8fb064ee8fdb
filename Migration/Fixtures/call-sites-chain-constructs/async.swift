import Dispatch
import Vow

struct Profile: Sendable {
    var name: String
}

enum LoadError: Error {
    case offline
}

/// An API that already returns promises.
final class Api: Sendable {
    func login(_ user: String) -> Promise<String> {
        .value("token-\(user)")
    }

    /// Async alternative to `login(_:)`, added by vow-migrate.
    nonisolated(nonsending) func login(_ user: String) async throws -> String {
        let promise: Promise<String> = login(user)
        return try await promise.value
    }

    func profile(_ token: String) -> Promise<Profile> {
        .value(Profile(name: token))
    }

    /// Async alternative to `profile(_:)`, added by vow-migrate.
    nonisolated(nonsending) func profile(_ token: String) async throws -> Profile {
        let promise: Promise<Profile> = profile(token)
        return try await promise.value
    }

    func cachedProfile() -> Promise<Profile> {
        .value(Profile(name: "cached"))
    }

    /// Async alternative to `cachedProfile()`, added by vow-migrate.
    nonisolated(nonsending) func cachedProfile() async throws -> Profile {
        let promise: Promise<Profile> = cachedProfile()
        return try await promise.value
    }

    func count(_ token: String) -> Promise<String> {
        .value("3")
    }

    /// Async alternative to `count(_:)`, added by vow-migrate.
    nonisolated(nonsending) func count(_ token: String) async throws -> String {
        let promise: Promise<String> = count(token)
        return try await promise.value
    }

    func mirror(_ user: String) -> Promise<String> {
        .value("mirror-\(user)")
    }

    /// Async alternative to `mirror(_:)`, added by vow-migrate.
    nonisolated(nonsending) func mirror(_ user: String) async throws -> String {
        let promise: Promise<String> = mirror(user)
        return try await promise.value
    }

    func save(_ profile: Profile) -> Promise<Void> {
        .value(())
    }

    /// Async alternative to `save(_:)`, added by vow-migrate.
    nonisolated(nonsending) func save(_ profile: Profile) async throws {
        let promise: Promise<Void> = save(profile)
        try await promise.value
    }
}

let api = Api()

final class ChainScreen: @unchecked Sendable {
    func show(_ text: String) {}
    func present(_ error: Error) {}
    func spin(_ on: Bool) {}

    // recover: a promise in its place; cancellations pass it by, as recover's default policy says.
    func recovering(_ user: String) {
        let tokenPromise = api.login(user)
        Task { @MainActor in
            do {
                let profile = try await { () async throws in
                    do {
                        let token = try await tokenPromise.value
                        return try await api.profile(token)
                    } catch {
                        // `recover` passed cancellations on (its default policy).
                        if error.isCancelled { throw error }
                        self.show("using the cache after \(error)")
                        return try await api.cachedProfile()
                    }
                }()
                self.show(profile.name)
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                self.present(error)
            }
        }
    }

    // recover with `.value(x)` is the guarantee form: it sees every error, cancellations too.
    func recoveringToAValue(_ user: String) {
        let firstPromise = api.login(user)
        Task { @MainActor in
            do {
                let token = await { () async in
                    do {
                        return try await firstPromise.value
                    } catch {
                        return "guest"
                    }
                }()
                self.show(token)
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                self.present(error)
            }
        }
    }

    // recover that rethrows another error; nothing reads the value afterwards.
    func recoveringByThrowing(_ user: String) {
        let firstPromise = api.login(user)
        Task { @MainActor in
            do {
                do {
                    _ = try await firstPromise.value
                } catch {
                    // `recover` passed cancellations on (its default policy).
                    if error.isCancelled { throw error }
                    self.show("login failed")
                    throw LoadError.offline
                }
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                self.present(error)
            }
        }
    }

    // ensure before the catch, finally after it.
    func spinning(_ user: String) {
        self.spin(true)
        let tokenPromise = api.login(user)
        Task { @MainActor in
            defer {
                self.show("finished")
            }
            do {
                defer {
                    self.spin(false)
                }
                let token = try await tokenPromise.value
                self.show(token)
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                self.present(error)
            }
        }
    }

    // ensure in the middle: it runs once the login settles, before the next step.
    func ensuringInTheMiddle(_ user: String) {
        let firstPromise = api.login(user)
        Task { @MainActor in
            do {
                let token = try await { () async throws in
                    defer {
                        self.show("login settled")
                    }
                    return try await firstPromise.value
                }()
                let profile = try await api.profile(token)
                self.show(profile.name)
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                self.present(error)
            }
        }
    }

    // ensure before a done that reads nothing: a scope of its own, so it still runs first.
    func ensuringBeforeDone(_ user: String) {
        let firstPromise = api.login(user)
        Task { @MainActor in
            do {
                do {
                    defer {
                        self.show("settled")
                    }
                    _ = try await firstPromise.value
                }
                self.show("done")
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                self.present(error)
            }
        }
    }

    // compactMap throws what Vow throws, PMKError.compactMap with the value and the type.
    func counting(_ user: String) {
        let tokenPromise = api.login(user)
        Task { @MainActor in
            do {
                let count = try await { () async throws in
                    defer {
                        self.show("counted")
                    }
                    let token = try await tokenPromise.value
                    let text = try await api.count(token)
                    guard let value = Int(text) else { throw PMKError.compactMap(text, Int.self) }
                    return value
                }()
                self.show("\(count + 1)")
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                self.present(error)
            }
        }
    }

    // A firstly body of several statements stays a firstly, made at once; asVoid drops the value.
    func saving(_ user: String) {
        let profilePromise = firstly { () -> Promise<Profile> in
            self.show("saving \(user)")
            return api.profile(user)
        }
        Task { @MainActor in
            do {
                let profile = try await profilePromise.value
                _ = try await api.save(profile)
                self.show("saved")
            } catch {
                self.present(error)
            }
        }
    }

    // when(fulfilled:) and race stay the combinators they are, awaited: the first rejection in
    // time still wins; handlers on `.main` ran on the main queue, as the task does.
    func both(_ user: String) {
        let tokenPromise = when(fulfilled: api.login(user), api.profile(user))
        Task { @MainActor [weak self] in
            do {
                let (token, profile) = try await tokenPromise.value
                let winner = try await race(api.mirror(token), api.login(profile.name)).value
                self?.show(winner)
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                self?.present(error)
            }
        }
    }

    // `on: nil` and a catch on the main queue: a plain task, the catch hopping to the main actor.
    func onTheSettlingThread(_ user: String) {
        let tokenPromise = api.login(user)
        Task {
            do {
                let token = try await tokenPromise.value
                self.show(token)
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                await MainActor.run {
                    self.present(error)
                }
            }
        }
    }

    func tappingTheResult(_ user: String) {
        api.login(user).tap { result in
            self.show("\(result)")
        }.done { token in
            self.show(token)
        }.catch { error in
            self.present(error)
        }
    }

    func recoveringAmbiguously(_ user: String) {
        api.login(user).asVoid().recover { error in
            self.present(error)
        }.done {
            self.show("done")
        }.catch { error in
            self.present(error)
        }
    }

    func compactMappingUntyped(_ user: String) {
        api.login(user).compactMap { token in
            token.first
        }.done { first in
            self.show("\(first)")
        }.catch { error in
            self.present(error)
        }
    }

    func ensuringThen(_ user: String) {
        let tokenPromise = api.login(user).ensureThen {
            Guarantee.value(())
        }
        Task { @MainActor in
            do {
                let token = try await tokenPromise.value
                self.show(token)
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                self.present(error)
            }
        }
    }

    // `as?` shows compactMap's type; a handler that ignores its value binds nothing.
    func casting(_ user: String) {
        let valuePromise = Promise<any Sendable>.value(user)
        Task { @MainActor in
            do {
                _ = try await valuePromise.value
                let token = try await api.login(user)
                let value = token as any Sendable
                guard let text = value as? String else { throw PMKError.compactMap(value, String.self) }
                self.show(text)
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                self.present(error)
            }
        }
    }

    // With a return type, `.value(x)` is the promise form: cancellations pass the recover by.
    func recoveringWithAType(_ user: String) {
        let firstPromise = api.login(user)
        Task { @MainActor in
            do {
                let token = try await { () async throws in
                    do {
                        return try await firstPromise.value
                    } catch {
                        // `recover` passed cancellations on (its default policy).
                        if error.isCancelled { throw error }
                        return "guest"
                    }
                }()
                self.show(token)
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                self.present(error)
            }
        }
    }

    func declaringTwice(_ user: String) {
        api.login(user).then { token -> Promise<Profile> in
            let name = token
            return api.profile(name)
        }.done { profile in
            let name = profile.name
            self.show(name)
        }.catch { error in
            self.present(error)
        }
    }

    func readingAnOuterName(_ token: String) {
        api.login("ada").then { token in
            api.profile(token)
        }.done { profile in
            self.show(token)
        }.catch { error in
            self.present(error)
        }
    }

    func withFlags(_ user: String) {
        api.login(user).done(flags: .barrier) { token in
            self.show(token)
        }.catch { error in
            self.present(error)
        }
    }

    // `guard ... else { throw }` rejects in the handler and throws in straight-line code alike.
    func guarding(_ user: String) {
        let tokenPromise = api.login(user)
        Task { @MainActor in
            do {
                let profile = try await { () async throws in
                    do {
                        let token = try await tokenPromise.value
                        guard let first = token.first, first != "-" else { throw LoadError.offline }
                        return try await api.profile("\(first)")
                    } catch {
                        // `recover` passed cancellations on (its default policy).
                        if error.isCancelled { throw error }
                        guard case LoadError.offline = error else { throw error }
                        return try await api.cachedProfile()
                    }
                }()
                self.show(profile.name)
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                self.present(error)
            }
        }
    }

    // `$0` is a value like any other; `$1` (a tuple) is left alone.
    func shorthand(_ user: String) {
        let firstPromise = api.login(user)
        Task { @MainActor in
            do {
                let value = try await firstPromise.value
                let value2 = value.uppercased()
                self.show(value2)
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                self.present(error)
            }
        }
    }

    func shorthandTuple(_ user: String) {
        when(fulfilled: api.login(user), api.profile(user)).done {
            self.show("\($0) \($1.name)")
        }.catch { error in
            self.present(error)
        }
    }

    // Every handler `on: nil`: they ran on the thread settling the promise; a plain task's executor now.
    func onlyOnTheSettlingThread(_ user: String) {
        let tokenPromise = api.login(user)
        Task {
            do {
                let token = try await tokenPromise.value
                let profile = try await api.profile(token)
                self.show(profile.name)
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                self.present(error)
            }
        }
    }

    func mappingOnTheMainQueue(_ user: String) {
        api.login(user).map { token in
            token.uppercased()
        }.done(on: nil) { token in
            self.show(token)
        }.catch(on: nil) { error in
            self.present(error)
        }
    }

    // A rejected first promise whose type only the links after it give (`Int($0)` makes it a
    // `Promise<String>`): made on its own it would have none, so it is left alone.
    func failingUntyped() {
        Promise(error: LoadError.offline).compactMap { Int($0) }.done { value in
            self.show("\(value)")
        }.catch { error in
            self.present(error)
        }
    }

    // With its type written, it converts.
    func failingTyped() {
        let firstPromise = Promise<String>(error: LoadError.offline)
        Task { @MainActor in
            do {
                let value = try await firstPromise.value
                guard let value2 = Int(value) else { throw PMKError.compactMap(value, Int.self) }
                self.show("\(value2)")
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                self.present(error)
            }
        }
    }

    // `cauterize()` is a `catch` handing the error to Vow's log (`conf.logHandler`).
    func cauterizing(_ user: String) {
        let tokenPromise = api.login(user)
        Task { @MainActor in
            do {
                let token = try await tokenPromise.value
                self.show(token)
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                conf.logHandler(.cauterized(error))
            }
        }
    }

    // A bare `cauterize()` on a promise is no chain: nothing to convert.
    func cauterizingOnly(_ user: String) {
        api.login(user).cauterize()
    }

    // `[unowned self]` on every handler that uses `self`: the task captures it the same way.
    func unownedly(_ user: String) {
        let tokenPromise = api.login(user)
        Task { @MainActor [unowned self] in
            do {
                let token = try await tokenPromise.value
                self.show(token)
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                self.present(error)
            }
        }
    }

    // Weak in one handler and unowned in another: one task cannot capture `self` both ways.
    func mixingCaptures(_ user: String) {
        api.login(user).done { [weak self] token in
            self?.show(token)
        }.catch { [unowned self] error in
            self.present(error)
        }
    }

    // A chain that is the last thing `done` does: nested code with its own `catch`.
    func nestingAChain(_ user: String) {
        let tokenPromise = api.login(user)
        Task { @MainActor in
            do {
                let token = try await tokenPromise.value
                self.show("signed in")
                do {
                    let profile = try await api.profile(token).value
                    self.show(profile.name)
                } catch {
                    // The nested chain's `catch` skipped cancellations (its default policy).
                    if error.isCancelled { return }
                    self.present(error)
                }
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                self.present(error)
            }
        }
    }

    // With a `finally` the outer chain ran it before the inner chain's handlers: the inner chain
    // stays a chain inside the task.
    func nestingBeforeFinally(_ user: String) {
        let tokenPromise = api.login(user)
        Task { @MainActor in
            defer {
                self.show("done")
            }
            do {
                let token = try await tokenPromise.value
                api.profile(token).done { profile in
                    self.show(profile.name)
                }.catch { error in
                    self.present(error)
                }
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                self.present(error)
            }
        }
    }

    // A chain that is the last thing the `catch` does: nested code in the `catch` block.
    func nestingInTheCatch(_ user: String) {
        let tokenPromise = api.login(user)
        Task { @MainActor in
            do {
                let token = try await tokenPromise.value
                self.show(token)
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                self.show("retrying after \(error)")
                do {
                    let token = try await api.login("guest").value
                    self.show("guest \(token)")
                } catch {
                    // The nested chain's `catch` skipped cancellations (its default policy).
                    if error.isCancelled { return }
                    self.present(error)
                }
            }
        }
    }

    // Its `catch` reads the outer `error`, which the inner `catch` block's own would hide: it
    // stays a chain in the outer `catch` block.
    func nestingInTheCatchReadingTheOuterError(_ user: String) {
        let tokenPromise = api.login(user)
        Task { @MainActor in
            do {
                let token = try await tokenPromise.value
                self.show(token)
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                api.login("guest").done { token in
                    self.show("guest \(token)")
                }.catch { _ in
                    self.present(error)
                }
            }
        }
    }

    // No `catch`: a rejection went to Vow's unhandled-rejection report.
    func withoutACatch(_ user: String) {
        let tokenPromise = api.login(user)
        Task { @MainActor in
            do {
                let token = try await tokenPromise.value
                self.show(token)
            } catch {
                // The chain had no `catch`: Vow reported its rejection as unhandled (a cancellation is not).
                if error.isCancelled { return }
                conf.unhandledRejectionHandler(UnhandledRejection(error: error, creationSite: nil))
            }
        }
    }
}
