import Foundation
@testable import VowMigrate
import XCTest

/// `--to async` output in a file that does not import Vow needs only Swift: it is compiled here
/// with no Vow module in reach, and its cancellation and "neither value nor error" answers are
/// built into a program and run.
final class SwiftOnlyAsyncTests: XCTestCase {
    // MARK: - Without the Vow module

    func testEveryAsyncOutputThatDoesNotImportVowTypechecksWithoutTheVowModule() throws {
        XCTAssertTrue(TestSupport.fixtureNames.contains("async-without-vow"))
        var files: [URL] = []
        for name in TestSupport.alternativeFixtureNames {
            let file = TestSupport.fixturesDirectory.appendingPathComponent(name).appendingPathComponent("async.swift")
            let input = try TestSupport.fixture(name, "input.swift")
            let output = try String(contentsOf: file, encoding: .utf8)
            // The rule: the async form adds no `import Vow`, and names no Vow type but in a file
            // that imported Vow already.
            if !input.contains("import Vow") {
                XCTAssertFalse(output.contains("import Vow"), "\(name)/async.swift imports Vow")
                XCTAssertFalse(output.contains("PMKError") || output.contains("CancellationTokenSource"), "\(name)/async.swift names a Vow type")
                files.append(file)
            }
        }
        XCTAssertGreaterThan(files.count, 40)
        let failures = FailureCollector()
        let paths = files.map(\.path)
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            let path = paths[index]
            for mode in ["6", "5"] where mode == "6" || path.contains("async-without-vow") {
                // No `-I`: a stray `import Vow` or Vow symbol fails.
                do {
                    let result = try TestSupport.run(TestSupport.swiftc, ["-typecheck", "-swift-version", mode, path])
                    if result.status != 0 || result.standardError.contains("warning:") {
                        failures.add("\(path) (Swift \(mode)) does not typecheck without Vow:\n\(result.standardError)")
                    }
                } catch {
                    failures.add("\(path): \(error)")
                }
            }
        }
        for failure in failures.all { XCTFail(failure) }
    }

    func testTheAsyncFormOfAFileThatImportsVowKeepsVowsTypes() {
        let source = """
        import Vow

        final class Store: Sendable {
            func load(completion: @escaping @Sendable (String?, Error?) -> Void) {
                completion("x", nil)
            }
        }
        """
        let result = SourceMigrator.migrate(source: source, fileName: "Store.swift", options: MigrationOptions(target: .async))
        XCTAssertTrue(result.output.contains("continuation.resume(throwing: PMKError.invalidCallingConvention)"), result.output)
        XCTAssertFalse(result.output.contains("NeitherValueNorError"), result.output)
        XCTAssertFalse(result.addedVowImport)
    }

    func testTheSupportDeclarationsAreAddedOnceAndNotAgainForAFunctionAddedLater() throws {
        let first = SourceMigrator.migrate(source: try TestSupport.fixture("async-without-vow", "input.swift"), fileName: "Store.swift",
                                           options: MigrationOptions(target: .async))
        XCTAssertFalse(first.addedVowImport)
        // A new function in the migrated file needs both again: the file declares them already.
        let grown = first.output.replacingOccurrences(of: "final class Store: Sendable {\n", with: """
            final class Store: Sendable {
                func peek(completion: @escaping @Sendable (Int?, Error?) -> Void) -> Transfer {
                    completion(nil, nil)
                    return Transfer()
                }

            """)
        let second = SourceMigrator.migrate(source: grown, fileName: "Store.swift", options: MigrationOptions(target: .async))
        XCTAssertEqual(second.findings.filter { $0.kind == .added }.map(\.function), ["peek(completion:)"])
        XCTAssertEqual(second.output.components(separatedBy: "fileprivate struct NeitherValueNorError").count, 2)
        XCTAssertEqual(second.output.components(separatedBy: "fileprivate actor PendingCancellation").count, 2)
    }

    func testATreeWithItsOwnTaskTypeGetsSwiftTaskSpelledOut() throws {
        let source = """
        /// The app's own model, as in a to-do app.
        struct Task: Sendable {
            var title: String
        }

        final class Transfer: Sendable {
            func cancel() {}
        }

        final class Sync: Sendable {
            func push(_ task: Task, completion: @escaping @Sendable (Error?) -> Void) -> Transfer {
                completion(nil)
                return Transfer()
            }
        }

        """
        let result = SourceMigrator.migrate(source: source, fileName: "Sync.swift", options: MigrationOptions(target: .async))
        XCTAssertTrue(result.output.contains("Swift.Task { await cancellation.store { task2.cancel() } }"), result.output)
        XCTAssertTrue(result.output.contains("Swift.Task { await cancellation.cancel() }"), result.output)
        let file = try TestSupport.temporaryDirectory(self).appendingPathComponent("Sync.swift")
        try result.output.write(to: file, atomically: true, encoding: .utf8)
        let check = try TestSupport.run(TestSupport.swiftc, ["-typecheck", "-swift-version", "6", file.path])
        XCTAssertEqual(check.status, 0, check.standardError)
    }

    // MARK: - Behaviour

    /// The migrated file imports nothing; the program's `main.swift` drives it. `Harness.start`
    /// returns a `Transfer` whose `cancel()` counts and answers the pending handler with
    /// `TransferCancelled`, the way `URLSessionTask.cancel()` answers with `URLError.cancelled`:
    /// the await throws what the original's handler reported.
    private static let service = """
        /// Work in flight; `cancel()` is what the alternative must call when the Task is cancelled.
        final class Transfer: Sendable {
            let onCancel: @Sendable () -> Void

            init(onCancel: @escaping @Sendable () -> Void) {
                self.onCancel = onCancel
            }

            func cancel() {
                onCancel()
            }
        }

        func fetchNumber(answer: String, completion: @escaping @Sendable (Int?, Error?) -> Void) -> Transfer {
            Harness.start(answer: answer, completion: completion)
        }
        """

    /// The program around the service: a `Harness` answering at once (`now`: 42, `nothing`: nil
    /// and nil), only when cancelled (`later`), or never (`silent`: its cancellation drops the
    /// handler unanswered), with the helpers the scenarios below share.
    private static let harness = """
        import Foundation

        struct TransferCancelled: Error {}

        /// Answers at once (`now`: 42, `nothing`: nil and nil), only when cancelled (`later`), or
        /// never (`silent`: its cancellation drops the handler unanswered).
        final class Harness: @unchecked Sendable {
            static let shared = Harness()
            private let lock = NSLock()
            private var pending: (@Sendable (Int?, Error?) -> Void)?
            private var silent = false
            private var cancels = 0
            private var started = false

            static func start(answer: String, completion: @escaping @Sendable (Int?, Error?) -> Void) -> Transfer {
                switch answer {
                case "now": completion(42, nil)
                case "nothing": completion(nil, nil)
                default: shared.lock.withLock { shared.pending = completion; shared.silent = answer == "silent" }
                }
                shared.lock.withLock { shared.started = true }
                return Transfer { shared.cancel() }
            }

            func cancel() {
                let answer = lock.withLock { () -> (@Sendable (Int?, Error?) -> Void)? in
                    cancels += 1
                    defer { pending = nil }
                    return silent ? nil : pending
                }
                answer?(nil, TransferCancelled())
            }

            var state: (cancels: Int, started: Bool) { lock.withLock { (cancels, started) } }

            func reset() { lock.withLock { cancels = 0; started = false; pending = nil; silent = false } }
        }

        func outcome(_ task: Task<Int, any Error>) async -> String {
            do {
                return "\\(try await task.value)"
            } catch {
                if \(SwiftOnlySupport.recognises("error")) { return "neither value nor error" }
                return "\\(type(of: error))"
            }
        }

        func settle() async {
            try? await Task.sleep(nanoseconds: 100_000_000)
        }

        // An await left waiting would hang the program: fail rather than hang.
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 30)
            print("timed out")
            exit(1)
        }

        """

    /// The scenarios both programs end with: cancelled after the answer (nothing to cancel), and
    /// an answer with neither a value nor an error.
    private static let afterAndNothing = """

        Harness.shared.reset()
        let after = Task<Int, any Error> { try await fetchNumber(answer: "now") }
        print("after: \\(await outcome(after))")
        after.cancel()
        await settle()
        print("after: cancel() ran \\(Harness.shared.state.cancels) time(s)")

        Harness.shared.reset()
        let nothing = Task<Int, any Error> { try await fetchNumber(answer: "nothing") }
        print("nothing: \\(await outcome(nothing))")
        """

    private static let main = harness + """

        // Cancelled before the handle exists: the cancellation handler runs first.
        let before = Task<Int, any Error> {
            while !Task.isCancelled { await Task.yield() }
            return try await fetchNumber(answer: "later")
        }
        before.cancel()
        print("before: \\(await outcome(before))")
        await settle()
        print("before: cancel() ran \\(Harness.shared.state.cancels) time(s)")

        // Cancelled while the work is in flight, after the handle exists.
        Harness.shared.reset()
        let during = Task<Int, any Error> { try await fetchNumber(answer: "later") }
        while !Harness.shared.state.started { await Task.yield() }
        during.cancel()
        print("during: \\(await outcome(during))")
        await settle()
        print("during: cancel() ran \\(Harness.shared.state.cancels) time(s)")

        """ + afterAndNothing

    func testCancellingTheAwaitingTaskCancelsTheHandleOnceBeforeOrAfterItExists() throws {
        let migration = SourceMigrator.migrate(source: Self.service, fileName: "Service.swift", options: MigrationOptions(target: .async))
        XCTAssertEqual(migration.findings.map(\.kind), [.added], "\(migration.findings)")
        XCTAssertTrue(migration.output.contains("fileprivate actor PendingCancellation"), migration.output)
        XCTAssertFalse(migration.output.contains("import"), migration.output)

        let directory = try TestSupport.temporaryDirectory(self)
        let service = directory.appendingPathComponent("Service.swift")
        let main = directory.appendingPathComponent("main.swift")
        try migration.output.write(to: service, atomically: true, encoding: .utf8)
        try Self.main.write(to: main, atomically: true, encoding: .utf8)
        let binary = directory.appendingPathComponent("program")
        // No Vow module, no Vow objects.
        let build = try TestSupport.run(TestSupport.swiftc, ["-swift-version", "6", service.path, main.path, "-o", binary.path])
        XCTAssertEqual(build.status, 0, build.standardError)
        XCTAssertFalse(build.standardError.contains("warning:"), build.standardError)
        guard build.status == 0 else { return }
        let run = try TestSupport.run(binary, [])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(run.standardOutput, """
            before: TransferCancelled
            before: cancel() ran 1 time(s)
            during: TransferCancelled
            during: cancel() ran 1 time(s)
            after: 42
            after: cancel() ran 0 time(s)
            nothing: neither value nor error

            """)
    }
}

