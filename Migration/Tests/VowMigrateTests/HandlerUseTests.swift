import VowMigrate
import XCTest

/// How often a body calls its handler: `#if` clauses, ternaries, `switch` cases, `if` arms and
/// `do`/`catch` are alternatives, not a sequence; a stored handler is followed to its property's
/// calls or refused with its own reason.
final class HandlerUseTests: XCTestCase {
    private func index(_ source: String) -> MigrationIndex {
        MigrationIndex(summaries: [MigrationIndex.summarize(source: source, fileName: "S.swift")])
    }

    private func calls(_ name: String, in source: String) -> MigrationIndex.HandlerCalls? {
        index(source).completionFunctions(baseName: name).first?.handlerCalls
    }

    /// The finding a run gives the function, and whether it got an alternative.
    private func finding(_ name: String, in source: String, _ target: MigrationTarget = .promise,
                         trust: Bool = false) -> (added: Bool, message: String) {
        let options = MigrationOptions(target: target, trustStoredHandlers: trust)
        let result = SourceMigrator.migrate(source: source, fileName: "S.swift", options: options)
        guard let finding = result.findings.first(where: { $0.function.hasPrefix(name + "(") }) else { return (false, "no finding") }
        return (finding.kind == .added, finding.message)
    }

    // MARK: - Alert actions

    /// nextcloud's permission prompt: "Open Settings" and "Cancel" both answer `false`, but the
    /// user taps one action of the alert. Two alerts, or an action and a call after it, still count twice.
    func testActionsOfOneAlertAreAlternatives() {
        let source = """
        import UIKit
        final class S {
            func ask(_ viewController: UIViewController?, completion: @escaping (Bool) -> Void) {
                let alert = UIAlertController(title: "Microphone", message: nil, preferredStyle: .alert)
                alert.addAction(UIAlertAction(title: "Open Settings", style: .default, handler: { _ in
                    completion(false)
                }))
                alert.addAction(UIAlertAction(title: "Cancel", style: .cancel, handler: { _ in
                    completion(false)
                }))
                DispatchQueue.main.async { viewController?.present(alert, animated: true, completion: nil) }
            }
            func twice(_ viewController: UIViewController?, completion: @escaping (Bool) -> Void) {
                let alert = UIAlertController(title: "Microphone", message: nil, preferredStyle: .alert)
                alert.addAction(UIAlertAction(title: "OK", style: .default, handler: { _ in completion(true) }))
                let other = UIAlertController(title: "Again", message: nil, preferredStyle: .alert)
                other.addAction(UIAlertAction(title: "OK", style: .default, handler: { _ in completion(true) }))
            }
        }
        """
        XCTAssertEqual(finding("ask", in: source, .async).added, true, finding("ask", in: source, .async).message)
        XCTAssertTrue(finding("twice", in: source, .async).message.contains("more than once"), finding("twice", in: source, .async).message)
    }

    // MARK: - Local functions

    func testALocalFunctionThatCallsTheHandlerOrItselfOnEveryPathCallsItOnce() {
        // Paging: each run answers once or asks for the next page, which answers once.
        let source = """
        final class S {
            func page(after cursor: String?, completion: @escaping (Result<(items: [Int], next: String?), Error>) -> Void) {
                completion(.success((items: [1], next: nil)))
            }
            func all(completion: @escaping (Result<[Int], Error>) -> Void) {
                var collected: [Int] = []
                func next(_ cursor: String?) {
                    page(after: cursor) { result in
                        switch result {
                        case .failure(let error):
                            completion(.failure(error))
                        case .success(let page):
                            collected += page.items
                            if let following = page.next { next(following) } else { completion(.success(collected)) }
                        }
                    }
                }
                next(nil)
            }
        }
        """
        XCTAssertTrue(finding("all", in: source).added, finding("all", in: source).message)
    }

    func testALocalFunctionCalledTwiceOrWithAPathWithoutACallIsSeen() {
        let twice = """
        final class S {
            func run(completion: @escaping (Error?) -> Void) {
                func finish() { completion(nil) }
                finish()
                finish()
            }
        }
        """
        XCTAssertTrue(finding("run", in: twice).message.contains("more than once"), finding("run", in: twice).message)
        let missing = """
        final class S {
            func run(_ flag: Bool, completion: @escaping (Error?) -> Void) {
                func finish() { if flag { completion(nil) } }
                finish()
            }
        }
        """
        XCTAssertTrue(finding("run", in: missing).message.contains("ends without calling"), finding("run", in: missing).message)
    }

