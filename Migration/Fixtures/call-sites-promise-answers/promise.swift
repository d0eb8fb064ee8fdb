import Dispatch
import Vow

/// How the next call of a fake service answers: with its value, with an error, or with neither
/// (`(nil, nil)`, `(false, nil)`), on a queue of its own or before it returns.
enum Answer: Sendable {
    case value, failure, neither
}

enum ServiceError: Error {
    case down, busy
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

struct Account: Sendable {
    var name: String
}

/// The account backend, answering as the plan says.
final class AccountService: Sendable {
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

    /// `(false, nil)` means "declined".
    func approve(_ account: Account, completion: @escaping @Sendable (Bool, Error?) -> Void) {
        let answer = Plan.next()
        Plan.answer {
            switch answer {
            case .value: completion(true, nil)
            case .failure: completion(false, ServiceError.down)
            case .neither: completion(false, nil)
            }
        }
    }

    /// Promise-based alternative to `approve(_:completion:)`, added by vow-migrate.
    func approve(_ account: Account) -> Promise<Void> {
        Promise { seal in
            approve(account) { success, error in
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

    /// `.neither` here is the other failure: `busy`.
    func load(_ name: String, completion: @escaping @Sendable (Swift.Result<Account, Error>) -> Void) {
        let answer = Plan.next()
        Plan.answer {
            switch answer {
            case .value: completion(.success(Account(name: name)))
            case .failure: completion(.failure(ServiceError.down))
            case .neither: completion(.failure(ServiceError.busy))
            }
        }
    }

    /// Promise-based alternative to `load(_:completion:)`, added by vow-migrate.
    func load(_ name: String) -> Promise<Account> {
        Promise { seal in
            load(name) { result in
                seal.resolve(result)
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

    func size(completion: @escaping @Sendable (Int, Int) -> Void) {
        _ = Plan.next()
        Plan.answer { completion(3, 2) }
    }

    /// Promise-based alternative to `size(completion:)`, added by vow-migrate.
    func size() -> Guarantee<(int: Int, int2: Int)> {
        Guarantee { resolve in
            size { int, int2 in
                resolve((int: int, int2: int2))
            }
        }
    }
}

/// A screen whose callbacks hop to the main queue and give meaning to every answer: each path
/// ends in one `show`.
final class AccountScreen: @unchecked Sendable {
    let service = AccountService()
    let shown: @Sendable (String) -> Void

    init(shown: @escaping @Sendable (String) -> Void) {
        self.shown = shown
    }

    func log(_ line: String) { print("log: \(line)") }
    func show(_ line: String) { shown(line) }

    /// The error check, then the branch for "nobody", each in a hop of its own; then a flag.
    func lookUp(_ name: String) {
        enum LookUpFailure: Error { case find(any Error), approve(any Error, Account) }
        firstly {
            service.find(name).recover(on: nil, policy: .allErrors) { error -> Promise<Account> in throw LookUpFailure.find(error) }
        }.then(on: nil) { account in
            self.log("found \(account.name)")
            return self.service.approve(account).recover(on: nil, policy: .allErrors) { error -> Promise<Void> in throw LookUpFailure.approve(error, account) }.map(on: nil) { (account, $0) }
        }.done(on: nil) { account, _ in
            self.show("approved \(account.name)")
        }.catch(on: nil, policy: .allErrors) { error in
            switch error {
            case LookUpFailure.find(PMKError.invalidCallingConvention):
                DispatchQueue.main.async { [weak self] in self?.show("nobody called \(name)") }
            case LookUpFailure.find(let error):
                DispatchQueue.main.async { [weak self] in self?.show("lookup failed: \(error)") }
            case LookUpFailure.approve(PMKError.invalidCallingConvention, let account):
                self.show("\(account.name) declined")
            case LookUpFailure.approve(let error, _):
                self.show("approval failed: \(error)")
            default:
                break
            }
        }
    }

    /// The whole callback is a hop to the main queue, which takes `[weak self]` itself.
    func open(_ name: String) {
        service.load(name).done(on: nil) { account in
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                self.log("loaded")
                self.show("opened \(account.name)")
            }
        }.catch(on: nil, policy: .allErrors) { error in
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                self.log("loaded")
                self.show("could not open: \(error)")
            }
        }
    }

    /// The whole callback is a hop to the main queue; the error check is a `guard`.
    func refresh() {
        service.ping().done(on: .mainActor) { _ in
            self.show("online")
        }.catch(on: .mainActor, policy: .allErrors) { error in
            self.show("offline: \(error)")
        }
    }

    /// The value first, then the error, then neither.
    func check(_ name: String) {
        service.find(name).done(on: nil) { account in
            self.show("found \(account.name)")
        }.catch(on: nil, policy: .allErrors) { error in
            switch error {
            case PMKError.invalidCallingConvention:
                self.show("nobody called \(name)")
            default:
                self.show("check failed: \(error)")
            }
        }
    }

    /// The value first; the other branch reads the error as optional.
    func greet(_ name: String) {
        service.find(name).done(on: nil) { account in
            self.show("hello \(account.name)")
        }.catch(on: nil, policy: .allErrors) { error in
            let error: (any Error)? = if case PMKError.invalidCallingConvention = error { nil } else { error }
            self.show(error.map { "greeting failed: \($0)" } ?? "hello, stranger")
        }
    }

    /// One `guard` for the flag and the error.
    func enroll(_ account: Account) {
        service.approve(account).done(on: nil) { _ in
            self.show("enrolled \(account.name)")
        }.catch(on: nil, policy: .allErrors) { error in
            let error: (any Error)? = if case PMKError.invalidCallingConvention = error { nil } else { error }
            self.show(error == nil ? "not enrolled" : "enrolment failed: \(error!)")
        }
    }

    /// Several values and no error.
    func measure() {
        service.size().done(on: .mainActor) { width, height in
            self.show("\(width) x \(height)")
        }
    }

    /// `guard let self` first, the answer handed to the main queue on each branch.
    func watch(_ name: String) {
        service.load(name).done(on: nil) { [weak self] account in
            guard let self else { return }
            DispatchQueue.main.async { self.show("watching \(account.name)") }
        }.catch(on: nil, policy: .allErrors) { [weak self] error in
            guard let self else { return }
            DispatchQueue.main.async { self.show("could not watch: \(error)") }
        }
    }

    /// Code between the error check and the test for a missing account runs for both.
    func invite(_ name: String) {
        service.find(name).done(on: nil) { account in
            self.log("answered")
            self.show("invited \(account.name)")
        }.catch(on: nil, policy: .allErrors) { error in
            switch error {
            case PMKError.invalidCallingConvention:
                self.log("answered")
                self.show("nobody to invite")
            default:
                self.show("invitation failed: \(error)")
            }
        }
    }

    /// The error handled aside; the rest runs whatever the answer.
    func sync() {
        service.ping().done(on: nil) { _ in
            self.show("synced")
        }.catch(on: nil, policy: .allErrors) { error in
            // Offline, the changes wait in the queue.
            self.log("queued after \(error)")
            self.show("synced")
        }
    }

    /// `$0` as the `switch` subject.
    func preview(_ name: String) {
        service.load(name).done(on: nil) { account in
            self.show("preview of \(account.name)")
        }.catch(on: nil, policy: .allErrors) { _ in
            self.show("no preview")
        }
    }

    /// The value tested against `nil`, not bound.
    func touch(_ name: String) {
        service.find(name).done(on: nil) { account in
            self.show("touched")
        }.catch(on: nil, policy: .allErrors) { error in
            let error: (any Error)? = if case PMKError.invalidCallingConvention = error { nil } else { error }
            self.show("untouched: \(error.map { "\($0)" } ?? "nobody")")
        }
    }

    /// An error of a named kind first, then any other.
    func reload(_ name: String) {
        service.load(name).done(on: nil) { account in
            self.show("reloaded \(account.name)")
        }.catch(on: nil, policy: .allErrors) { error in
            switch error {
            case ServiceError.down:
                self.show("the service is down")
            default:
                self.show("reload failed: \(error)")
            }
        }
    }

    /// The value tested in the `.success` cases first.
    func rank(_ name: String) {
        service.load(name).done(on: nil) { account in
            if account.name.count > 3 {
                self.show("long name \(account.name)")
            } else {
                self.show("short name \(account.name)")
            }
        }.catch(on: nil, policy: .allErrors) { _ in
            self.show("no rank")
        }
    }

    /// An inner callback of a shape the chain does not take (it reads the value as optional)
    /// stays as it was, in the last handler.
    func tour(_ name: String) {
        service.find(name).done(on: nil) { account in
            self.log("touring with \(account.name)")
            self.service.find(account.name + "'s guide") { guide, _ in
                self.show("guided by \(guide?.name ?? "nobody")")
            }
        }.catch(on: nil, policy: .allErrors) { error in
            self.show("tour failed: \(error)")
        }
    }

    /// `if case .success` with another condition: the other branch for any error too.
    func pick(_ name: String) {
        service.load(name).done(on: nil) { account in
            if account.name.count > 3 {
                self.show("picked \(account.name)")
            } else {
                self.show("nothing picked")
            }
        }.catch(on: nil, policy: .allErrors) { _ in
            self.show("nothing picked")
        }
    }

    /// `guard let self, let account` first in a hop with its own `[weak self]`: nothing runs
    /// without the value.
    func peek(_ name: String) {
        service.find(name).done(on: nil) { account in
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                self.show("peeked at \(account.name)")
            }
        }.catch(on: nil, policy: .allErrors) { _ in
        }
    }

    /// One `guard` for the error and the value, then a `switch`.
    func follow(_ name: String) {
        enum FollowFailure: Error { case find(any Error), load(any Error) }
        firstly {
            service.find(name).recover(on: nil, policy: .allErrors) { error -> Promise<Account> in throw FollowFailure.find(error) }
        }.then(on: nil) { account in
            return self.service.load(account.name).recover(on: nil, policy: .allErrors) { error -> Promise<Account> in throw FollowFailure.load(error) }
        }.done(on: nil) { followed in
            self.show("following \(followed.name)")
        }.catch(on: nil, policy: .allErrors) { error in
            switch error {
            case FollowFailure.find(_):
                self.show("cannot follow \(name)")
            case FollowFailure.load(let error):
                self.show("follow failed: \(error)")
            default:
                break
            }
        }
    }
}
