import Dispatch
import Vow

/// How the next call of a fake service answers: with its value, with an error, or with neither
/// (`(nil, nil)`, `(false, nil)`), on a queue of its own or before it returns.
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

    func load(_ name: String, completion: @escaping @Sendable (Swift.Result<Account, Error>) -> Void) {
        let answer = Plan.next()
        Plan.answer { completion(answer == .failure ? .failure(ServiceError.down) : .success(Account(name: name))) }
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

    func count(completion: @escaping @Sendable (Int) -> Void) {
        _ = Plan.next()
        Plan.answer { completion(3) }
    }

    /// Promise-based alternative to `count(completion:)`, added by vow-migrate.
    func count() -> Guarantee<Int> {
        Guarantee { resolve in
            count { value in
                resolve(value)
            }
        }
    }

    /// A missing size means "no avatar yet".
    func avatar(for account: Account, completion: @escaping @Sendable ([UInt8]?, Int?, Error?) -> Void) {
        let answer = Plan.next()
        Plan.answer {
            switch answer {
            case .value: completion([1, 2], 2, nil)
            case .failure: completion(nil, nil, ServiceError.down)
            case .neither: completion(nil, nil, nil)
            }
        }
    }

    /// Promise-based alternative to `avatar(for:completion:)`, added by vow-migrate.
    func avatar(for account: Account) -> Promise<(value: [UInt8], int: Int)> {
        Promise { seal in
            avatar(for: account) { value, int, error in
                if let error {
                    seal.reject(error)
                } else if let value, let int {
                    seal.fulfill((value: value, int: int))
                } else {
                    seal.reject(PMKError.invalidCallingConvention)
                }
            }
        }
    }
}

/// A screen whose callbacks give meaning to every answer: each path ends in one `show`.
final class AccountScreen: @unchecked Sendable {
    let service = AccountService()
    let shown: @Sendable (String) -> Void

    init(shown: @escaping @Sendable (String) -> Void) {
        self.shown = shown
    }

    func log(_ line: String) { print("log: \(line)") }
    func show(_ line: String) { shown(line) }

    func lookUp(_ name: String) {
        service.find(name) { account, error in
            guard let account else {
                self.show(error == nil ? "nobody called \(name)" : "lookup failed")
                return
            }
            self.log("found \(account.name)")
            self.service.approve(account) { approved, error in
                if let error { self.show("approval failed: \(error)"); return }
                self.show(approved ? "approved" : "declined")
            }
        }
    }

    func open(_ name: String) {
        service.load(name).done(on: nil) { [weak self] account in
            guard let self else { return }
            self.log("loaded")
            self.show("opened \(account.name)")
        }.catch(on: nil, policy: .allErrors) { [weak self] _ in
            guard let self else { return }
            self.log("loaded")
            self.show("could not open")
        }
    }

    func pingThenCount() {
        service.ping { error in
            if error != nil {
                self.show("offline")
                return
            }
            self.service.count { self.show("count \($0)") }
        }
    }

    func showAvatar(of account: Account) {
        service.avatar(for: account) { bytes, size, error in
            if let error { self.show("no avatar: \(error)"); return }
            guard let size else { self.show("avatar pending"); return }
            self.show("avatar of \(size) bytes: \(bytes ?? [])")
        }
    }

    func greet(_ name: String) {
        service.load(name) { result in
            switch result {
            case .success(let account):
                if account.name.hasPrefix("a") {
                    self.log("pinging for \(account.name)")
                    self.service.ping { error in
                        self.show(error == nil ? "hello \(account.name)" : "hello, offline \(account.name)")
                    }
                } else {
                    self.show("hi \(account.name)")
                }
            case .failure(let error):
                self.show("greeting failed: \(error)")
            }
        }
    }
}
