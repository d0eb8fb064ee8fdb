@testable import VowMigrate
import XCTest

/// Fan-outs at call sites: a loop starting one callback per element, with or without a
/// `DispatchGroup`. What converts is in `Fixtures/call-sites-fan-out` and runs in
/// `BehaviourProgram/FanOut.swift`; these are the shapes that change behaviour when converted,
/// each left alone with a reason that names it.
final class CallSiteFanOutTests: XCTestCase {
    private static let services = """
    import Foundation

    final class Api: Sendable {
        func item(_ id: Int, completion: @escaping @Sendable (Result<Int, Error>) -> Void) {
            DispatchQueue.global().async { completion(.success(id)) }
        }
        func mark(_ id: Int, completion: @escaping @Sendable (Error?) -> Void) {
            DispatchQueue.global().async { completion(nil) }
        }
    }
    let api = Api()
    let background = DispatchQueue(label: "background")

    final class Screen: @unchecked Sendable {
        var total = 0
        func show(_ text: String) { print(text) }

    """

    private func migrate(_ body: String, _ target: MigrationTarget) -> FileMigration {
        SourceMigrator.migrate(source: Self.services + body + "\n}\n", fileName: "input.swift",
                               options: MigrationOptions(target: target, stage: .all))
    }

    private func callSiteFindings(_ migration: FileMigration) -> [String] {
        migration.findings.filter { $0.kind == .callSiteRefused || $0.kind == .callSiteConverted }.map {
            ($0.kind == .callSiteConverted ? "converted: " : "left alone: ") + $0.message
        }
    }

    private func assertLeftAlone(_ body: String, _ reason: String, in targets: [MigrationTarget] = MigrationTarget.allCases,
                                 file: StaticString = #filePath, line: UInt = #line) {
        for target in targets {
            XCTAssertEqual(callSiteFindings(migrate(body, target)), ["left alone: " + reason], "\(target)", file: file, line: line)
        }
    }

    private static let groupOpening = """
        func load(_ ids: [Int]) {
            let group = DispatchGroup()
            for id in ids {
                group.enter()
    """

    func testAGroupWaitedOnIsLeftAloneSinceWaitBlocksItsThread() {
        assertLeftAlone(Self.groupOpening + "\n" + """
                api.item(id) { result in
                    if case .success(let value) = result { self.total += value }
                    group.leave()
                }
            }
            group.wait()
            show("done")
        }
        """, "`group.wait()` blocks its thread until every callback has run (forever on the main queue when they call back there); "
           + "move the code after it into `group.notify(queue: .main) { }` right after the loop")
    }

    func testAnErrorBranchReturningBeforeTheLastLeaveIsLeftAloneSinceTheOriginalNeverNotifies() {
        assertLeftAlone(Self.groupOpening + "\n" + """
                api.mark(id) { error in
                    if let error { self.show("\\(error)"); return }
                    self.show("marked")
                    group.leave()
                }
            }
            group.notify(queue: .main) { self.show("done") }
        }
        """, "the error branch returns before `group.leave()`, so the original never notifies after a failure; "
           + "call `leave()` before that `return` (or use `defer { group.leave() }`) if it should")
    }

    func testABranchWithoutLeaveIsLeftAlone() {
        assertLeftAlone(Self.groupOpening + "\n" + """
                api.item(id) { result in
                    switch result {
                    case .success(let value):
                        self.total += value
                        group.leave()
                    case .failure:
                        self.show("failed")
                    }
                }
            }
            group.notify(queue: .main) { self.show("done") }
        }
        """, "the callback calls `group.leave()` on some paths only, or more than once; "
           + "the group's notify block depends on every path calling it once (use `defer { group.leave() }`)")
    }

    func testAContinueInTheLoopIsLeftAlone() {
        assertLeftAlone("""
            func load(_ ids: [Int]) {
                for id in ids {
                    if id < 0 { continue }
                    api.mark(id) { error in
                        if let error { self.show("\\(error)") } else { self.show("marked") }
                    }
                }
            }
        """, "a `continue` in a loop that starts callbacks; the converted loop would have to skip them the same way")
    }