    // MARK: - Local closures

    func testALocalClosureCountsWhereItIsCalledNotWhereItIsDeclared() {
        // wikipedia-ios's retrying download: a `failureBlock` built once, called on each failing
        // path (each ends with `return`), the handler called directly on the path that succeeds.
        let retrying = """
        import Foundation
        final class S {
            func download(attempt: Int, completion: @escaping (Data?) -> Void) {
                guard attempt < 5 else {
                    completion(nil)
                    return
                }
                URLSession.shared.dataTask(with: URL(string: "https://example.com")!) { data, response, error in
                    let failureBlock = {
                        DispatchQueue.main.async {
                            self.download(attempt: attempt + 1, completion: completion)
                        }
                    }
                    guard let data = data else {
                        failureBlock()
                        return
                    }
                    guard error == nil else {
                        failureBlock()
                        return
                    }
                    completion(data)
                }.resume()
            }
        }
        """
        XCTAssertEqual(calls("download", in: retrying), .once)
        // Called twice, or on one path only: seen where it is called.
        let twice = """
        final class S {
            func run(completion: @escaping (Error?) -> Void) {
                let finish = { (error: Error?) in completion(error) }
                finish(nil)
                finish(nil)
            }
        }
        """
        guard case .mayRepeat(let again) = calls("run", in: twice) else { return XCTFail("\(String(describing: calls("run", in: twice)))") }
        XCTAssertEqual(again.line, 5)
        let onePath = """
        final class S {
            func run(_ flag: Bool, completion: @escaping (Error?) -> Void) {
                let finish = { completion(nil) }
                if flag { finish() }
            }
        }
        """
        guard case .mayNotCall = calls("run", in: onePath) else { return XCTFail("\(String(describing: calls("run", in: onePath)))") }
        // Declared and never called: the handler is never answered.
        let unused = """
        final class S {
            func run(completion: @escaping (Error?) -> Void) {
                let finish = { completion(nil) }
                print(1)
            }
        }
        """
        XCTAssertNotEqual(calls("run", in: unused), .once)
    }

    func testALocalClosureNamedLikeTheHandlerShadowsItAfterItsDeclaration() {
        // `let completion: LoginResultHandler = { result in completion() }`: inside the closure,
        // `completion` is still the parameter; after it, the closure.
        let source = """
        final class S {
            typealias LoginResultHandler = (Result<String, Error>) -> Void
            func attemptLogin(_ site: String, completion: @escaping LoginResultHandler) {
                completion(.success(site))
            }
            func attemptLogin(completion: @escaping () -> Void) {
                let completion: LoginResultHandler = { result in
                    completion()
                }
                attemptLogin("wikipedia", completion: completion)
            }
        }
        """
        let functions = index(source).completionFunctions(baseName: "attemptLogin")
        XCTAssertEqual(functions.count, 2)
        XCTAssertEqual(functions.first { $0.argumentLabels == ["completion"] }?.handlerCalls, .once)
        // Out of the block declaring it, the name is the handler again.
        let scoped = """
        final class S {
            func run(_ flag: Bool, completion: @escaping () -> Void) {
                if flag {
                    let completion = { print("shadow") }
                    completion()
                }
                completion()
            }
        }
        """
        XCTAssertEqual(calls("run", in: scoped), .once)
    }

    // MARK: - Split pairs handed on

