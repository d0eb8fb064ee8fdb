import Dispatch
import Vow

struct User: Sendable {
    var name: String
}

enum LookupError: Error {
    case offline
}

/// Services whose callbacks the call sites below cannot flatten without changing what they do.
final class Directory: Sendable {
    func find(_ name: String, completion: @escaping @Sendable (User?, Error?) -> Void) {
        DispatchQueue.global().async { completion(nil, nil) }
    }

    /// Promise-based alternative to `find(_:completion:)`, added by vow-migrate.
    func find(_ name: String) -> Promise<User> {
        Promise { seal in
            find(name) { value, error in
                seal.resolve(value, error)
            }
        }
    }

    func load(_ name: String, completion: @escaping @Sendable (Swift.Result<User, Error>) -> Void) {
        DispatchQueue.global().async { completion(.success(User(name: name))) }
    }

    /// Promise-based alternative to `load(_:completion:)`, added by vow-migrate.
    func load(_ name: String) -> Promise<User> {
        Promise { seal in
            load(name) { result in
                seal.resolve(result)
            }
        }
    }

    func save(_ user: User, completion: @escaping @Sendable (Bool, Error?) -> Void) {
        DispatchQueue.global().async { completion(false, nil) }
    }

    /// Promise-based alternative to `save(_:completion:)`, added by vow-migrate.
    func save(_ user: User) -> Promise<Void> {
        Promise { seal in
            save(user) { success, error in
                if let error {
                    seal.reject(error)
                } else if success {
                    seal.fulfill()
                } else {
                    seal.reject(PMKError.invalidCallingConvention)
                }
            }
        }
    }

    func ping(completion: @escaping @Sendable (Error?) -> Void) {
        DispatchQueue.global().async { completion(nil) }
    }

    /// Promise-based alternative to `ping(completion:)`, added by vow-migrate.
    func ping() -> Promise<Void> {
        Promise { seal in
            ping { error in
                seal.resolve(error)
            }
        }
    }
}

final class DirectoryScreen: @unchecked Sendable {
    let directory = Directory()
    var names: [String] = []

    func show(_ text: String) {}

    // `(nil, nil)` means "nobody by that name" here: a rejection would change that.
    func lookUp(_ name: String) {
        directory.find(name) { user, error in
            if let error { self.show("failed: \(error)"); return }
            if let user { self.show(user.name) } else { self.show("nobody") }
        }
    }

    // `(false, nil)` means "declined": the alternative would reject it.
    func store(_ user: User) {
        directory.save(user) { saved, error in
            if let error { self.show("\(error)"); return }
            self.show(saved ? "saved" : "declined")
        }
    }

    // `default:` could hide a case the chain would have to tell apart.
    func open(_ name: String) {
        directory.load(name) { result in
            switch result {
            case .success(let user): self.show(user.name)
            default: self.show("failed")
            }
        }
    }

    // A fan-out waited on: `wait()` blocks the thread until every callback has run.
    func openAll() {
        let group = DispatchGroup()
        for name in names {
            group.enter()
            directory.load(name) { result in
                switch result {
                case .success(let user): self.show(user.name)
                case .failure: self.show("failed")
                }
                group.leave()
            }
        }
        group.wait()
        show("all opened")
    }

    // An early return in the middle of a callback.
    func check() {
        directory.ping().done(on: nil) { _ in
            if self.names.isEmpty { return }
            self.show("ok")
        }.catch(on: nil, policy: .allErrors) { error in
            self.show("\(error)")
        }
    }

    // A guard that leaves the callback.
    func guarded(_ name: String) {
        directory.load(name).done(on: nil) { [weak self] user in
            guard let self else { return }
            self.show(user.name)
        }.catch(on: nil, policy: .allErrors) { [weak self] _ in
            guard let self else { return }
            self.show("failed")
        }
    }

    // The nested call happens on one branch only.
    func branch(_ name: String) {
        directory.load(name) { result in
            switch result {
            case .success(let user):
                if user.name.isEmpty {
                    self.directory.ping { error in
                        if let error { self.show("\(error)") } else { self.show("pinged") }
                    }
                }
            case .failure: self.show("failed")
            }
        }
    }
}