    func testALoopWithoutNotifyAfterItIsLeftAlone() {
        assertLeftAlone(Self.groupOpening + "\n" + """
                api.mark(id) { error in
                    defer { group.leave() }
                    self.show("marked")
                }
            }
            show("started")
            group.notify(queue: .main) { self.show("done") }
        }
        """, "the loop is not followed by `group.notify(queue:) { }`, which the conversion needs to know what runs after the callbacks")
    }

    func testALoopStartingTwoCallbacksPerElementIsStillALoopAroundACallback() {
        let body = """
            func load(_ ids: [Int]) {
                for id in ids {
                    api.mark(id) { _ in self.show("marked") }
                    api.mark(id + 1) { _ in self.show("marked next") }
                }
            }
        """
        for target in MigrationTarget.allCases {
            XCTAssertEqual(callSiteFindings(migrate(body, target)), ["left alone: a loop around a callback", "left alone: a loop around a callback"])
        }
    }

    func testANotifyOnAnotherQueueConvertsToPromisesOnThatQueueButNotToAsync() {
        let body = Self.groupOpening + "\n" + """
                api.mark(id) { error in
                    defer { group.leave() }
                    if let error { self.show("\\(error)") } else { self.show("marked") }
                }
            }
            group.notify(queue: background) { self.show("done") }
        }
        """
        let promise = migrate(body, .promise)
        XCTAssertEqual(callSiteFindings(promise), ["converted: converted a loop of callbacks and its `DispatchGroup` to promises joined by `when(guarantees:)`"])
        XCTAssertTrue(promise.output.contains("when(guarantees: group).done(on: background) {"), promise.output)
        XCTAssertEqual(callSiteFindings(migrate(body, .async)),
                       ["left alone: the notify block runs on `background`, which async code cannot name; notify on `.main` or `.global()`, or convert to promises"])
    }

    func testCodeAfterTheNotifyKeepsItsPlaceInPromisesButNotInATask() {
        let body = Self.groupOpening + "\n" + """
                api.mark(id) { error in
                    defer { group.leave() }
                    if let error { self.show("\\(error)") } else { self.show("marked") }
                }
            }
            group.notify(queue: .main) { self.show("done") }
            show("started")
        }
        """
        XCTAssertEqual(callSiteFindings(migrate(body, .promise)).first?.hasPrefix("converted: "), true)
        XCTAssertEqual(callSiteFindings(migrate(body, .async)), ["left alone: code after the callbacks would run before them inside a `Task`"])
    }

    func testCallbacksChangingALocalVarConvertToAsyncButNotToPromises() {
        let body = """
            func load(_ ids: [Int]) {
                var firstError: Error?
                let group = DispatchGroup()
                for id in ids {
                    group.enter()
                    api.mark(id) { error in
                        if let error { firstError = error } else { self.show("marked") }
                        group.leave()
                    }
                }
                group.notify(queue: .main) { self.show("\\(String(describing: firstError))") }
            }
        """
        XCTAssertEqual(callSiteFindings(migrate(body, .promise)),
                       ["left alone: the callbacks use the local `var firstError`, which a promise handler (`@Sendable`) cannot share; keep it in a property, or use --to async"])
        let async = migrate(body, .async)
        XCTAssertEqual(callSiteFindings(async).first?.hasPrefix("converted: "), true)
        // The notify block runs on the main actor once nothing changes the variable: it reads a copy.
        XCTAssertTrue(async.output.contains("await MainActor.run { [firstError] in"), async.output)
    }

