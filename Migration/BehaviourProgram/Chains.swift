import Dispatch
import Vow

/// Promise-returning wrappers, as an earlier migration step would have left them.
func promisedLogin(_ user: String) -> Promise<String> {
    Promise { seal in api.login(user) { token, error in seal.resolve(token, error) } }
}

func promisedProfile(_ token: String) -> Promise<Profile> {
    Promise { seal in api.profile(token) { result in seal.resolve(result) } }
}

extension Flows {
    // An existing promise chain: `--to async` turns it into a task on the main actor.
    func chained(_ user: String) {
        firstly {
            promisedLogin(user)
        }.then { token in
            promisedProfile(token)
        }.map { profile in
            profile.name.uppercased()
        }.done { name in
            self.show("chained \(name)")
        }.catch { error in
            self.present(error)
        }
    }
}

extension Flows {
    // recover with a promise: login or profile failing falls back to a backup profile, which
    // fails too when profiles fail.
    func recovering(_ user: String) {
        firstly {
            promisedLogin(user)
        }.then { token in
            promisedProfile(token)
        }.recover { error -> Promise<Profile> in
            self.log("recovering from \(error)")
            return promisedProfile("backup")
        }.done { profile in
            self.show("recovered \(profile.name)")
        }.catch { error in
            self.present(error)
        }
    }

    // asVoid, ensure before the catch, finally after it: the final effect is the finally's.
    func spinning(_ user: String) {
        log("spinner on")
        promisedLogin(user).then { token in
            promisedProfile(token)
        }.asVoid().done {
            self.log("profile loaded")
        }.ensure {
            self.log("spinner off")
        }.catch { error in
            self.log("caught \(error)")
        }.finally {
            self.show("finished")
        }
    }

    // ensure in the middle, compactMap failing with PMKError.compactMap, tap { _ in }.
    func counting(_ user: String) {
        promisedLogin(user).ensure {
            self.log("login settled")
        }.compactMap { token in
            Int(token.dropFirst(6))
        }.tap { _ in
            self.log("counted")
        }.done { count in
            self.show("count \(count + 1)")
        }.catch { error in
            self.present(error)
        }
    }

    // A firstly of several statements, when(fulfilled:) and race awaited as they are, `on: .main`,
    // `[weak self]` and a catch that sees every error.
    func both(_ user: String) {
        firstly { () -> Promise<(String, Profile)> in
            self.log("both started")
            return when(fulfilled: promisedLogin(user), promisedProfile("direct-\(user)"))
        }.then(on: .main) { token, profile in
            race(promisedProfile(token), promisedProfile(profile.name))
        }.done(on: DispatchQueue.main) { [weak self] winner in
            self?.show("winner \(winner.name)")
        }.catch(policy: .allErrors) { [weak self] error in
            self?.present(error)
        }
    }

    // Every handler `on: nil`: they ran on the service's queue, a plain task's executor after.
    func settling(_ user: String) {
        promisedLogin(user).then(on: nil) { token in
            promisedProfile(token)
        }.done(on: nil) { profile in
            self.show("settled \(profile.name)")
        }.catch(on: nil) { error in
            self.present(error)
        }
    }

    // `on: nil` with a `done` on the main queue: the task hops there for it.
    func hopping(_ user: String) {
        promisedLogin(user).then(on: nil) { token in
            promisedProfile(token)
        }.done(on: .main) { [weak self] profile in
            self?.render(profile)
        }.catch(on: nil, policy: .allErrors) { [weak self] error in
            self?.present(error)
        }
    }
}

extension Flows {
    // `cauterize()`: a failure goes to Vow's log, which main.swift points at the trace.
    func cauterizing(_ user: String) {
        promisedLogin(user).done { token in
            self.show("cauterizing \(token)")
        }.cauterize()
    }
}

extension Flows {
    // A chain that is the last thing another chain's `done` does: nested code in the task, with
    // its own `catch`.
    func nesting(_ user: String) {
        promisedLogin(user).done { token in
            Trace.shared.record("nesting with \(token)", final: false)
            promisedProfile(token).done { profile in
                self.show("nested \(profile.name)")
            }.catch { error in
                self.present(error)
            }
        }.catch { error in
            self.present(error)
        }
    }
}
