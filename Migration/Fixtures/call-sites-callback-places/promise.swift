import Dispatch
import Vow

/// How the next call of a fake service answers: with its value, with an error, or with neither
/// (`(nil, nil)`), on a queue of its own or before it returns.
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

/// A question the user answers later: its action runs when tapped, long after the code that
/// asked has returned.
final class Prompt: @unchecked Sendable {
    nonisolated(unsafe) static var pending: (@Sendable () -> Void)?
    nonisolated(unsafe) static var onAsk: @Sendable () -> Void = {}

    static func ask(_ question: String, action: @escaping @Sendable () -> Void) {
        print("ask: \(question)")
        pending = action
        onAsk()
    }

    static func tap() {
        pending?()
    }
}

/// Scores filled in by callbacks on any queue.
final class Scores: @unchecked Sendable {
    private let lock = DispatchSemaphore(value: 1)
    private var values: [String: Int] = [:]

    func set(_ name: String, _ score: Int) {
        lock.wait()
        values[name] = score
        lock.signal()
    }

    var summary: String {
        lock.wait()
        defer { lock.signal() }
        return values.keys.sorted().map { "\($0) \(values[$0]!)" }.joined(separator: ", ")
    }
}

struct Account: Sendable {
    var name: String
}

/// The backend, answering as the plan says.
final class HikerService: Sendable {
    /// `(nil, nil)` means "nobody by that name".
    func find(_ name: String, completion: @escaping @Sendable (Account?, Error?) -> Void) {
        let answer = Plan.next()
        Plan.answer {
            switch answer {
            case .value: completion(Account(name: name), nil)
            case .failure: completion(nil, ServiceError.down)
            case .neither: completion(nil, nil)
            }
        }
    }

    /// Promise-based alternative to `find(_:completion:)`, added by vow-migrate.
    func find(_ name: String) -> Promise<Account> {
        Promise { seal in
            find(name) { value, error in
                seal.resolve(value, error)
            }
        }
    }

    /// Separate success and failure handlers.
    func followers(of account: Account, success: @escaping @Sendable ([String]) -> Void, failure: @escaping @Sendable (Error) -> Void) {
        let answer = Plan.next()
        Plan.answer {
            if answer == .failure { failure(ServiceError.down) } else { success(["bob", "cy"]) }
        }
    }

    /// Promise-based alternative to `followers(of:success:failure:)`, added by vow-migrate.
    func followers(of account: Account) -> Promise<[String]> {
        Promise { seal in
            followers(of: account, success: { value in
                seal.fulfill(value)
            }, failure: { error in
                seal.reject(error)
            })
        }
    }

    /// Climb and descent; with an error it still passes what it measured (`(0, -1, error)`).
    func elevation(of name: String, completion: @escaping @Sendable (Int, Int, Error?) -> Void) {
        let answer = Plan.next()
        Plan.answer {
            if answer == .failure { completion(0, -1, ServiceError.down) } else { completion(420, 380, nil) }
        }
    }

    /// Promise-based alternative to `elevation(of:completion:)`, added by vow-migrate.
    func elevation(of name: String) -> Promise<(int: Int, int2: Int)> {
        Promise { seal in
            elevation(of: name) { int, int2, error in
                if let error {
                    seal.reject(error)
                } else {
                    seal.fulfill((int: int, int2: int2))
                }
            }
        }
    }

    /// How many changes went out; with an error, how many went before it.
    func replay(completion: @escaping @Sendable (Int, Error?) -> Void) {
        let answer = Plan.next()
        Plan.answer {
            if answer == .failure { completion(2, ServiceError.down) } else { completion(5, nil) }
        }
    }

    /// Promise-based alternative to `replay(completion:)`, added by vow-migrate.
    func replay() -> Promise<Int> {
        Promise { seal in
            replay { value, error in
                seal.resolve(value, error)
            }
        }
    }