    func testTwoFanOutsInOneFunctionKeepTheirOwnArraysOfPromises() {
        let body = """
            func load(_ ids: [Int]) {
                let items = DispatchGroup()
                for id in ids {
                    items.enter()
                    api.item(id) { _ in items.leave() }
                }
                items.notify(queue: .main) { self.show("items") }
                let marks = DispatchGroup()
                for id in ids {
                    marks.enter()
                    api.mark(id) { _ in marks.leave() }
                }
                marks.notify(queue: .main) { self.show("marks") }
            }
        """
        let promise = migrate(body, .promise)
        XCTAssertEqual(callSiteFindings(promise).count, 2)
        XCTAssertTrue(promise.output.contains("var items: [Guarantee<Void>] = []"), promise.output)
        XCTAssertTrue(promise.output.contains("when(guarantees: marks).done(on: .main) {"), promise.output)
        // Async form: the second would start before the first task's calls.
        XCTAssertEqual(callSiteFindings(migrate(body, .async)).last,
                       "left alone: a callback started earlier in the function could run before the new `Task` makes its first call")
    }

    func testTheSerialExecutorIsAddedOnceForSeveralFanOutsInAFile() {
        let loop = """
            func load(_ ids: [Int]) {
                for id in ids {
                    api.mark(id) { error in
                        if let error { self.show("\\(error)") } else { self.show("marked \\(id)") }
                    }
                }
            }
        """
        let migration = migrate(loop + "\n" + loop.replacingOccurrences(of: "func load", with: "func reload"), .async)
        XCTAssertEqual(migration.output.components(separatedBy: "final class FanOutExecutor: TaskExecutor").count, 2, migration.output)
        // The element goes with each result: the callback's code runs after the loop.
        XCTAssertTrue(migration.output.contains("for await (id, result) in group {"), migration.output)
        // Each child makes its call through the executor, which keeps the order of the answers.
        let lines = migration.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let child = lines.firstIndex(of: "group.addTask {")
        XCTAssertEqual(child.map { Array(lines[($0 + 1)...($0 + 3)]) }, [
            "await executor.answer {",
            "do { try await api.mark(id); return (id, Swift.Result<Void, any Error>.success(())) } catch { return (id, .failure(error)) }",
            "}",
        ], migration.output)
        // A file an earlier version gave its own executor gets this one in its place.
        let earlier = Self.services + loop + "\n}\n" + FanOutExecutor.earlierDeclaration
        let again = SourceMigrator.migrate(source: earlier, fileName: "input.swift", options: MigrationOptions(target: .async, stage: .all))
        XCTAssertEqual(again.output.components(separatedBy: "final class FanOutExecutor: TaskExecutor").count, 2, again.output)
        XCTAssertTrue(again.output.hasSuffix(FanOutExecutor.declaration), again.output)
    }
}

/// The async form's results come in the order the callee answered, round after round: a callee
/// answering at once on its serial queue (a child can get its answer before it suspends) and one
/// answering out of call order.
final class FanOutAnswerOrderTests: XCTestCase {
    private static let screen = """
        import Dispatch
        import Foundation

        final class Answers: @unchecked Sendable {
            private let lock = NSLock()
            private var given: [Int] = []
            private var handled: [Int] = []
            func give(_ number: Int) { lock.lock(); given.append(number); lock.unlock() }
            func handle(_ number: Int) { lock.lock(); handled.append(number); lock.unlock() }
            var sameOrder: Bool { lock.lock(); defer { lock.unlock() }; return given == handled }
        }

        let serviceQueue = DispatchQueue(label: "service")

        final class Service: Sendable {
            let delays: [Int]
            init(delays: [Int]) { self.delays = delays }

            func page(_ number: Int, answers: Answers, completion: @escaping @Sendable (Result<Int, Error>) -> Void) {
                let delay = delays.isEmpty ? 0 : delays[number % delays.count]
                serviceQueue.asyncAfter(deadline: .now() + .milliseconds(delay)) {
                    answers.give(number)
                    completion(.success(number * 10))
                }
            }
        }

        final class Screen: @unchecked Sendable {
            let service: Service
            init(service: Service) { self.service = service }

            func prefetch(_ answers: Answers, then done: @escaping @Sendable () -> Void) {
                let group = DispatchGroup()
                for number in 0..<4 {
                    group.enter()
                    service.page(number, answers: answers) { result in
                        switch result {
                        case .success: answers.handle(number)
                        case .failure: answers.handle(-1)
                        }
                        group.leave()
                    }
                }
                group.notify(queue: .global()) {
                    done()
                }
            }
        }

        """

