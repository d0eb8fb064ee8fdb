import Dispatch

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

struct Profile: Sendable {
    var name: String
}

final class Api: Sendable {
    @available(*, renamed: "login(_:)")
    func login(_ user: String, completion: @escaping @Sendable (String?, Error?) -> Void) {
        DispatchQueue.global().async { completion("token-\(user)", nil) }
    }

    /// Async alternative to `login(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func login(_ user: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            login(user) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "login(_:completion:)"))
                }
            }
        }
    }

    @available(*, renamed: "profile(_:)")
    func profile(_ token: String, completion: @escaping @Sendable (Result<Profile, Error>) -> Void) {
        DispatchQueue.global().async { completion(.success(Profile(name: token))) }
    }

    /// Async alternative to `profile(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func profile(_ token: String) async throws -> Profile {
        try await withCheckedThrowingContinuation { continuation in
            profile(token) { result in
                continuation.resume(with: result)
            }
        }
    }

    @available(*, renamed: "avatar(_:token:)")
    func avatar(_ profile: Profile, token: String, completion: @escaping @Sendable (Result<String, Error>) -> Void) {
        DispatchQueue.global().async { completion(.success("avatar-\(profile.name)")) }
    }

    /// Async alternative to `avatar(_:token:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func avatar(_ profile: Profile, token: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            avatar(profile, token: token) { result in
                continuation.resume(with: result)
            }
        }
    }

    @available(*, renamed: "allowed(_:)")
    func allowed(_ profile: Profile, completion: @escaping @Sendable (Bool) -> Void) {
        DispatchQueue.global().async { completion(!profile.name.isEmpty) }
    }

    /// Async alternative to `allowed(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func allowed(_ profile: Profile) async -> Bool {
        await withCheckedContinuation { continuation in
            allowed(profile) { value in
                continuation.resume(returning: value)
            }
        }
    }

    @available(*, renamed: "audit(_:)")
    func audit(_ entry: String, completion: @escaping @Sendable (Error?) -> Void) {
        DispatchQueue.global().async { completion(nil) }
    }

    /// Async alternative to `audit(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func audit(_ entry: String) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            audit(entry) { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
            }
        }
    }

    /// Swift 5-era: the handler is not `@Sendable`, so callbacks may share a `var`.
    @available(*, renamed: "history(_:)")
    func history(_ token: String, completion: @escaping (Result<[String], Error>) -> Void) {
        completion(.success([token]))
    }

    /// Async alternative to `history(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func history(_ token: String) async throws -> [String] {
        try await withCheckedThrowingContinuation { continuation in
            history(token) { result in
                continuation.resume(with: result)
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
        Task {
            do {
                let token = try await api.login(user)
                let profile = try await api.profile(token)
                self.render(token, profile)
            } catch {
                self.present(error)
            }
        }
    }

    // Values and a local from two levels up, and a last step whose value nothing reads.
    func sync(_ user: String) {
        Task {
            do {
                let token = try await api.login(user)
                let started = "sync \(user)"
                let profile = try await api.profile(token)
                let avatar = try await api.avatar(profile, token: token)
                try await api.audit("\(started): \(avatar)")
                self.show("\(started) done for \(profile.name) with \(token)")
            } catch {
                self.present(error)
            }
        }
    }

    // An inner callback whose value has the outer one's name: the inner one hides it.
    func reopen(_ user: String) {
        Task {
            do {
                let token = try await api.login(user)
                let token2 = try await api.login(token + "-again")
                let profile = try await api.profile(token2)
                self.render(token2, profile)
            } catch {
                self.present(error)
            }
        }
    }

    // Failure branches that read earlier values: each gets its case of the local error type,
    // carrying what it reads (a value, a `let` whose type the declaration spells, a flag's value).
    func publish(_ user: String) {
        Task {
            let token: String
            do {
                token = try await api.login(user)
            } catch {
                self.present(error)
                return
            }
            let profile: Profile
            do {
                profile = try await api.profile(token)
            } catch {
                self.show("no profile for \(token): \(error)")
                return
            }
            let entry = String("publish \(profile.name)")
            let allowed = await api.allowed(profile)
            guard allowed else {
                self.show("\(profile.name) may not publish (\(allowed))")
                return
            }
            do {
                try await api.audit(entry)
            } catch {
                self.show("\(entry) failed for \(token): \(error)")
                return
            }
            self.show(entry)
        }
    }

    // The only failure branch reads the first callback's value: a case carrying it in promise
    // form, a `do`/`catch` around the call itself in async form.
    func recheck(_ profile: Profile) {
        Task {
            let allowed = await api.allowed(profile)
            do {
                try await api.audit("allowed: \(allowed)")
            } catch {
                self.show("audit failed while \(allowed): \(error)")
                return
            }
            self.show("audited")
        }
    }

    // A failure branch reading a local whose type the declaration does not spell: left alone in
    // promise form.
    func note(_ user: String) {
        Task {
            let token: String
            do {
                token = try await api.login(user)
            } catch {
                self.present(error)
                return
            }
            let entry = "note " + token
            do {
                try await api.audit(entry)
            } catch {
                self.show("\(entry): \(error)")
                return
            }
            self.show(entry)
        }
    }

    // A `var` an earlier callback declares and a later one reads: left alone in promise form.
    func count(_ user: String) {
        Task {
            do {
                let token = try await api.login(user)
                var attempts = 1
                attempts += 1
                let entries = try await api.history(token)
                self.show("\(entries.count) after \(attempts)")
            } catch {
                self.present(error)
            }
        }
    }
}
