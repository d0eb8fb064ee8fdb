import Dispatch

/// How the next call of a fake service answers: with its value or with an error, on a queue of
/// its own or before it returns.
enum Answer: Sendable {
    case value, failure, neither
}

enum ServiceError: Error {
    case down
}

final class Plan: @unchecked Sendable {
    nonisolated(unsafe) static var answers: [Answer] = []
    nonisolated(unsafe) static var synchronous = false

    static func next() -> Answer {
        answers.isEmpty ? .value : answers.removeFirst()
    }

    static func answer(_ body: @escaping @Sendable () -> Void) {
        if synchronous { body() } else { DispatchQueue.global().async(execute: body) }
    }
}

struct Invite: Sendable {
    var id: Int
    var hike: String
}

/// The invitations backend, answering as the plan says.
final class InviteBackend: Sendable {
    /// `.neither` answers with no invitations at all.
    @available(*, renamed: "pending()")
    func pending(completion: @escaping @Sendable (Result<[Invite], Error>) -> Void) {
        let answer = Plan.next()
        Plan.answer {
            switch answer {
            case .value: completion(.success([Invite(id: 1, hike: "Ridge"), Invite(id: 2, hike: "Lake")]))
            case .failure: completion(.failure(ServiceError.down))
            case .neither: completion(.success([]))
            }
        }
    }

    /// Async alternative to `pending(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func pending() async throws -> [Invite] {
        try await withCheckedThrowingContinuation { continuation in
            pending { result in
                continuation.resume(with: result)
            }
        }
    }

    @available(*, renamed: "accept(_:)")
    func accept(_ invite: Invite, completion: @escaping @Sendable (Error?) -> Void) {
        let answer = Plan.next()
        Plan.answer { completion(answer == .failure ? ServiceError.down : nil) }
    }

    /// Async alternative to `accept(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func accept(_ invite: Invite) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            accept(invite) { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
            }
        }
    }

    /// How many hikers joined: `.neither` says none.
    @available(*, renamed: "joined(_:)")
    func joined(_ invite: Invite, completion: @escaping @Sendable (Int) -> Void) {
        let answer = Plan.next()
        Plan.answer { completion(answer == .neither ? 0 : 3) }
    }

    /// Async alternative to `joined(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func joined(_ invite: Invite) async -> Int {
        await withCheckedContinuation { continuation in
            joined(invite) { value in
                continuation.resume(returning: value)
            }
        }
    }
}

/// A screen whose callbacks stop early: each path ends in one `show`.
final class InviteScreen: @unchecked Sendable {
    let backend = InviteBackend()
    let shown: @Sendable (String) -> Void
    var stopped = false

    init(shown: @escaping @Sendable (String) -> Void) {
        self.shown = shown
    }

    func log(_ line: String) { print("log: \(line)") }
    func show(_ line: String) { shown(line) }

    /// `guard case .success` with a condition of its own before the next call.
    func open(_ id: Int) {
        let backend2 = self.backend
        Task {
            let result: Result<[Invite], Error>
            do {
                result = .success(try await backend2.pending())
            } catch {
                result = .failure(error)
            }
            guard case .success(let invites) = result, let invite = invites.first(where: { $0.id == id }) else {
                self.show("invitation \(id) is no longer open")
                return
            }
            let error: Error?
            do {
                try await self.backend.accept(invite)
                error = nil
            } catch let caught {
                error = caught
            }
            if let error {
                self.show("could not accept: \(error)")
                return
            }
            self.show("joined \(invite.hike)")
        }
    }

    /// Early exits between the error check and the next call, at the first step and the second.
    func join(_ id: Int) {
        let backend2 = self.backend
        Task {
            let result: Result<[Invite], Error>
            do {
                result = .success(try await backend2.pending())
            } catch {
                result = .failure(error)
            }
            switch result {
            case .success(let invites):
                self.log("\(invites.count) pending")
                if invites.isEmpty {
                    self.show("nothing to join")
                    return
                }
                let invite = invites[id % invites.count]
                let error: Error?
                do {
                    try await self.backend.accept(invite)
                    error = nil
                } catch let caught {
                    error = caught
                }
                if let error {
                    self.show("could not join: \(error)")
                    return
                }
                guard !self.stopped else {
                    self.show("stopped before counting")
                    return
                }
                let count2: Int = await self.backend.joined(invite)
                self.show("\(count2) hikers on \(invite.hike)")
            case .failure(let error):
                self.show("could not load: \(error)")
            }
        }
    }

    /// After `guard let self`, the next callbacks (with an early exit) are a chain of their own.
    func count(_ id: Int) {
        let backend2 = self.backend
        Task { [weak self] in
            let result: Result<[Invite], Error>
            do {
                result = .success(try await backend2.pending())
            } catch {
                result = .failure(error)
            }
            guard let self else { return }
            switch result {
            case .success(let invites):
                let error: Error?
                do {
                    try await self.backend.accept(invites[0])
                    error = nil
                } catch let caught {
                    error = caught
                }
                if let error {
                    self.show("could not accept: \(error)")
                    return
                }
                if id == 0 {
                    self.show("accepted, not counted")
                    return
                }
                let count: Int = await self.backend.joined(invites[0])
                self.show("\(count) joined")
            case .failure(let error):
                self.show("could not count: \(error)")
            }
        }
    }

    /// `[weak self]` on the inner callback only: it is a chain of its own.
    func remind(_ id: Int) {
        backend.pending { result in
            switch result {
            case .success(let invites):
                self.backend.joined(invites[0]) { [weak self] count in
                    self?.show("\(count) joined \(invites[0].hike)")
                }
            case .failure(let error):
                self.show("no reminder: \(error)")
            }
        }
    }
}
