import Dispatch
import Vow

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
    func pending(completion: @escaping @Sendable (Swift.Result<[Invite], Error>) -> Void) {
        let answer = Plan.next()
        Plan.answer {
            switch answer {
            case .value: completion(.success([Invite(id: 1, hike: "Ridge"), Invite(id: 2, hike: "Lake")]))
            case .failure: completion(.failure(ServiceError.down))
            case .neither: completion(.success([]))
            }
        }
    }

    /// Promise-based alternative to `pending(completion:)`, added by vow-migrate.
    func pending() -> Promise<[Invite]> {
        Promise { seal in
            pending { result in
                seal.resolve(result)
            }
        }
    }

    func accept(_ invite: Invite, completion: @escaping @Sendable (Error?) -> Void) {
        let answer = Plan.next()
        Plan.answer { completion(answer == .failure ? ServiceError.down : nil) }
    }

    /// Promise-based alternative to `accept(_:completion:)`, added by vow-migrate.
    func accept(_ invite: Invite) -> Promise<Void> {
        Promise { seal in
            accept(invite) { error in
                seal.resolve(error)
            }
        }
    }

    /// How many hikers joined: `.neither` says none.
    func joined(_ invite: Invite, completion: @escaping @Sendable (Int) -> Void) {
        let answer = Plan.next()
        Plan.answer { completion(answer == .neither ? 0 : 3) }
    }

    /// Promise-based alternative to `joined(_:completion:)`, added by vow-migrate.
    func joined(_ invite: Invite) -> Guarantee<Int> {
        Guarantee { resolve in
            joined(invite) { value in
                resolve(value)
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
        enum OpenFailure: Error { case pending(any Error), accept(any Error), returned }
        firstly {
            backend.pending().recover(on: nil, policy: .allErrors) { error -> Promise<[Invite]> in throw OpenFailure.pending(error) }
        }.then(on: nil) { invites in
            guard let invite = invites.first(where: { $0.id == id }) else {
                self.show("invitation \(id) is no longer open")
                throw OpenFailure.returned
            }
            return self.backend.accept(invite).recover(on: nil, policy: .allErrors) { error -> Promise<Void> in throw OpenFailure.accept(error) }.map(on: nil) { (invite, $0) }
        }.done(on: nil) { invite, _ in
            self.show("joined \(invite.hike)")
        }.catch(on: nil, policy: .allErrors) { error in
            switch error {
            case OpenFailure.returned:
                break
            case OpenFailure.pending(_):
                self.show("invitation \(id) is no longer open")
            case OpenFailure.accept(let error):
                self.show("could not accept: \(error)")
            default:
                break
            }
        }
    }

    /// Early exits between the error check and the next call, at the first step and the second.
    func join(_ id: Int) {
        enum JoinFailure: Error { case pending(any Error), accept(any Error), returned }
        firstly {
            backend.pending().recover(on: nil, policy: .allErrors) { error -> Promise<[Invite]> in throw JoinFailure.pending(error) }
        }.then(on: nil) { invites in
            self.log("\(invites.count) pending")
            if invites.isEmpty {
                self.show("nothing to join")
                throw JoinFailure.returned
            }
            let invite = invites[id % invites.count]
            return self.backend.accept(invite).recover(on: nil, policy: .allErrors) { error -> Promise<Void> in throw JoinFailure.accept(error) }.map(on: nil) { (invite, $0) }
        }.then(on: nil) { invite, _ in
            guard !self.stopped else {
                self.show("stopped before counting")
                throw JoinFailure.returned
            }
            return self.backend.joined(invite).map(on: nil) { (invite, $0) }
        }.done(on: nil) { invite, count in
            self.show("\(count) hikers on \(invite.hike)")
        }.catch(on: nil, policy: .allErrors) { error in
            switch error {
            case JoinFailure.returned:
                break
            case JoinFailure.pending(let error):
                self.show("could not load: \(error)")
            case JoinFailure.accept(let error):
                self.show("could not join: \(error)")
            default:
                break
            }
        }
    }

    /// After `guard let self`, the next callbacks (with an early exit) are a chain of their own.
    func count(_ id: Int) {
        backend.pending().done(on: nil) { [weak self] invites in
            guard let self else { return }
            enum CountInnerFailure: Error { case returned }
            firstly {
                self.backend.accept(invites[0])
            }.then(on: nil) { _ in
                if id == 0 {
                    self.show("accepted, not counted")
                    throw CountInnerFailure.returned
                }
                return self.backend.joined(invites[0])
            }.done(on: nil) { count in
                self.show("\(count) joined")
            }.catch(on: nil, policy: .allErrors) { error in
                switch error {
                case CountInnerFailure.returned:
                    break
                default:
                    self.show("could not accept: \(error)")
                }
            }
        }.catch(on: nil, policy: .allErrors) { [weak self] error in
            guard let self else { return }
            self.show("could not count: \(error)")
        }
    }

    /// `[weak self]` on the inner callback only: it is a chain of its own.
    func remind(_ id: Int) {
        backend.pending().done(on: nil) { invites in
            self.backend.joined(invites[0]).done(on: nil) { [weak self] count in
                self?.show("\(count) joined \(invites[0].hike)")
            }
        }.catch(on: nil, policy: .allErrors) { error in
            self.show("no reminder: \(error)")
        }
    }
}