    func testBothHalvesOfAPairHandedToOneCallAreOneAnswer() {
        // wikipedia-ios's ImageCacheController: the short form hands both halves to the long one,
        // or one half beside a closure calling the other.
        let source = """
        final class S {
            func fetch(url: String, priority: Float, failure: @escaping (Error) -> Void, success: @escaping (Int) -> Void) {
                if url.isEmpty { failure(URLError(.badURL)) } else { success(1) }
            }
            func fetch(url: String, failure: @escaping (Error) -> Void, success: @escaping (Int) -> Void) {
                fetch(url: url, priority: 0.5, failure: failure, success: success)
            }
            func fetchTwice(url: String, failure: @escaping (Error) -> Void, success: @escaping (Int) -> Void) {
                fetch(url: url, priority: 0.5, failure: failure) { value in
                    success(value * 2)
                }
            }
        }
        """
        let result = SourceMigrator.migrate(source: source, fileName: "S.swift", options: MigrationOptions(target: .async))
        XCTAssertEqual(result.findings.map(\.function).sorted(), ["fetch(url:failure:success:)", "fetch(url:priority:failure:success:)",
                                                                "fetchTwice(url:failure:success:)"])
        for finding in result.findings {
            XCTAssertEqual(finding.kind, .added, finding.message)
        }
        // The same half handed twice is two answers.
        let twice = """
        final class S {
            func both(_ a: @escaping () -> Void, _ b: @escaping () -> Void) { a(); b() }
            func run(completion: @escaping () -> Void) {
                both(completion, completion)
            }
        }
        """
        XCTAssertTrue(finding("run", in: twice).message.contains("more than once"), finding("run", in: twice).message)
    }

    // MARK: - #if

    func testIfClausesAreAlternativesNotASequence() {
        let source = """
        final class S {
            func load(completion: @escaping (Result<Int, Error>) -> Void) {
                #if compiler(>=5.5.2)
                completion(.success(1))
                #elseif DEBUG
                other(completion: completion)
                #else
                completion(.success(2))
                #endif
            }
            func other(completion: @escaping (Result<Int, Error>) -> Void) {}
        }
        """
        XCTAssertEqual(calls("load", in: source), .once)
        XCTAssertTrue(finding("load", in: source).added, finding("load", in: source).message)
    }

    func testAnIfWithoutElseMayCompileToNoCall() {
        let source = """
        final class S {
            func load(completion: @escaping (Error?) -> Void) {
                #if DEBUG
                completion(nil)
                #endif
            }
        }
        """
        XCTAssertEqual(calls("load", in: source), .mayNotCall(.init(file: "S.swift", line: 6, column: 5)))
    }

    func testAnIfWithoutElseThatReturnsIsFollowedByTheCallAfterIt() {
        let source = """
        final class S {
            func load(completion: @escaping (Error?) -> Void) {
                #if DEBUG
                completion(nil)
                return
                #endif
                completion(nil)
            }
        }
        """
        XCTAssertEqual(calls("load", in: source), .once)
    }

    func testNestedIfClausesInsideAClosureAreAlternatives() {
        let source = """
        import Foundation
        final class S {
            func load(completion: @escaping (Error?) -> Void) {
                DispatchQueue.global().async {
                    #if os(iOS)
                    #if DEBUG
                    completion(nil)
                    #else
                    completion(URLError(.badURL))
                    #endif
                    #else
                    completion(nil)
                    #endif
                }
            }
        }
        """
        XCTAssertEqual(calls("load", in: source), .once)
    }

    func testSwitchCasesInsideIfClausesAreAlternatives() {
        let source = """
        final class S {
            func load(_ value: Int, completion: @escaping (Error?) -> Void) {
                switch value {
                case 0:
                    completion(nil)
                #if DEBUG
                case 1:
                    completion(nil)
                #endif
                default:
                    completion(nil)
                }
            }
        }
        """
        XCTAssertEqual(calls("load", in: source), .once)
    }

    func testTwoCallsInOneClauseStillRepeat() {
        let source = """
        final class S {
            func load(completion: @escaping (Error?) -> Void) {
                #if DEBUG
                completion(nil)
                completion(nil)
                #else
                completion(nil)
                #endif
            }
        }
        """
        XCTAssertEqual(calls("load", in: source), .mayRepeat(.init(file: "S.swift", line: 5, column: 9)))
    }

    // MARK: - Ternaries, arms and cases

    func testTernaryBranchesAreAlternatives() {
        let source = """
        final class S {
            func split(ok: Bool, success: @escaping (Int) -> Void, failure: @escaping (Error) -> Void) {
                ok ? success(1) : failure(CancellationError())
            }
            func both(ok: Bool, completion: @escaping (Int) -> Void) {
                ok ? completion(1) : completion(2)
            }
            func nested(value: Int, completion: @escaping (Int) -> Void) {
                value > 1 ? completion(1) : value < 0 ? completion(2) : completion(3)
            }
            func returned(ok: Bool, completion: @escaping (Int) -> Void) {
                return ok ? completion(1) : completion(2)
            }
            func once(ok: Bool, completion: @escaping (Int) -> Void) {
                completion(ok ? 1 : 2)
            }
        }
        """
        for name in ["both", "nested", "returned", "once"] {
            XCTAssertEqual(calls(name, in: source), .once, name)
        }
        XCTAssertTrue(finding("split", in: source).added, finding("split", in: source).message)
    }

