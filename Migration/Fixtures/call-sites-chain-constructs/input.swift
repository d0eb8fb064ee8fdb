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

    func profile(_ token: String) -> Promise<Profile> {
        .value(Profile(name: token))
    }

    func cachedProfile() -> Promise<Profile> {
        .value(Profile(name: "cached"))
    }

    func count(_ token: String) -> Promise<String> {
        .value("3")
    }

    func mirror(_ user: String) -> Promise<String> {
        .value("mirror-\(user)")
    }

    func save(_ profile: Profile) -> Promise<Void> {
        .value(())
    }
}

let api = Api()

final class ChainScreen: @unchecked Sendable {
    func show(_ text: String) {}
    func present(_ error: Error) {}
    func spin(_ on: Bool) {}

    // recover: a promise in its place; cancellations pass it by, as recover's default policy says.
    func recovering(_ user: String) {
        firstly {
            api.login(user)
        }.then { token in
            api.profile(token)
        }.recover { error -> Promise<Profile> in
            self.show("using the cache after \(error)")
            return api.cachedProfile()
        }.done { profile in
            self.show(profile.name)
        }.catch { error in
            self.present(error)
        }
    }

    // recover with `.value(x)` is the guarantee form: it sees every error, cancellations too.
    func recoveringToAValue(_ user: String) {
        api.login(user).recover { _ in
            .value("guest")
        }.done { token in
            self.show(token)
        }.catch { error in
            self.present(error)
        }
    }

    // recover that rethrows another error; nothing reads the value afterwards.
    func recoveringByThrowing(_ user: String) {
        api.login(user).asVoid().recover { error in
            self.show("login failed")
            throw LoadError.offline
        }.catch { error in
            self.present(error)
        }
    }

    // ensure before the catch, finally after it.
    func spinning(_ user: String) {
        self.spin(true)
        api.login(user).done { token in
            self.show(token)
        }.ensure {
            self.spin(false)
        }.catch { error in
            self.present(error)
        }.finally {
            self.show("finished")
        }
    }

    // ensure in the middle: it runs once the login settles, before the next step.
    func ensuringInTheMiddle(_ user: String) {
        api.login(user).ensure {
            self.show("login settled")
        }.then { token in
            api.profile(token)
        }.done { profile in
            self.show(profile.name)
        }.catch { error in
            self.present(error)
        }
    }

    // ensure before a done that reads nothing: a scope of its own, so it still runs first.
    func ensuringBeforeDone(_ user: String) {
        api.login(user).asVoid().ensure {
            self.show("settled")
        }.done {
            self.show("done")
        }.catch { error in
            self.present(error)
        }
    }

    // compactMap throws what Vow throws, PMKError.compactMap with the value and the type.
    func counting(_ user: String) {
        api.login(user).then { token in
            api.count(token)
        }.compactMap { text in
            Int(text)
        }.tap { _ in
            self.show("counted")
        }.done { count in
            self.show("\(count + 1)")
        }.catch { error in
            self.present(error)
        }
    }

    // A firstly body of several statements stays a firstly, made at once; asVoid drops the value.
    func saving(_ user: String) {
        firstly { () -> Promise<Profile> in
            self.show("saving \(user)")
            return api.profile(user)
        }.then { profile in
            api.save(profile)
        }.asVoid().done {
            self.show("saved")
        }.catch(policy: .allErrors) { error in
            self.present(error)
        }
    }

    // when(fulfilled:) and race stay the combinators they are, awaited: the first rejection in
    // time still wins; handlers on `.main` ran on the main queue, as the task does.
    func both(_ user: String) {
        when(fulfilled: api.login(user), api.profile(user)).then(on: .main) { token, profile in
            race(api.mirror(token), api.login(profile.name))
        }.done(on: DispatchQueue.main) { [weak self] winner in
            self?.show(winner)
        }.catch { [weak self] error in
            self?.present(error)
        }
    }