    func ping(completion: @escaping @Sendable (Error?) -> Void) {
        let answer = Plan.next()
        Plan.answer { completion(answer == .failure ? ServiceError.down : nil) }
    }

    /// Promise-based alternative to `ping(completion:)`, added by vow-migrate.
    func ping() -> Promise<Void> {
        Promise { seal in
            ping { error in
                seal.resolve(error)
            }
        }
    }

    func friends(of name: String, completion: @escaping @Sendable (Swift.Result<[String], Error>) -> Void) {
        let answer = Plan.next()
        Plan.answer { completion(answer == .failure ? .failure(ServiceError.down) : .success(["bob", "cy"])) }
    }

    /// Promise-based alternative to `friends(of:completion:)`, added by vow-migrate.
    func friends(of name: String) -> Promise<[String]> {
        Promise { seal in
            friends(of: name) { result in
                seal.resolve(result)
            }
        }
    }

    func score(of name: String, completion: @escaping @Sendable (Int) -> Void) {
        _ = Plan.next()
        Plan.answer { completion(name.count * 10) }
    }

    /// Promise-based alternative to `score(of:completion:)`, added by vow-migrate.
    func score(of name: String) -> Guarantee<Int> {
        Guarantee { resolve in
            score(of: name) { value in
                resolve(value)
            }
        }
    }
}

/// A screen whose callbacks hold the shapes the async form keeps as they are: a split pair, values
/// given with an error, a `defer`, `$0` in the callback and in a closure inside it, a call in a
/// closure of a callback, a loop of calls in a callback.
final class HikerScreen: @unchecked Sendable {
    let service = HikerService()
    let shown: @Sendable (String) -> Void

    init(shown: @escaping @Sendable (String) -> Void) {
        self.shown = shown
    }

    func log(_ line: String) { print("log: \(line)") }
    func show(_ line: String) { shown(line) }

    func followers(of name: String) {
        service.find(name) { account, error in
            guard let account else {
                self.show(error == nil ? "nobody called \(name)" : "lookup failed")
                return
            }
            self.log("found \(account.name)")
            self.service.followers(of: account, success: { names in
                self.show("\(account.name) has \(names.count) followers")
            }, failure: { error in
                self.show("followers of \(account.name) failed: \(error)")
            })
        }
    }

    func climb(_ name: String) {
        service.elevation(of: name) { up, down, error in
            if let error {
                self.show("climb unknown (\(up), \(down)): \(error)")
                return
            }
            self.show("up \(up) m, down \(down) m")
        }
    }

    func replay() {
        service.replay { sent, error in
            self.show(error == nil ? "sent \(sent)" : "sent \(sent), then \(error!)")
        }
    }

    func recount() {
        service.replay { sent, error in
            defer { self.show("recount over") }
            if let error {
                self.log("recount failed after \(sent): \(error)")
                return
            }
            self.log("recounted \(sent)")
        }
    }

    func listFriends(of name: String) {
        service.friends(of: name).done(on: nil) { names in
            self.show(names.map { $0.uppercased() }.joined(separator: ", "))
        }.catch(on: nil, policy: .allErrors) { error in
            self.show("no friends: \(error)")
        }
    }

    func suggest(_ name: String) {
        service.find(name) { account, error in
            guard let account else {
                self.show("no suggestion")
                return
            }
            self.log("suggesting \(account.name)")
            Prompt.ask("follow \(account.name)?") {
                self.service.ping { error in
                    self.show(error == nil ? "following \(account.name)" : "could not follow \(account.name)")
                }
            }
        }
    }

    func rank(_ name: String) {
        service.find(name) { account, error in
            guard let account else {
                self.show("nobody to rank")
                return
            }
            let group = DispatchGroup()
            let scores = Scores()
            for friend in ["bob", "cy", account.name] {
                group.enter()
                self.service.score(of: friend) { score in
                    scores.set(friend, score)
                    group.leave()
                }
            }
            group.notify(queue: .global()) {
                self.show("scores: \(scores.summary)")
            }
        }
    }
}