    private static let main = """
        import Dispatch

        for (name, delays, rounds) in [("at once", [Int](), 400), ("out of order", [9, 1, 6, 3], 25)] {
            let screen = Screen(service: Service(delays: delays))
            var reordered = 0
            for _ in 0..<rounds {
                let answers = Answers()
                let finished = DispatchSemaphore(value: 0)
                screen.prefetch(answers) { finished.signal() }
                finished.wait()
                if !answers.sameOrder { reordered += 1 }
            }
            print("\\(name): \\(reordered) of \\(rounds) rounds handled in another order")
        }

        """

    func testResultsAreHandledInTheOrderTheCalleeAnswered() throws {
        let root = try TestSupport.temporaryDirectory(self)
        let migration = SourceMigrator.migrate(source: Self.screen, fileName: "Screen.swift", options: MigrationOptions(target: .async, stage: .all))
        XCTAssertTrue(migration.output.contains("await executor.answer {"), migration.output)
        let output = try ProgramBuilding.buildAndRun([("Screen.swift", migration.output), ("main.swift", Self.main)], as: "async", in: root)
        XCTAssertEqual(output, "at once: 0 of 400 rounds handled in another order\nout of order: 0 of 25 rounds handled in another order\n")
    }
}

extension CallSiteFanOutTests {
    /// The async form runs a fan-out's calls on a `TaskExecutor` (iOS 18, macOS 15): a target
    /// deploying to earlier versions (its package's `platforms:`, its Xcode project's deployment
    /// targets) would not build it, so it is left alone there; the promise form converts it.
    func testAFanOutIsLeftAloneInAsyncFormWhereTheTargetDeploysToAnOSWithoutTaskExecutor() {
        let body = Self.groupOpening + "\n" + """
                api.item(id) { result in
                    if case .success(let value) = result { self.total += value }
                    group.leave()
                }
            }
            group.notify(queue: .main) { self.show("done") }
        }
        """
        for target in MigrationTarget.allCases {
            var options = MigrationOptions(target: target, stage: .all)
            options.earlyDeployment = "its package deploys to macOS 12"
            let findings = callSiteFindings(SourceMigrator.migrate(source: Self.services + body + "\n}\n", fileName: "input.swift", options: options))
            XCTAssertEqual(findings.count, 1, "\(target)")
            if target == .async {
                XCTAssertEqual(findings, ["left alone: the async form runs the calls on a `TaskExecutor` (iOS 18, macOS 15, tvOS 18, watchOS 11, "
                                          + "visionOS 2), but its package deploys to macOS 12; `--to promise` converts it"])
            } else {
                XCTAssertTrue(findings[0].hasPrefix("converted: "), findings[0])
            }
            XCTAssertTrue(callSiteFindings(migrate(body, target))[0].hasPrefix("converted: "), "\(target)")
        }
        XCTAssertEqual(PackageManifest.earlyPlatform(in: "// swift-tools-version:5.9\nlet package = Package(name: \"A\", platforms: [.macOS(.v10_15), .iOS(.v13)])"),
                       "its package deploys to macOS 10")
        XCTAssertEqual(PackageManifest.earlyPlatform(in: "// swift-tools-version:6.0\nlet package = Package(name: \"A\", platforms: [.macOS(.v15), .iOS(\"17.2\")])"),
                       "its package deploys to iOS 17")
        XCTAssertNil(PackageManifest.earlyPlatform(in: "// swift-tools-version:6.0\nlet package = Package(name: \"A\", platforms: [.macOS(.v15), .iOS(.v18)])"))
        XCTAssertEqual(PackageManifest.earlyPlatform(in: "// swift-tools-version:6.0\nlet package = Package(name: \"A\")"),
                       "its package declares no `platforms:`, so on Apple platforms it deploys to SwiftPM's oldest defaults")
    }
}
