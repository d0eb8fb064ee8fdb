// Hidden prelude for Migration/README.md's promise-form blocks on typed errors and early exits: a
// member directory with completion handlers, the promise alternatives vow-migrate adds beside
// them, and the screen the blocks extend.
import Dispatch
import Vow

enum DirectoryError: Error {
    case missing, locked

    var message: String { self == .missing ? "no such member" : "the member is locked" }
}

struct Member: Sendable {
    let name: String
}

struct Invite: Sendable {
    let id: Int
    let hike: String
    let isFull: Bool
}

final class Directory: Sendable {
    func member(_ name: String, completion: @escaping @Sendable (Swift.Result<Member, DirectoryError>) -> Void) {
        DispatchQueue.global().async { completion(.success(Member(name: name))) }
    }

    /// Promise-based alternative to `member(_:completion:)`, added by vow-migrate.
    func member(_ name: String) -> Promise<Member> {
        Promise { seal in
            member(name) { result in
                seal.resolve(result)
            }
        }
    }

    func invites(completion: @escaping @Sendable (Swift.Result<[Invite], Error>) -> Void) {
        DispatchQueue.global().async { completion(.success([Invite(id: 1, hike: "Ridge", isFull: false)])) }
    }

    /// Promise-based alternative to `invites(completion:)`, added by vow-migrate.
    func invites() -> Promise<[Invite]> {
        Promise { seal in
            invites { result in
                seal.resolve(result)
            }
        }
    }

    func accept(_ invite: Invite, completion: @escaping @Sendable (Error?) -> Void) {
        DispatchQueue.global().async { completion(nil) }
    }

    /// Promise-based alternative to `accept(_:completion:)`, added by vow-migrate.
    func accept(_ invite: Invite) -> Promise<Void> {
        Promise { seal in
            accept(invite) { error in
                seal.resolve(error)
            }
        }
    }
}

final class MemberScreen: Sendable {
    let directory = Directory()
    func show(_ line: String) { print(line) }
}
