import Dispatch

struct Profile: Sendable {
    var name: String
}

final class Api: Sendable {
    func login(_ user: String, completion: @escaping @Sendable (String?, Error?) -> Void) {
        DispatchQueue.global().async { completion("token-\(user)", nil) }
    }

    func profile(_ token: String, completion: @escaping @Sendable (Result<Profile, Error>) -> Void) {
        DispatchQueue.global().async { completion(.success(Profile(name: token))) }
    }

    func avatar(_ profile: Profile, token: String, completion: @escaping @Sendable (Result<String, Error>) -> Void) {
        DispatchQueue.global().async { completion(.success("avatar-\(profile.name)")) }
    }

    func allowed(_ profile: Profile, completion: @escaping @Sendable (Bool) -> Void) {
        DispatchQueue.global().async { completion(!profile.name.isEmpty) }
    }

    func audit(_ entry: String, completion: @escaping @Sendable (Error?) -> Void) {
        DispatchQueue.global().async { completion(nil) }
    }

    /// Swift 5-era: the handler is not `@Sendable`, so callbacks may share a `var`.
    func history(_ token: String, completion: @escaping (Result<[String], Error>) -> Void) {
        completion(.success([token]))
    }
}

let api = Api()

final class Screen: @unchecked Sendable {
    func show(_ message: String) {}
    func present(_ error: Error) {}
    func render(_ token: String, _ profile: Profile) {}

    // The inner step reads the outer step's value: threaded through a tuple.
    func open(_ user: String) {
        api.login(user) { token, error in
            if let error { self.present(error); return }
            api.profile(token!) { result in
                switch result {
                case .success(let profile): self.render(token!, profile)
                case .failure(let error): self.present(error)
                }
            }
        }
    }

    // Values and a local from two levels up, and a last step whose value nothing reads.
    func sync(_ user: String) {
        api.login(user) { token, error in
            if let error { self.present(error); return }
            let started = "sync \(user)"
            api.profile(token!) { result in
                switch result {
                case .success(let profile):
                    api.avatar(profile, token: token!) { result in
                        switch result {
                        case .success(let avatar):
                            api.audit("\(started): \(avatar)") { error in
                                if let error { self.present(error); return }
                                self.show("\(started) done for \(profile.name) with \(token!)")
                            }
                        case .failure(let error): self.present(error)
                        }
                    }
                case .failure(let error): self.present(error)
                }
            }
        }
    }

    // An inner callback whose value has the outer one's name: the inner one hides it.
    func reopen(_ user: String) {
        api.login(user) { token, error in
            if let error { self.present(error); return }
            api.login(token! + "-again") { token, error in
                if let error { self.present(error); return }
                api.profile(token!) { result in
                    switch result {
                    case .success(let profile): self.render(token!, profile)
                    case .failure(let error): self.present(error)
                    }
                }
            }
        }
    }

    // Failure branches that read earlier values: each gets its case of the local error type,
    // carrying what it reads (a value, a `let` whose type the declaration spells, a flag's value).
    func publish(_ user: String) {
        api.login(user) { token, error in
            if let error { self.present(error); return }
            api.profile(token!) { result in
                switch result {
                case .success(let profile):
                    let entry = String("publish \(profile.name)")
                    api.allowed(profile) { allowed in
                        guard allowed else {
                            self.show("\(profile.name) may not publish (\(allowed))")
                            return
                        }
                        api.audit(entry) { error in
                            if let error { self.show("\(entry) failed for \(token!): \(error)"); return }
                            self.show(entry)
                        }
                    }
                case .failure(let error):
                    self.show("no profile for \(token!): \(error)")
                }
            }
        }
    }

    // The only failure branch reads the first callback's value: a case carrying it in promise
    // form, a `do`/`catch` around the call itself in async form.
    func recheck(_ profile: Profile) {
        api.allowed(profile) { allowed in
            api.audit("allowed: \(allowed)") { error in
                if let error { self.show("audit failed while \(allowed): \(error)"); return }
                self.show("audited")
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