extension SwiftOnlyAsyncTests {
    /// The same service in a file that imports Foundation; the `silent` answer is a callee's that
    /// returns early for `NSURLErrorCancelled`.
    private static let foundationService = "import Foundation\n\n" + service.replacingOccurrences(
        of: "func fetchNumber(answer: String, completion: @escaping @Sendable (Int?, Error?) -> Void) -> Transfer {",
        with: "@discardableResult\nfunc fetchNumber(answer: String, completion: @escaping @Sendable (Int?, Error?) -> Void) -> Transfer {")

    private static let foundationMain = harness + """

        // Cancelled before the original is called: it is not called.
        let before = Task<Int, any Error> {
            while !Task.isCancelled { await Task.yield() }
            return try await fetchNumber(answer: "later")
        }
        before.cancel()
        print("before: \\(await outcome(before))")
        await settle()
        print("before: started \\(Harness.shared.state.started), cancel() ran \\(Harness.shared.state.cancels) time(s)")

        for answer in ["later", "silent"] {
            Harness.shared.reset()
            let during = Task<Int, any Error> { try await fetchNumber(answer: answer) }
            while !Harness.shared.state.started { await Task.yield() }
            during.cancel()
            print("during, \\(answer): \\(await outcome(during))")
            await settle()
            print("during, \\(answer): cancel() ran \\(Harness.shared.state.cancels) time(s)")
        }

        """ + afterAndNothing