    /// A promise chain bridged to a handler answers in `done` or in `catch`, never both, unless
    /// `done`'s code can throw (its error goes to `catch` after `done` answered).
    func testAChainsDoneAndCatchAreAlternatives() {
        let source = """
        final class S {
            func fetch() -> Promise<Int> { Promise.value(1) }
            func load(completion: @escaping (Result<Int, Error>) -> Void) {
                fetch().map { $0 + 1 }.done { value in
                    completion(.success(value))
                }.catch(policy: .allErrors) { error in
                    completion(.failure(error))
                }
            }
            func throwing(completion: @escaping (Result<Int, Error>) -> Void) {
                fetch().done { value in
                    completion(.success(value))
                    try self.check(value)
                }.catch { error in
                    completion(.failure(error))
                }
            }
            func check(_ value: Int) throws {}
        }
        """
        XCTAssertEqual(calls("load", in: source), .once)
        XCTAssertEqual(calls("throwing", in: source), .mayRepeat(.init(file: "S.swift", line: 15, column: 13)))
    }

    func testATernaryAfterACallStillRepeats() {
        let source = """
        final class S {
            func twice(ok: Bool, completion: @escaping (Int) -> Void) {
                completion(0)
                ok ? completion(1) : ()
            }
        }
        """
        XCTAssertEqual(calls("twice", in: source), .mayRepeat(.init(file: "S.swift", line: 4, column: 14)))
    }

    func testIfArmsSwitchCasesAndGuardAreAlternatives() {
        let source = """
        final class S {
            func arms(_ value: Int, completion: @escaping (Int) -> Void) {
                if value > 1 {
                    completion(1)
                } else if value < 0 {
                    completion(2)
                } else {
                    completion(3)
                }
            }
            func cases(_ value: Int, completion: @escaping (Int) -> Void) {
                switch value {
                case 0: completion(0)
                case 1, 2: completion(1)
                default: completion(2)
                }
            }
            func guarded(_ value: Int?, completion: @escaping (Int) -> Void) {
                guard let value else {
                    completion(0)
                    return
                }
                completion(value)
            }
            func expression(_ value: Int, completion: @escaping (Int) -> Void) {
                let result: Void = if value > 0 { completion(1) } else { completion(2) }
                return result
            }
        }
        """
        for name in ["arms", "cases", "guarded", "expression"] {
            XCTAssertEqual(calls(name, in: source), .once, name)
        }
    }

    // MARK: - do / catch

    func testACatchClauseRunsInsteadOfWhatFollowsTheThrowingStatement() {
        let source = """
        final class S {
            func decode(_ data: [UInt8]) throws -> Int { 0 }
            func after(_ data: [UInt8], completion: @escaping (Result<Int, Error>) -> Void) {
                do {
                    let value = try decode(data)
                    completion(.success(value))
                } catch {
                    completion(.failure(error))
                }
            }
            func inside(_ data: [UInt8], completion: @escaping (Result<Int, Error>) -> Void) {
                do {
                    completion(.success(try decode(data)))
                } catch {
                    completion(.failure(error))
                }
            }
            func guarded(_ data: [UInt8], completion: @escaping (Result<Int, Error>) -> Void) {
                do {
                    guard !data.isEmpty else { throw CancellationError() }
                    completion(.success(try decode(data)))
                } catch {
                    completion(.failure(error))
                }
            }
        }
        """
        for name in ["after", "inside", "guarded"] {
            XCTAssertEqual(calls(name, in: source), .once, name)
        }
    }

    func testACallBeforeAThrowAndOneInTheCatchCanBothHappen() {
        let source = """
        final class S {
            func save() throws {}
            func before(completion: @escaping (Error?) -> Void) {
                do {
                    completion(nil)
                    try save()
                } catch {
                    completion(error)
                }
            }
            func inLoop(_ items: [Int], completion: @escaping (Error?) -> Void) {
                do {
                    if items.isEmpty {
                        completion(nil)
                        try save()
                    }
                } catch {
                    completion(error)
                }
            }
            func optionalTry(completion: @escaping (Error?) -> Void) {
                do {
                    completion(nil)
                    try? save()
                } catch {
                    completion(error)
                }
            }
        }
        """
        XCTAssertEqual(calls("before", in: source), .mayRepeat(.init(file: "S.swift", line: 8, column: 13)))
        XCTAssertEqual(calls("inLoop", in: source), .mayRepeat(.init(file: "S.swift", line: 18, column: 13)))
        // No statement can throw: the catch never runs after the call.
        XCTAssertEqual(calls("optionalTry", in: source), .once)
    }

