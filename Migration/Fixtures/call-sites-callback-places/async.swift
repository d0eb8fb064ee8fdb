import Dispatch

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

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

    /// Separate success and failure handlers.
    @available(*, renamed: "followers(of:)")
    func followers(of account: Account, success: @escaping @Sendable ([String]) -> Void, failure: @escaping @Sendable (Error) -> Void) {
        let answer = Plan.next()
        Plan.answer {
            if answer == .failure { failure(ServiceError.down) } else { success(["bob", "cy"]) }
        }
    }

    /// Async alternative to `followers(of:success:failure:)`, added by vow-migrate.
    nonisolated(nonsending) func followers(of account: Account) async throws -> [String] {
        try await withCheckedThrowingContinuation { continuation in
            followers(of: account, success: { value in
                continuation.resume(returning: value)
            }, failure: { error in
                continuation.resume(throwing: error)
            })
        }
    }

    /// Climb and descent; with an error it still passes what it measured (`(0, -1, error)`).
    @available(*, renamed: "elevation(of:)")
    func elevation(of name: String, completion: @escaping @Sendable (Int, Int, Error?) -> Void) {
        let answer = Plan.next()
        Plan.answer {
            if answer == .failure { completion(0, -1, ServiceError.down) } else { completion(420, 380, nil) }
        }
    }

    /// Async alternative to `elevation(of:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func elevation(of name: String) async throws -> (int: Int, int2: Int) {
        try await withCheckedThrowingContinuation { continuation in
            elevation(of: name) { int, int2, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: (int: int, int2: int2))
                }
            }
        }
    }

    /// How many changes went out; with an error, how many went before it.
    @available(*, renamed: "replay()")
    func replay(completion: @escaping @Sendable (Int, Error?) -> Void) {
        let answer = Plan.next()
        Plan.answer {
            if answer == .failure { completion(2, ServiceError.down) } else { completion(5, nil) }
        }
    }

    /// Async alternative to `replay(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func replay() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            replay { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: value)
                }
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

    @available(*, renamed: "friends(of:)")
    func friends(of name: String, completion: @escaping @Sendable (Result<[String], Error>) -> Void) {
        let answer = Plan.next()
        Plan.answer { completion(answer == .failure ? .failure(ServiceError.down) : .success(["bob", "cy"])) }
    }

    /// Async alternative to `friends(of:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func friends(of name: String) async throws -> [String] {
        try await withCheckedThrowingContinuation { continuation in
            friends(of: name) { result in
                continuation.resume(with: result)
            }
        }
    }

    @available(*, renamed: "score(of:)")
    func score(of name: String, completion: @escaping @Sendable (Int) -> Void) {
        _ = Plan.next()
        Plan.answer { completion(name.count * 10) }
    }

    /// Async alternative to `score(of:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func score(of name: String) async -> Int {
        await withCheckedContinuation { continuation in
            score(of: name) { value in
                continuation.resume(returning: value)
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
            let names: [String]
            do {
                names = try await self.service.followers(of: account)
            } catch let error {
                self.show("followers of \(account.name) failed: \(error)")
                return
            }
            self.show("\(account.name) has \(names.count) followers")
        }
    }

    func climb(_ name: String) {
        let service = self.service
        Task {
            let (up, down, error): (Int, Int, Error?) = await withCheckedContinuation { continuation in
                service.elevation(of: name) { continuation.resume(returning: ($0, $1, $2)) }
            }
            if let error {
                self.show("climb unknown (\(up), \(down)): \(error)")
                return
            }
            self.show("up \(up) m, down \(down) m")
        }
    }

    func replay() {
        let service = self.service
        Task {
            let (sent, error): (Int, Error?) = await withCheckedContinuation { continuation in
                service.replay { continuation.resume(returning: ($0, $1)) }
            }
            self.show(error == nil ? "sent \(sent)" : "sent \(sent), then \(error!)")
        }
    }

    func recount() {
        let service = self.service
        Task {
            let (sent, error): (Int, Error?) = await withCheckedContinuation { continuation in
                service.replay { continuation.resume(returning: ($0, $1)) }
            }
            defer { self.show("recount over") }
            if let error {
                self.log("recount failed after \(sent): \(error)")
                return
            }
            self.log("recounted \(sent)")
        }
    }

    func listFriends(of name: String) {
        let service = self.service
        Task {
            let result: Result<[String], Error>
            do {
                result = .success(try await service.friends(of: name))
            } catch {
                result = .failure(error)
            }
            switch result {
            case .success(let names): self.show(names.map { $0.uppercased() }.joined(separator: ", "))
            case .failure(let error): self.show("no friends: \(error)")
            }
        }
    }

    func suggest(_ name: String) {
        let service2 = self.service
        Task {
            let account: Account?
            do {
                account = try await service2.find(name)
            } catch {
                account = nil
            }
            guard let account else {
                self.show("no suggestion")
                return
            }
            self.log("suggesting \(account.name)")
            Prompt.ask("follow \(account.name)?") {
                let service = self.service
                Task {
                    let error: Error?
                    do {
                        try await service.ping()
                        error = nil
                    } catch let caught {
                        error = caught
                    }
                    self.show(error == nil ? "following \(account.name)" : "could not follow \(account.name)")
                }
            }
        }
    }

    func rank(_ name: String) {
        let service2 = self.service
        Task {
            let account: Account?
            do {
                account = try await service2.find(name)
            } catch {
                account = nil
            }
            guard let account else {
                self.show("nobody to rank")
                return
            }
            let scores = Scores()
            let executor = FanOutExecutor()
            await withTaskExecutorPreference(executor) {
                await withTaskGroup { group in
                    for friend in ["bob", "cy", account.name] {
                        group.addTask {
                            await executor.answer {
                                return (friend, await self.service.score(of: friend))
                            }
                        }
                    }
                    for await (friend, score) in group {
                        scores.set(friend, score)
                    }
                }
            }
            self.show("scores: \(scores.summary)")
        }
    }
}

/// Runs the jobs of the tasks that prefer it one at a time, in the order they arrive, added by
/// vow-migrate: the children of a fan-out's task group make their calls in loop order, and
/// finish in the order the calls answered, as the callbacks they replace ran.
fileprivate final class FanOutExecutor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "FanOutExecutor")
    // Both are read and written on `queue` only.
    private var jobsRun = 0
    private var movedBack: UnsafeContinuation<Void, Never>?

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async {
            self.jobsRun += 1
            job.runSynchronously(on: self.asUnownedTaskExecutor())
            if let movedBack = self.movedBack {
                self.movedBack = nil
                movedBack.resume()
            }
        }
    }

    /// Makes a child's call. A call answered before the child suspended returns in the job
    /// that made it, ahead of children answered earlier whose jobs wait in the queue: that
    /// child goes to the back of the queue first.
    func answer<T>(_ call: () async -> T) async -> T {
        let job = jobsRun
        let value = await call()
        if jobsRun == job {
            await withUnsafeContinuation { movedBack = $0 }
        }
        return value
    }
}