    /// Where the file imports Foundation, the alternative answers the Task's cancellation itself
    /// (`CancellableAnswer`): a callee that stays silent once cancelled cannot leave the await
    /// waiting, an answer after the cancellation is dropped (never a second resume), and a Task
    /// cancelled before the call does not start the work.
    func testWithFoundationACancelledAwaitThrowsAtOnceEvenWhenTheCalleeNeverAnswers() throws {
        let migration = SourceMigrator.migrate(source: Self.foundationService, fileName: "Service.swift", options: MigrationOptions(target: .async))
        XCTAssertEqual(migration.findings.map(\.kind), [.added], "\(migration.findings)")
        XCTAssertTrue(migration.output.contains("fileprivate final class CancellableAnswer<Value>"), migration.output)
        XCTAssertFalse(migration.output.contains("PendingCancellation"), migration.output)
        XCTAssertFalse(migration.output.contains("import Vow"), migration.output)

        let directory = try TestSupport.temporaryDirectory(self)
        let service = directory.appendingPathComponent("Service.swift")
        let main = directory.appendingPathComponent("main.swift")
        try migration.output.write(to: service, atomically: true, encoding: .utf8)
        try Self.foundationMain.write(to: main, atomically: true, encoding: .utf8)
        let binary = directory.appendingPathComponent("program")
        for mode in ["5", "6"] {
            let build = try TestSupport.run(TestSupport.swiftc, ["-swift-version", mode, service.path, main.path, "-o", binary.path])
            XCTAssertEqual(build.status, 0, build.standardError)
            XCTAssertFalse(build.standardError.contains("warning:"), build.standardError)
            guard build.status == 0 else { return }
            let run = try TestSupport.run(binary, [])
            XCTAssertEqual(run.status, 0, run.standardError)
            // No continuation leaked or resumed twice.
            XCTAssertFalse(run.standardError.contains("CONTINUATION MISUSE"), run.standardError)
            XCTAssertEqual(run.standardOutput, """
                before: CancellationError
                before: started false, cancel() ran 0 time(s)
                during, later: CancellationError
                during, later: cancel() ran 1 time(s)
                during, silent: CancellationError
                during, silent: cancel() ran 1 time(s)
                after: 42
                after: cancel() ran 0 time(s)
                nothing: neither value nor error

                """, "Swift \(mode) mode")
        }
    }
}

private final class FailureCollector: @unchecked Sendable {
    // Appended to from `concurrentPerform`'s threads.
    private let lock = NSLock()
    private var failures: [String] = []

    func add(_ failure: String) {
        lock.withLock { failures.append(failure) }
    }

    var all: [String] { lock.withLock { failures } }
}
