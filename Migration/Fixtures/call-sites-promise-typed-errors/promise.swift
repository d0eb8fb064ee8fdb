import Dispatch
import Vow

/// How the next call of a fake service answers: with its value, with one error or the other,
/// on a queue of its own or before it returns.
enum Answer: Sendable {
    case value, failure, neither
}

/// The directory's own errors, which its callbacks read as that type.
enum DirectoryError: Error, Equatable {
    case missing, locked

    var message: String {
        switch self {
        case .missing: return "no such member"
        case .locked: return "the member is locked"
        }
    }
}

enum NetworkError: Error {
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

struct Member: Sendable {
    var name: String
}

/// The member directory, answering as the plan says: `.failure` is `missing`, `.neither` is `locked`.
final class Directory: Sendable {
    func member(_ name: String, completion: @escaping @Sendable (Swift.Result<Member, DirectoryError>) -> Void) {
        let answer = Plan.next()
        Plan.answer {
            switch answer {
            case .value: completion(.success(Member(name: name)))
            case .failure: completion(.failure(.missing))
            case .neither: completion(.failure(.locked))
            }
        }
    }

    /// Promise-based alternative to `member(_:completion:)`, added by vow-migrate.
    func member(_ name: String) -> Promise<Member> {
        Promise { seal in
            member(name) { result in
                seal.resolve(result)
            }
        }
    }

    func badge(for member: Member, completion: @escaping @Sendable (String?) -> Void) {
        _ = Plan.next()
        Plan.answer { completion(member.name.count > 3 ? "gold" : nil) }
    }

    /// Promise-based alternative to `badge(for:completion:)`, added by vow-migrate.
    func badge(for member: Member) -> Guarantee<String?> {
        Guarantee { resolve in
            badge(for: member) { value in
                resolve(value)
            }
        }
    }

    func ping(completion: @escaping @Sendable (Error?) -> Void) {
        let answer = Plan.next()
        Plan.answer { completion(answer == .value ? nil : NetworkError.down) }
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

/// A screen whose callbacks read the directory's errors as `DirectoryError`: each path ends in
/// one `show`.
final class MemberScreen: @unchecked Sendable {
    let directory = Directory()
    let shown: @Sendable (String) -> Void

    init(shown: @escaping @Sendable (String) -> Void) {
        self.shown = shown
    }

    func show(_ line: String) { shown(line) }

    /// An error of the callee's own type matched without its type, then any other read as that type.
    func open(_ name: String) {
        directory.member(name).done(on: nil) { member in
            self.show("opened \(member.name)")
        }.catch(on: nil, policy: .allErrors) { error in
            switch error {
            case DirectoryError.missing:
                self.show("nobody called \(name)")
            case let error as DirectoryError:
                self.show("could not open: \(error.message)")
            default:
                break
            }
        }
    }

    /// The typed error at the first step, then a step that cannot fail, then one whose error is any error.
    func decorate(_ name: String) {
        enum DecorateFailure: Error { case member(any Error), ping(any Error) }
        firstly {
            directory.member(name).recover(on: nil, policy: .allErrors) { error -> Promise<Member> in throw DecorateFailure.member(error) }
        }.then(on: nil) { member in
            return self.directory.badge(for: member).map(on: nil) { (member, $0) }
        }.then(on: nil) { member, badge in
            return self.directory.ping().recover(on: nil, policy: .allErrors) { error -> Promise<Void> in throw DecorateFailure.ping(error) }.map(on: nil) { (member, badge, $0) }
        }.done(on: nil) { member, badge, _ in
            self.show("\(member.name): \(badge ?? "no badge")")
        }.catch(on: nil, policy: .allErrors) { error in
            switch error {
            case DecorateFailure.member(let error as DirectoryError):
                self.show("no member: \(error.message)")
            case DecorateFailure.ping(let error):
                self.show("offline: \(error)")
            default:
                break
            }
        }
    }
}
