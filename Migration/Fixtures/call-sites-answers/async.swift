import Dispatch

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

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
    @available(*, renamed: "find(_:)")
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

    /// Async alternative to `find(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func find(_ name: String) async throws -> Account {
        try await withCheckedThrowingContinuation { continuation in
            find(name) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "find(_:completion:)"))
                }
            }
        }
    }

    /// `(false, nil)` means "declined".
    @available(*, renamed: "approve(_:)")
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

    /// Async alternative to `approve(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func approve(_ account: Account) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            approve(account) { success, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if success {
                    continuation.resume()
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "approve(_:completion:)"))
                }
            }
        }
    }

    @available(*, renamed: "load(_:)")
    func load(_ name: String, completion: @escaping @Sendable (Result<Account, Error>) -> Void) {
        let answer = Plan.next()
        Plan.answer { completion(answer == .failure ? .failure(ServiceError.down) : .success(Account(name: name))) }
    }

    /// Async alternative to `load(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func load(_ name: String) async throws -> Account {
        try await withCheckedThrowingContinuation { continuation in
            load(name) { result in
                continuation.resume(with: result)
            }
        }
    }

    @available(*, renamed: "ping()")
    func ping(completion: @escaping @Sendable (Error?) -> Void) {
        let answer = Plan.next()
        Plan.answer { completion(answer == .failure ? ServiceError.down : nil) }
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

    @available(*, renamed: "count()")
    func count(completion: @escaping @Sendable (Int) -> Void) {
        _ = Plan.next()
        Plan.answer { completion(3) }
    }

    /// Async alternative to `count(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func count() async -> Int {
        await withCheckedContinuation { continuation in
            count { value in
                continuation.resume(returning: value)
            }
        }
    }

    /// A missing size means "no avatar yet".
    @available(*, renamed: "avatar(for:)")
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

    /// Async alternative to `avatar(for:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func avatar(for account: Account) async throws -> (value: [UInt8], int: Int) {
        try await withCheckedThrowingContinuation { continuation in
            avatar(for: account) { value, int, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value, let int {
                    continuation.resume(returning: (value: value, int: int))
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "avatar(for:completion:)"))
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
        let service2 = self.service
        Task {
            let account: Account?
            let error: Error?
            do {
                account = try await service2.find(name)
                error = nil
            } catch let caught {
                account = nil
                error = String(describing: type(of: caught)) == "NeitherValueNorError" ? nil : caught
            }
            guard let account else {
                self.show(error == nil ? "nobody called \(name)" : "lookup failed")
                return
            }
            self.log("found \(account.name)")
            let approved: Bool
            let error2: Error?
            do {
                try await self.service.approve(account)
                approved = true
                error2 = nil
            } catch let caught2 {
                approved = false
                error2 = String(describing: type(of: caught2)) == "NeitherValueNorError" ? nil : caught2
            }
            if let error2 { self.show("approval failed: \(error2)"); return }
            self.show(approved ? "approved" : "declined")
        }
    }

    func open(_ name: String) {
        let service = self.service
        Task { [weak self] in
            let result: Result<Account, Error>
            do {
                result = .success(try await service.load(name))
            } catch {
                result = .failure(error)
            }
            guard let self else { return }
            self.log("loaded")
            switch result {
            case .success(let account): self.show("opened \(account.name)")
            case .failure: self.show("could not open")
            }
        }
    }

    func pingThenCount() {
        let service2 = self.service
        Task {
            let error: Error?
            do {
                try await service2.ping()
                error = nil
            } catch let caught {
                error = caught
            }
            if error != nil {
                self.show("offline")
                return
            }
            let value: Int = await self.service.count()
            self.show("count \(value)")
        }
    }

    func showAvatar(of account: Account) {
        let service = self.service
        Task {
            let bytes: [UInt8]?
            let size: Int?
            let error: Error?
            do {
                let answer = try await service.avatar(for: account)
                bytes = answer.value
                size = answer.int
                error = nil
            } catch let caught {
                bytes = nil
                size = nil
                error = String(describing: type(of: caught)) == "NeitherValueNorError" ? nil : caught
            }
            if let error { self.show("no avatar: \(error)"); return }
            guard let size else { self.show("avatar pending"); return }
            self.show("avatar of \(size) bytes: \(bytes ?? [])")
        }
    }

    func greet(_ name: String) {
        let service2 = self.service
        Task {
            let result: Result<Account, Error>
            do {
                result = .success(try await service2.load(name))
            } catch {
                result = .failure(error)
            }
            switch result {
            case .success(let account):
                if account.name.hasPrefix("a") {
                    self.log("pinging for \(account.name)")
                    let error: Error?
                    do {
                        try await self.service.ping()
                        error = nil
                    } catch let caught {
                        error = caught
                    }
                    self.show(error == nil ? "hello \(account.name)" : "hello, offline \(account.name)")
                } else {
                    self.show("hi \(account.name)")
                }
            case .failure(let error):
                self.show("greeting failed: \(error)")
            }
        }
    }
}