    // MARK: - Stored handlers

    func testAHandlerStoredInAnotherObjectIsNotASecondCall() {
        let source = """
        import Foundation
        final class S {
            let queue = OperationQueue()
            func load(completion: @escaping (Error?) -> Void) {
                let operation = BlockOperation()
                operation.completion = completion
                queue.addOperation(operation)
            }
        }
        """
        XCTAssertEqual(calls("load", in: source),
                       .stored(.init(target: "operation.completion", type: nil, problem: nil, location: .init(file: "S.swift", line: 6, column: 32))))
        XCTAssertEqual(finding("load", in: source).message,
                       "it stores its handler in `operation.completion`; cannot tell how often it is called "
                       + "(--trust-stored-handlers adds a promise alternative anyway)")
    }

    func testHandlersStoredInCollectionsAndSubscriptsCannotBeFollowed() {
        let source = """
        final class S {
            var handlers: [(Error?) -> Void] = []
            var pendingRequests: [Int: (Error?) -> Void] = [:]
            func wait(completion: @escaping (Error?) -> Void) {
                handlers.append(completion)
            }
            func request(id: Int, completion: @escaping (Error?) -> Void) {
                pendingRequests[id] = completion
            }
        }
        """
        XCTAssertEqual(finding("wait", in: source).message,
                       "it stores its handler in `handlers`; cannot tell how often it is called (--trust-stored-handlers adds a promise alternative anyway)")
        XCTAssertEqual(finding("request", in: source).message,
                       "it stores its handler in `pendingRequests[id]`; cannot tell how often it is called "
                       + "(--trust-stored-handlers adds a promise alternative anyway)")
    }

    func testAHandlerStoredInAPropertyOfATreeTypeIsFollowedToItsOneCall() {
        let source = """
        import Foundation
        final class FetchOperation: Operation, @unchecked Sendable {
            var completion: ((Result<Int, Error>) -> Void)?
            override func main() {
                guard !isCancelled else {
                    completion?(.failure(CancellationError()))
                    return
                }
                let finish = completion
                completion = nil
                finish?(.success(1))
            }
        }
        final class S {
            let queue = OperationQueue()
            func load(completion: @escaping (Result<Int, Error>) -> Void) {
                let operation = FetchOperation()
                operation.completion = completion
                queue.addOperation(operation)
            }
        }
        """
        XCTAssertEqual(calls("load", in: source), .once)
        XCTAssertTrue(finding("load", in: source).added)
    }

    func testAPropertyCalledTwiceOrInTwoMethodsIsRefusedWithThePlace() {
        let source = """
        final class Twice {
            var completion: ((Int) -> Void)?
            func run() {
                completion?(1)
                completion?(2)
            }
        }
        final class TwoMethods {
            var completion: ((Int) -> Void)?
            func run() { completion?(1) }
            func cancel() { self.completion?(0) }
        }
        final class Own {
            private var pending: ((Int) -> Void)?
            func start(completion: @escaping (Int) -> Void) {
                self.pending = completion
            }
            func stop(flag: Bool) {
                if flag { pending?(1) }
            }
        }
        final class S {
            func twice(completion: @escaping (Int) -> Void) {
                let task = Twice()
                task.completion = completion
                task.run()
            }
            func twoMethods(completion: @escaping (Int) -> Void) {
                let task = TwoMethods()
                task.completion = completion
                task.run()
            }
        }
        """
        XCTAssertEqual(finding("twice", in: source).message,
                       "it stores its handler in `task.completion` (a property of `Twice`); `Twice.run()` can call it more than once "
                       + "(again at line 5) (--trust-stored-handlers adds a promise alternative anyway)")
        XCTAssertEqual(finding("twoMethods", in: source).message,
                       "it stores its handler in `task.completion` (a property of `TwoMethods`); `completion` is called in 2 methods of "
                       + "`TwoMethods` (`run()`, `cancel()`), which may each run (--trust-stored-handlers adds a promise alternative anyway)")
        XCTAssertEqual(finding("start", in: source).message,
                       "it stores its handler in `self.pending` (a property of `Own`); a path through `Own.stop(flag:)` ends without "
                       + "calling it (line 20) (--trust-stored-handlers adds a promise alternative anyway)")
    }