    // `on: nil` and a catch on the main queue: a plain task, the catch hopping to the main actor.
    func onTheSettlingThread(_ user: String) {
        api.login(user).done(on: nil) { token in
            self.show(token)
        }.catch { error in
            self.present(error)
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
        api.login(user).ensureThen {
            Guarantee.value(())
        }.done { token in
            self.show(token)
        }.catch { error in
            self.present(error)
        }
    }

    // `as?` shows compactMap's type; a handler that ignores its value binds nothing.
    func casting(_ user: String) {
        firstly {
            Promise<any Sendable>.value(user)
        }.then { value in
            api.login(user)
        }.map { token -> any Sendable in
            token
        }.compactMap { value in
            value as? String
        }.done { text in
            self.show(text)
        }.catch { error in
            self.present(error)
        }
    }

    // With a return type, `.value(x)` is the promise form: cancellations pass the recover by.
    func recoveringWithAType(_ user: String) {
        api.login(user).recover { error -> Promise<String> in
            .value("guest")
        }.done { token in
            self.show(token)
        }.catch { error in
            self.present(error)
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
        api.login(user).then { token -> Promise<Profile> in
            guard let first = token.first, first != "-" else { throw LoadError.offline }
            return api.profile("\(first)")
        }.recover { error -> Promise<Profile> in
            guard case LoadError.offline = error else { throw error }
            return api.cachedProfile()
        }.done { profile in
            self.show(profile.name)
        }.catch { error in
            self.present(error)
        }
    }

    // `$0` is a value like any other; `$1` (a tuple) is left alone.
    func shorthand(_ user: String) {
        api.login(user).map {
            $0.uppercased()
        }.done {
            self.show($0)
        }.catch {
            self.present($0)
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
        api.login(user).then(on: nil) { token in
            api.profile(token)
        }.done(on: nil) { profile in
            self.show(profile.name)
        }.catch(on: nil) { error in
            self.present(error)
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
        Promise<String>(error: LoadError.offline).compactMap { Int($0) }.done { value in
            self.show("\(value)")
        }.catch { error in
            self.present(error)
        }
    }

    // `cauterize()` is a `catch` handing the error to Vow's log (`conf.logHandler`).
    func cauterizing(_ user: String) {
        api.login(user).done { token in
            self.show(token)
        }.cauterize()
    }

    // A bare `cauterize()` on a promise is no chain: nothing to convert.
    func cauterizingOnly(_ user: String) {
        api.login(user).cauterize()
    }

    // `[unowned self]` on every handler that uses `self`: the task captures it the same way.
    func unownedly(_ user: String) {
        api.login(user).done { [unowned self] token in
            self.show(token)
        }.catch { [unowned self] error in
            self.present(error)
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
        api.login(user).done { token in
            self.show("signed in")
            api.profile(token).done { profile in
                self.show(profile.name)
            }.catch { error in
                self.present(error)
            }
        }.catch { error in
            self.present(error)
        }
    }

    // With a `finally` the outer chain ran it before the inner chain's handlers: the inner chain
    // stays a chain inside the task.
    func nestingBeforeFinally(_ user: String) {
        api.login(user).done { token in
            api.profile(token).done { profile in
                self.show(profile.name)
            }.catch { error in
                self.present(error)
            }
        }.catch { error in
            self.present(error)
        }.finally {
            self.show("done")
        }
    }

    // A chain that is the last thing the `catch` does: nested code in the `catch` block.
    func nestingInTheCatch(_ user: String) {
        api.login(user).done { token in
            self.show(token)
        }.catch { error in
            self.show("retrying after \(error)")
            api.login("guest").done { token in
                self.show("guest \(token)")
            }.catch { error in
                self.present(error)
            }
        }
    }

    // Its `catch` reads the outer `error`, which the inner `catch` block's own would hide: it
    // stays a chain in the outer `catch` block.
    func nestingInTheCatchReadingTheOuterError(_ user: String) {
        api.login(user).done { token in
            self.show(token)
        }.catch { error in
            api.login("guest").done { token in
                self.show("guest \(token)")
            }.catch { _ in
                self.present(error)
            }
        }
    }

    // No `catch`: a rejection went to Vow's unhandled-rejection report.
    func withoutACatch(_ user: String) {
        _ = api.login(user).done { token in
            self.show(token)
        }
    }
}
