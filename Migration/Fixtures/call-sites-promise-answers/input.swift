import Dispatch

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

    /// `.neither` here is the other failure: `busy`.
    func load(_ name: String, completion: @escaping @Sendable (Result<Account, Error>) -> Void) {
        let answer = Plan.next()
        Plan.answer {
            switch answer {
            case .value: completion(.success(Account(name: name)))
            case .failure: completion(.failure(ServiceError.down))
            case .neither: completion(.failure(ServiceError.busy))
            }
        }
    }

    func ping(completion: @escaping @Sendable (Error?) -> Void) {
        let answer = Plan.next()
        Plan.answer { completion(answer == .failure ? ServiceError.down : nil) }
    }

    func size(completion: @escaping @Sendable (Int, Int) -> Void) {
        _ = Plan.next()
        Plan.answer { completion(3, 2) }
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
        service.find(name) { account, error in
            if let error {
                DispatchQueue.main.async { [weak self] in self?.show("lookup failed: \(error)") }
                return
            }
            guard let account else {
                DispatchQueue.main.async { [weak self] in self?.show("nobody called \(name)") }
                return
            }
            self.log("found \(account.name)")
            self.service.approve(account) { approved, error in
                if let error {
                    self.show("approval failed: \(error)")
                    return
                }
                guard approved else {
                    self.show("\(account.name) declined")
                    return
                }
                self.show("approved \(account.name)")
            }
        }
    }

    /// The whole callback is a hop to the main queue, which takes `[weak self]` itself.
    func open(_ name: String) {
        service.load(name) { result in
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                self.log("loaded")
                switch result {
                case .success(let account): self.show("opened \(account.name)")
                case .failure(let error): self.show("could not open: \(error)")
                }
            }
        }
    }

    /// The whole callback is a hop to the main queue; the error check is a `guard`.
    func refresh() {
        service.ping { error in
            DispatchQueue.main.async {
                guard error == nil else {
                    self.show("offline: \(error!)")
                    return
                }
                self.show("online")
            }
        }
    }

    /// The value first, then the error, then neither.
    func check(_ name: String) {
        service.find(name) { account, error in
            if let account {
                self.show("found \(account.name)")
            } else if let error {
                self.show("check failed: \(error)")
            } else {
                self.show("nobody called \(name)")
            }
        }
    }

    /// The value first; the other branch reads the error as optional.
    func greet(_ name: String) {
        service.find(name) { account, error in
            if let account {
                self.show("hello \(account.name)")
            } else {
                self.show(error.map { "greeting failed: \($0)" } ?? "hello, stranger")
            }
        }
    }

    /// One `guard` for the flag and the error.
    func enroll(_ account: Account) {
        service.approve(account) { approved, error in
            guard approved, error == nil else {
                self.show(error == nil ? "not enrolled" : "enrolment failed: \(error!)")
                return
            }
            self.show("enrolled \(account.name)")
        }
    }

    /// Several values and no error.
    func measure() {
        service.size { width, height in
            DispatchQueue.main.async {
                self.show("\(width) x \(height)")
            }
        }
    }

    /// `guard let self` first, the answer handed to the main queue on each branch.
    func watch(_ name: String) {
        service.load(name) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let account):
                DispatchQueue.main.async { self.show("watching \(account.name)") }
            case .failure(let error):
                DispatchQueue.main.async { self.show("could not watch: \(error)") }
            }
        }
    }

    /// Code between the error check and the test for a missing account runs for both.
    func invite(_ name: String) {
        service.find(name) { account, error in
            if let error {
                self.show("invitation failed: \(error)")
                return
            }
            self.log("answered")
            guard let account else {
                self.show("nobody to invite")
                return
            }
            self.show("invited \(account.name)")
        }
    }

    /// The error handled aside; the rest runs whatever the answer.
    func sync() {
        service.ping { error in
            // Offline, the changes wait in the queue.
            if let error {
                self.log("queued after \(error)")
            }
            self.show("synced")
        }
    }

    /// `$0` as the `switch` subject.
    func preview(_ name: String) {
        service.load(name) {
            switch $0 {
            case .success(let account): self.show("preview of \(account.name)")
            case .failure: self.show("no preview")
            }
        }
    }

    /// The value tested against `nil`, not bound.
    func touch(_ name: String) {
        service.find(name) { account, error in
            if account == nil {
                self.show("untouched: \(error.map { "\($0)" } ?? "nobody")")
            } else {
                self.show("touched")
            }
        }
    }

    /// An error of a named kind first, then any other.
    func reload(_ name: String) {
        service.load(name) { result in
            switch result {
            case .success(let account): self.show("reloaded \(account.name)")
            case .failure(ServiceError.down): self.show("the service is down")
            case .failure(let error): self.show("reload failed: \(error)")
            }
        }
    }

    /// The value tested in the `.success` cases first.
    func rank(_ name: String) {
        service.load(name) { result in
            switch result {
            case .success(let account) where account.name.count > 3: self.show("long name \(account.name)")
            case .success(let account): self.show("short name \(account.name)")
            case .failure: self.show("no rank")
            }
        }
    }

    /// An inner callback of a shape the chain does not take (it reads the value as optional)
    /// stays as it was, in the last handler.
    func tour(_ name: String) {
        service.find(name) { account, error in
            if let error {
                self.show("tour failed: \(error)")
                return
            }
            self.log("touring with \(account!.name)")
            self.service.find(account!.name + "'s guide") { guide, _ in
                self.show("guided by \(guide?.name ?? "nobody")")
            }
        }
    }

    /// `if case .success` with another condition: the other branch for any error too.
    func pick(_ name: String) {
        service.load(name) { result in
            if case .success(let account) = result, account.name.count > 3 {
                self.show("picked \(account.name)")
            } else {
                self.show("nothing picked")
            }
        }
    }

    /// `guard let self, let account` first in a hop with its own `[weak self]`: nothing runs
    /// without the value.
    func peek(_ name: String) {
        service.find(name) { account, error in
            DispatchQueue.main.async { [weak self] in
                guard let self, let account else { return }
                self.show("peeked at \(account.name)")
            }
        }
    }

    /// One `guard` for the error and the value, then a `switch`.
    func follow(_ name: String) {
        service.find(name) { account, error in
            guard error == nil, let account else {
                self.show("cannot follow \(name)")
                return
            }
            self.service.load(account.name) { result in
                switch result {
                case .success(let followed): self.show("following \(followed.name)")
                case .failure(let error): self.show("follow failed: \(error)")
                }
            }
        }
    }
}