    func testCallsOfTheStoredPropertyInAnExtensionInAnotherFileCountToo() {
        let task = """
        final class Job {
            var completion: ((Int) -> Void)?
            func run() { completion?(1) }
        }
        """
        let cancelling = """
        extension Job {
            func cancel() {
                let finish = self.completion
                finish?(0)
            }
        }
        final class S {
            func start(completion: @escaping (Int) -> Void) {
                let job = Job()
                job.completion = completion
                job.run()
            }
        }
        """
        let index = MigrationIndex(summaries: [MigrationIndex.summarize(source: task, fileName: "Job.swift"),
                                               MigrationIndex.summarize(source: cancelling, fileName: "S.swift")])
        XCTAssertEqual(index.completionFunctions(baseName: "start").first?.alternative(for: .promise),
                       .none(reason: "it stores its handler in `job.completion` (a property of `Job`); `completion` is called in 2 methods "
                             + "of `Job` (`run()`, `cancel()`), which may each run (--trust-stored-handlers adds a promise alternative anyway)"))
    }

    func testTheOptInAddsThePromiseAlternativeAndTheAsyncOneWhereFoundationGivesItsBridgeALock() {
        let source = """
        final class S {
            var handlers: [(Error?) -> Void] = []
            func wait(completion: @escaping (Error?) -> Void) {
                handlers.append(completion)
            }
        }
        """
        let trustedNote = "trusting the handler stored in `handlers` (--trust-stored-handlers): the first answer is kept and later ones "
            + "dropped (a promise reports them to `conf.diagnosticHandler`, the async form prints them); with no answer the promise "
            + "stays pending and the await never returns"
        let promise = finding("wait", in: source, .promise, trust: true)
        XCTAssertTrue(promise.added)
        XCTAssertEqual(promise.message, "added `wait() -> Promise<Void>`; " + trustedNote)
        let async = finding("wait", in: source, .async, trust: true)
        XCTAssertFalse(async.added)
        XCTAssertEqual(async.message, "it stores its handler in `handlers`; --trust-stored-handlers adds the async alternative only in a file "
                       + "that imports Foundation: its resume-once bridge (a continuation resumed twice traps) locks with `NSLock`")
        let withFoundation = finding("wait", in: "import Foundation\n" + source, .async, trust: true)
        XCTAssertTrue(withFoundation.added)
        XCTAssertEqual(withFoundation.message, "added `wait() async throws`; " + trustedNote)
        XCTAssertEqual(index(source).completionFunctions(baseName: "wait").first?.alternative(for: .promise, trustingStoredHandlers: true),
                       .generated(swiftName: "wait()"))
    }

    func testAHandlerHandedToAFunctionThatStoresItIsRefusedThroughIt() {
        let source = """
        final class S {
            var handlers: [(Error?) -> Void] = []
            func wait(completion: @escaping (Error?) -> Void) {
                handlers.append(completion)
            }
            func forward(completion: @escaping (Error?) -> Void) {
                wait(completion: completion)
            }
        }
        """
        XCTAssertEqual(finding("forward", in: source).message,
                       "it hands its handler to `wait(completion:)`, which stores it in `handlers`; cannot tell how often it is called "
                       + "(--trust-stored-handlers adds a promise alternative anyway)")
    }

