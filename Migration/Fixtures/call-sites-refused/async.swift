import Dispatch

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

struct User: Sendable {
    var name: String
}

enum LookupError: Error {
    case offline
}

/// Services whose callbacks the call sites below cannot flatten without changing what they do.
final class Directory: Sendable {
    @available(*, renamed: "find(_:)")
    func find(_ name: String, completion: @escaping @Sendable (User?, Error?) -> Void) {
        DispatchQueue.global().async { completion(nil, nil) }
    }

    /// Async alternative to `find(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func find(_ name: String) async throws -> User {
        try await withCheckedThrowingContinuation { continuation in
            find(name) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "find(_:completion:)"))
                }
            }
        }
    }

    @available(*, renamed: "load(_:)")
    func load(_ name: String, completion: @escaping @Sendable (Result<User, Error>) -> Void) {
        DispatchQueue.global().async { completion(.success(User(name: name))) }
    }

    /// Async alternative to `load(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func load(_ name: String) async throws -> User {
        try await withCheckedThrowingContinuation { continuation in
            load(name) { result in
                continuation.resume(with: result)
            }
        }
    }

    @available(*, renamed: "save(_:)")
    func save(_ user: User, completion: @escaping @Sendable (Bool, Error?) -> Void) {
        DispatchQueue.global().async { completion(false, nil) }
    }

    /// Async alternative to `save(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func save(_ user: User) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            save(user) { success, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if success {
                    continuation.resume()
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "save(_:completion:)"))
                }
            }
        }
    }

    @available(*, renamed: "ping()")
    func ping(completion: @escaping @Sendable (Error?) -> Void) {
        DispatchQueue.global().async { completion(nil) }
    }

    /// Async alternative to `ping(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func ping() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            ping { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
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
        let directory = self.directory
        Task {
            let user: User?
            let error: Error?
            do {
                user = try await directory.find(name)
                error = nil
            } catch let caught {
                user = nil
                error = String(describing: type(of: caught)) == "NeitherValueNorError" ? nil : caught
            }
            if let error { self.show("failed: \(error)"); return }
            if let user { self.show(user.name) } else { self.show("nobody") }
        }
    }

    // `(false, nil)` means "declined": the alternative would reject it.
    func store(_ user: User) {
        let directory = self.directory
        Task {
            let saved: Bool
            let error: Error?
            do {
                try await directory.save(user)
                saved = true
                error = nil
            } catch let caught {
                saved = false
                error = String(describing: type(of: caught)) == "NeitherValueNorError" ? nil : caught
            }
            if let error { self.show("\(error)"); return }
            self.show(saved ? "saved" : "declined")
        }
    }

    // `default:` could hide a case the chain would have to tell apart.
    func open(_ name: String) {
        let directory = self.directory
        Task {
            let result: Result<User, Error>
            do {
                result = .success(try await directory.load(name))
            } catch {
                result = .failure(error)
            }
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
        let directory = self.directory
        Task {
            let error: Error?
            do {
                try await directory.ping()
                error = nil
            } catch let caught {
                error = caught
            }
            if let error { self.show("\(error)"); return }
            if self.names.isEmpty { return }
            self.show("ok")
        }
    }

    // A guard that leaves the callback.
    func guarded(_ name: String) {
        let directory = self.directory
        Task { [weak self] in
            let result: Result<User, Error>
            do {
                result = .success(try await directory.load(name))
            } catch {
                result = .failure(error)
            }
            guard let self else { return }
            switch result {
            case .success(let user): self.show(user.name)
            case .failure: self.show("failed")
            }
        }
    }

    // The nested call happens on one branch only.
    func branch(_ name: String) {
        let directory2 = self.directory
        Task {
            let result: Result<User, Error>
            do {
                result = .success(try await directory2.load(name))
            } catch {
                result = .failure(error)
            }
            switch result {
            case .success(let user):
                if user.name.isEmpty {
                    let error: Error?
                    do {
                        try await self.directory.ping()
                        error = nil
                    } catch let caught {
                        error = caught
                    }
                    if let error { self.show("\(error)") } else { self.show("pinged") }
                }
            case .failure: self.show("failed")
            }
        }
    }
}
