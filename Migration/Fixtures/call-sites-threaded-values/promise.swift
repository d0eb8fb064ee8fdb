import Dispatch
import Vow

struct Profile: Sendable {
    var name: String
}

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

    func profile(_ token: String, completion: @escaping @Sendable (Swift.Result<Profile, Error>) -> Void) {
        DispatchQueue.global().async { completion(.success(Profile(name: token))) }
    }

    /// Promise-based alternative to `profile(_:completion:)`, added by vow-migrate.
    func profile(_ token: String) -> Promise<Profile> {
        Promise { seal in
            profile(token) { result in
                seal.resolve(result)
            }
        }
    }

    func avatar(_ profile: Profile, token: String, completion: @escaping @Sendable (Swift.Result<String, Error>) -> Void) {
        DispatchQueue.global().async { completion(.success("avatar-\(profile.name)")) }
    }

    /// Promise-based alternative to `avatar(_:token:completion:)`, added by vow-migrate.
    func avatar(_ profile: Profile, token: String) -> Promise<String> {
        Promise { seal in
            avatar(profile, token: token) { result in
                seal.resolve(result)
            }
        }
    }

    func allowed(_ profile: Profile, completion: @escaping @Sendable (Bool) -> Void) {
        DispatchQueue.global().async { completion(!profile.name.isEmpty) }
    }

    /// Promise-based alternative to `allowed(_:completion:)`, added by vow-migrate.
    func allowed(_ profile: Profile) -> Guarantee<Bool> {
        Guarantee { resolve in
            allowed(profile) { value in
                resolve(value)
            }
        }
    }

    func audit(_ entry: String, completion: @escaping @Sendable (Error?) -> Void) {
        DispatchQueue.global().async { completion(nil) }
    }

    /// Promise-based alternative to `audit(_:completion:)`, added by vow-migrate.
    func audit(_ entry: String) -> Promise<Void> {
        Promise { seal in
            audit(entry) { error in
                seal.resolve(error)
            }
        }
    }

    /// Swift 5-era: the handler is not `@Sendable`, so callbacks may share a `var`.
    func history(_ token: String, completion: @escaping (Swift.Result<[String], Error>) -> Void) {
        completion(.success([token]))
    }

    /// Promise-based alternative to `history(_:completion:)`, added by vow-migrate.
    func history(_ token: String) -> Promise<[String]> {
        Promise { seal in
            history(token) { result in
                seal.resolve(result)
            }
        }
    }
}

let api = Api()

final class Screen: @unchecked Sendable {
    func show(_ message: String) {}
    func present(_ error: Error) {}
    func render(_ token: String, _ profile: Profile) {}

    // The inner step reads the outer step's value: threaded through a tuple.
    func open(_ user: String) {
        firstly {
            api.login(user)
        }.then(on: nil) { token in
            return api.profile(token).map(on: nil) { (token, $0) }
        }.done(on: nil) { token, profile in
            self.render(token, profile)
        }.catch(on: nil, policy: .allErrors) { error in
            self.present(error)
        }
    }

    // Values and a local from two levels up, and a last step whose value nothing reads.
    func sync(_ user: String) {
        firstly {
            api.login(user)
        }.then(on: nil) { token in
            let started = "sync \(user)"
            return api.profile(token).map(on: nil) { (token, started, $0) }
        }.then(on: nil) { token, started, profile in
            return api.avatar(profile, token: token).map(on: nil) { (token, started, profile, $0) }
        }.then(on: nil) { token, started, profile, avatar in
            return api.audit("\(started): \(avatar)").map(on: nil) { (token, started, profile, $0) }
        }.done(on: nil) { token, started, profile, _ in
            self.show("\(started) done for \(profile.name) with \(token)")
        }.catch(on: nil, policy: .allErrors) { error in
            self.present(error)
        }
    }

    // An inner callback whose value has the outer one's name: the inner one hides it.
    func reopen(_ user: String) {
        firstly {
            api.login(user)
        }.then(on: nil) { token in
            return api.login(token + "-again")
        }.then(on: nil) { token in
            return api.profile(token).map(on: nil) { (token, $0) }
        }.done(on: nil) { token, profile in
            self.render(token, profile)
        }.catch(on: nil, policy: .allErrors) { error in
            self.present(error)
        }
    }

    // Failure branches that read earlier values: each gets its case of the local error type,
    // carrying what it reads (a value, a `let` whose type the declaration spells, a flag's value).
    func publish(_ user: String) {
        enum PublishFailure: Error { case login(any Error), profile(any Error, String), allowed(Profile, Bool), audit(any Error, String, String) }
        firstly {
            api.login(user).recover(on: nil, policy: .allErrors) { error -> Promise<String> in throw PublishFailure.login(error) }
        }.then(on: nil) { token in
            return api.profile(token).recover(on: nil, policy: .allErrors) { error -> Promise<Profile> in throw PublishFailure.profile(error, token) }.map(on: nil) { (token, $0) }
        }.then(on: nil) { token, profile in
            let entry = String("publish \(profile.name)")
            return api.allowed(profile).map(on: nil) { (token, profile, entry, $0) }
        }.then(on: nil) { token, profile, entry, allowed in
            guard allowed else { throw PublishFailure.allowed(profile, allowed) }
            return api.audit(entry).recover(on: nil, policy: .allErrors) { error -> Promise<Void> in throw PublishFailure.audit(error, token, entry) }.map(on: nil) { (entry, $0) }
        }.done(on: nil) { entry, _ in
            self.show(entry)
        }.catch(on: nil, policy: .allErrors) { error in
            switch error {
            case PublishFailure.login(let error):
                self.present(error)
            case PublishFailure.profile(let error, let token):
                self.show("no profile for \(token): \(error)")
            case PublishFailure.allowed(let profile, let allowed):
                self.show("\(profile.name) may not publish (\(allowed))")
            case PublishFailure.audit(let error, let token, let entry):
                self.show("\(entry) failed for \(token): \(error)")
            default:
                break
            }
        }
    }

    // The only failure branch reads the first callback's value: a case carrying it in promise
    // form, a `do`/`catch` around the call itself in async form.
    func recheck(_ profile: Profile) {
        enum RecheckFailure: Error { case audit(any Error, Bool) }
        firstly {
            api.allowed(profile)
        }.then(on: nil) { allowed in
            return api.audit("allowed: \(allowed)").recover(on: nil, policy: .allErrors) { error -> Promise<Void> in throw RecheckFailure.audit(error, allowed) }
        }.done(on: nil) { _ in
            self.show("audited")
        }.catch(on: nil, policy: .allErrors) { error in
            switch error {
            case RecheckFailure.audit(let error, let allowed):
                self.show("audit failed while \(allowed): \(error)")
            default:
                break
            }
        }
    }

    // A failure branch reading a local whose type the declaration does not spell: left alone in
    // promise form.
    func note(_ user: String) {
        api.login(user) { token, error in
            if let error { self.present(error); return }
            let entry = "note " + token!
            api.audit(entry) { error in
                if let error { self.show("\(entry): \(error)"); return }
                self.show(entry)
            }
        }
    }

    // A `var` an earlier callback declares and a later one reads: left alone in promise form.
    func count(_ user: String) {
        api.login(user) { token, error in
            if let error { self.present(error); return }
            var attempts = 1
            attempts += 1
            api.history(token!) { result in
                switch result {
                case .success(let entries): self.show("\(entries.count) after \(attempts)")
                case .failure(let error): self.present(error)
                }
            }
        }
    }
}