    /// A handler handed on by a call that syntax cannot tie to one function (several types have
    /// a `fetch(completion:)`): every one the call may reach counts, the worst deciding. One that
    /// calls it twice rules the alternative out, and the reason names it; one that may not call
    /// it makes the forwarder answer nothing there too.
    func testAHandOffReachingSeveralFunctionsOfOneNameTakesTheWorstOfThem() {
        let source = """
        final class Cache {
            func fetch(completion: @escaping (String?, Error?) -> Void) {
                completion("cached", nil)
            }
        }
        final class Stream {
            func fetch(completion: @escaping (String?, Error?) -> Void) {
                completion("first", nil)
                completion("second", nil)
            }
        }
        final class Repository {
            let cache = Cache()
            func load(completion: @escaping (String?, Error?) -> Void) {
                cache.fetch(completion: completion)
            }
        }
        final class Local {
            func find(id: Int, completion: @escaping (String?, Error?) -> Void) {
                guard id > 0 else { return }
                completion("local", nil)
            }
        }
        final class Remote {
            func find(id: Int, completion: @escaping (String?, Error?) -> Void) {
                completion("remote", nil)
            }
        }
        final class Mirror {
            let remote = Remote()
            func lookUp(id: Int, completion: @escaping (String?, Error?) -> Void) {
                remote.find(id: id, completion: completion)
            }
        }
        """
        let load = finding("load", in: source)
        XCTAssertFalse(load.added)
        XCTAssertEqual(load.message, "it hands its handler `completion` to `fetch(completion:)` (line 15) (one of 2 functions of that name the call "
                       + "may reach; this one is at S.swift:7, in `Stream`), which can call it more than once; an async alternative would trap "
                       + "and a promise would drop the later answers")
        let lookUp = finding("lookUp", in: source)
        XCTAssertTrue(lookUp.added)
        XCTAssertEqual(lookUp.message, "added `lookUp(id:) -> Promise<String>`; like the original, which ends without calling its handler on "
                       + "the path at line 32, it answers nothing there (the promise stays pending)")
        guard case .mayNotCall(let place)? = calls("lookUp", in: source) else { return XCTFail("\(String(describing: calls("lookUp", in: source)))") }
        XCTAssertEqual(place.line, 32)
    }

    // MARK: - Cancelled requests

    /// A function returning `Job` (cancellable) whose body answers every request but a cancelled
    /// one, tested with `test`; `imports` heads the file.
    private func cancellable(_ test: String, imports: String = "import Foundation\n") -> String {
        imports + """
        final class Job { func cancel() {} }
        struct Order { enum Code { case open, cancelled }; let code: Code }
        final class S {
            func load(error: NSError?, order: Order, completion: @escaping (Int?, Error?) -> Void) -> Job {
                if let error {
                    \(test)
                    return Job()
                }
                completion(1, nil)
                return Job()
            }
        }
        """
    }

    func testABranchACancelledRequestTakesWithoutAnsweringIsAnsweredByAHandleFunctionsAlternative() {
        for test in ["if error.code != NSURLErrorCancelled { completion(nil, error) }",
                     "if error.code == NSURLErrorCancelled { return Job() }\n completion(nil, error)",
                     "guard error.code != NSURLErrorCancelled else { return Job() }\n completion(nil, error)",
                     "if (error as Error as? URLError)?.code == .cancelled { return Job() }\n completion(nil, error)"] {
            XCTAssertEqual(calls("load", in: cancellable(test)), .once, test)
            // Without Foundation the async alternative could not answer it: a path without a call.
            guard case .mayNotCall? = calls("load", in: cancellable(test, imports: "")) else {
                return XCTFail("without Foundation: \(test)")
            }
        }
        // `.cancelled` of something that is not an error is an app's own state, not a cancellation.
        let status = cancellable("if order.code == .cancelled { return Job() }\n completion(nil, error)")
        guard case .mayNotCall? = calls("load", in: status) else { return XCTFail("an order's status") }
        // A handler that cannot fail: its async form cannot throw `CancellationError`, so nothing
        // would answer the cancellation.
        let cannotFail = cancellable("if error.code != NSURLErrorCancelled { completion(nil, nil) }")
            .replacingOccurrences(of: "completion: @escaping (Int?, Error?) -> Void", with: "completion: @escaping (Int?) -> Void")
            .replacingOccurrences(of: "completion(nil, nil)", with: "completion(nil)")
            .replacingOccurrences(of: "completion(1, nil)", with: "completion(1)")
        XCTAssertTrue(cannotFail.contains("(Int?) -> Void"))
        guard case .mayNotCall? = calls("load", in: cannotFail) else { return XCTFail("a handler that cannot fail") }
        // A branch that answers is counted as it is.
        let answering = cancellable("if error.code == NSURLErrorCancelled { completion(nil, error) }\n completion(nil, error)")
        guard case .mayRepeat? = calls("load", in: answering) else { return XCTFail("answering twice") }
    }
}
