import Dispatch

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
    @available(*, renamed: "member(_:)")
    func member(_ name: String, completion: @escaping @Sendable (Result<Member, DirectoryError>) -> Void) {
        let answer = Plan.next()
        Plan.answer {
            switch answer {
            case .value: completion(.success(Member(name: name)))
            case .failure: completion(.failure(.missing))
            case .neither: completion(.failure(.locked))
            }
        }
    }

    /// Async alternative to `member(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func member(_ name: String) async throws(DirectoryError) -> Member {
        let outcome: Swift.Result<Member, DirectoryError> = await withCheckedContinuation { continuation in
            member(name) { result in
                continuation.resume(returning: result)
            }
        }
        return try outcome.get()
    }

    @available(*, renamed: "badge(for:)")
    func badge(for member: Member, completion: @escaping @Sendable (String?) -> Void) {
        _ = Plan.next()
        Plan.answer { completion(member.name.count > 3 ? "gold" : nil) }
    }

    /// Async alternative to `badge(for:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func badge(for member: Member) async -> String? {
        await withCheckedContinuation { continuation in
            badge(for: member) { value in
                continuation.resume(returning: value)
            }
        }
    }

    @available(*, renamed: "ping()")
    func ping(completion: @escaping @Sendable (Error?) -> Void) {
        let answer = Plan.next()
        Plan.answer { completion(answer == .value ? nil : NetworkError.down) }
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
        let directory = self.directory
        Task {
            let result: Result<Member, DirectoryError>
            do throws(DirectoryError) {
                result = .success(try await directory.member(name))
            } catch {
                result = .failure(error)
            }
            switch result {
            case .success(let member):
                self.show("opened \(member.name)")
            case .failure(.missing):
                self.show("nobody called \(name)")
            case .failure(let error):
                self.show("could not open: \(error.message)")
            }
        }
    }

    /// The typed error at the first step, then a step that cannot fail, then one whose error is any error.
    func decorate(_ name: String) {
        let directory2 = self.directory
        Task {
            let result: Result<Member, DirectoryError>
            do throws(DirectoryError) {
                result = .success(try await directory2.member(name))
            } catch {
                result = .failure(error)
            }
            switch result {
            case .success(let member):
                let badge: String? = await self.directory.badge(for: member)
                let error: Error?
                do {
                    try await self.directory.ping()
                    error = nil
                } catch let caught {
                    error = caught
                }
                if let error {
                    self.show("offline: \(error)")
                    return
                }
                self.show("\(member.name): \(badge ?? "no badge")")
            case .failure(let error):
                self.show("no member: \(error.message)")
            }
        }
    }
}
