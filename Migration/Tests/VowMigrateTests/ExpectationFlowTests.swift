import Foundation
import VowMigrate
import XCTest

/// XCTest expectation flows (`let done = expectation(...)`, a call whose callback fulfils it,
/// then `waitForExpectations(timeout:)` or `wait(for:timeout:)`), the shape of nearly every test
/// of a callback SDK. In async form the call becomes a `Task` that the test's wait waits for: the
/// wait and its timeout are kept, the code after the wait still runs after the callback's code.
/// The suite is built and run before and after (`swiftc` with corelibs XCTest), and every test
/// must end as it did: a test that timed out still times out.
final class ExpectationFlowTests: XCTestCase {
    private static let library = """
        import Foundation

        public enum FeedError: Error, Equatable {
            case missing(Int)
            case offline
        }

        /// A download in flight; `cancel()` stops it without an answer, as `URLSession` tasks
        /// whose callers ignore `NSURLErrorCancelled` do.
        public final class Download: @unchecked Sendable {
            private let lock = NSLock()
            private var finish: ((Result<String, FeedError>) -> Void)?

            init(_ finish: @escaping (Result<String, FeedError>) -> Void) {
                self.finish = finish
            }

            public func cancel() {
                lock.withLock { finish = nil }
            }

            func answer(_ result: Result<String, FeedError>) {
                let finish = lock.withLock { () -> ((Result<String, FeedError>) -> Void)? in
                    defer { self.finish = nil }
                    return self.finish
                }
                finish?(result)
            }
        }

        public final class Feed: @unchecked Sendable {
            public init() {}

            /// Answers later, on another queue.
            public func load(id: Int, completion: @escaping (Result<Int, FeedError>) -> Void) {
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) {
                    completion(id > 0 ? .success(id * 2) : .failure(.missing(id)))
                }
            }

            /// Answers before it returns.
            public func cached(id: Int, completion: @escaping (Int?, Error?) -> Void) {
                if id > 0 {
                    completion(id, nil)
                } else {
                    completion(nil, FeedError.missing(id))
                }
            }

            /// Returns the download, which answers later unless cancelled.
            @discardableResult
            public func download(name: String, completion: @escaping (Result<String, FeedError>) -> Void) -> Download {
                let download = Download(completion)
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) {
                    download.answer(name.isEmpty ? .failure(.offline) : .success(name.uppercased()))
                }
                return download
            }
        }
        """

    private static let tests = """
        import Foundation
        import XCTest

        final class FeedTests: XCTestCase {
            let feed = Feed()

            func testLoad() {
                let done = expectation(description: "loaded")
                feed.load(id: 2) { result in
                    if case .success(let value) = result {
                        XCTAssertEqual(value, 4)
                        done.fulfill()
                    }
                }
                waitForExpectations(timeout: 5)
            }

            func testMissingIsReadAfterTheWait() {
                let done = expectation(description: "missing")
                var received: FeedError?
                feed.load(id: -1) { result in
                    switch result {
                    case .success: XCTFail("should fail")
                    case .failure(let error): received = error
                    }
                    done.fulfill()
                }
                wait(for: [done], timeout: 5)
                XCTAssertEqual(received, .missing(-1))
            }

            func testCachedAnswersAtOnce() {
                let done = expectation(description: "cached")
                feed.cached(id: 3) { value, error in
                    if let error = error {
                        XCTFail("\\(error)")
                        return
                    }
                    guard let value = value else { return }
                    XCTAssertEqual(value, 3)
                    done.fulfill()
                }
                self.waitForExpectations(timeout: 5)
            }

            func testDownloadFailsTyped() {
                let done = expectation(description: "offline")
                feed.download(name: "") { result in
                    if case .failure(let error) = result, case .offline = error {
                        done.fulfill()
                    }
                }
                waitForExpectations(timeout: 5)
            }

            func testTwoLoadsInTurn() {
                let first = expectation(description: "first")
                feed.load(id: 1) { result in
                    XCTAssertEqual(try? result.get(), 2)
                    first.fulfill()
                }
                wait(for: [first], timeout: 5)
                let second = expectation(description: "second")
                feed.download(name: "menu") { result in
                    XCTAssertEqual(try? result.get(), "MENU")
                    second.fulfill()
                }
                wait(for: [second], timeout: 5)
            }

            func testAnExpectationNeverFulfilledStillTimesOut() {
                let done = expectation(description: "never")
                feed.load(id: 4) { result in
                    if case .failure = result {
                        done.fulfill()
                    }
                }
                waitForExpectations(timeout: 0.3)
            }

            /// A helper its tests call and then read: it returns after the callback, having waited.
            func cachedValue(id: Int) -> Int? {
                let done = expectation(description: "cached \\(id)")
                var cachedValue: Int?
                feed.cached(id: id) { value, _ in
                    cachedValue = value
                    done.fulfill()
                }
                wait(for: [done], timeout: 5)
                return cachedValue
            }

            func testAHelperWaitingForItsCallback() {
                XCTAssertEqual(cachedValue(id: 3), 3)
                XCTAssertNil(cachedValue(id: -3))
            }

            func testCodeBetweenTheCallAndTheWaitKeepsTheCallback() {
                let done = expectation(description: "between")
                var answered = false
                feed.cached(id: 5) { _, _ in
                    answered = true
                    done.fulfill()
                }
                XCTAssertTrue(answered)
                waitForExpectations(timeout: 5)
            }
        }
        """

    private static let main = """
        import XCTest

        extension FeedTests {
            static let allTests = [
                ("testLoad", testLoad),
                ("testMissingIsReadAfterTheWait", testMissingIsReadAfterTheWait),
                ("testCachedAnswersAtOnce", testCachedAnswersAtOnce),
                ("testDownloadFailsTyped", testDownloadFailsTyped),
                ("testTwoLoadsInTurn", testTwoLoadsInTurn),
                ("testAnExpectationNeverFulfilledStillTimesOut", testAnExpectationNeverFulfilledStillTimesOut),
                ("testAHelperWaitingForItsCallback", testAHelperWaitingForItsCallback),
                ("testCodeBetweenTheCallAndTheWaitKeepsTheCallback", testCodeBetweenTheCallAndTheWaitKeepsTheCallback),
            ]
        }

        XCTMain([testCase(FeedTests.allTests)])
        """

    /// Each test's outcome, in the order run: `name passed` or `name failed`.
    private func outcomes(of directory: URL, as name: String) throws -> [String] {
        let sources = ["Feed.swift", "FeedTests.swift", "main.swift"].map { directory.appendingPathComponent($0) }
        let binary = directory.appendingPathComponent(name)
        let built = try ProgramBuilding.compile(sources, flags: ["-swift-version", "5"], binary: binary)
        XCTAssertEqual(built.status, 0, "\(name) does not build:\n\(built.standardError)")
        guard built.status == 0 else { return [] }
        let run = try TestSupport.run(binary, [])
        return (run.standardOutput + run.standardError).split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("Test Case '"), !line.contains("' started at ") else { return nil }
            let name = line.dropFirst("Test Case '".count).prefix { $0 != "'" }
            return "\(name) \(line.contains("' passed (") ? "passed" : "failed")"
        }
    }

    func testTheAsyncFormKeepsEveryTestsOutcomeAndItsWait() throws {
        let root = try TestSupport.temporaryDirectory(self)
        let tree = root.appendingPathComponent("Feed")
        try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: true)
        try Self.library.write(to: tree.appendingPathComponent("Feed.swift"), atomically: true, encoding: .utf8)
        try Self.tests.write(to: tree.appendingPathComponent("FeedTests.swift"), atomically: true, encoding: .utf8)
        let expected = [
            "FeedTests.testLoad passed",
            "FeedTests.testMissingIsReadAfterTheWait passed",
            "FeedTests.testCachedAnswersAtOnce passed",
            "FeedTests.testDownloadFailsTyped passed",
            "FeedTests.testTwoLoadsInTurn passed",
            "FeedTests.testAnExpectationNeverFulfilledStillTimesOut failed",
            "FeedTests.testAHelperWaitingForItsCallback passed",
            "FeedTests.testCodeBetweenTheCallAndTheWaitKeepsTheCallback passed",
        ]
        let original = root.appendingPathComponent("original")
        try FileManager.default.copyItem(at: tree, to: original)
        try Self.main.write(to: original.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try outcomes(of: original, as: "original"), expected)

        let migration = try TestSupport.migrate([tree.path, "--to", "async", "--stage", "all", "--swift-version", "5", "--in-place"])
        XCTAssertEqual(migration.status, 0, migration.standardError)
        XCTAssertTrue(migration.standardError.contains("8 call sites converted, 1 left alone"), migration.standardError)
        XCTAssertTrue(migration.standardError.contains("FeedTests.swift:101:9: call site left alone in `testCodeBetweenTheCallAndTheWaitKeepsTheCallback()`: code after the callbacks"),
                      migration.standardError)
        let migrated = try String(contentsOf: tree.appendingPathComponent("FeedTests.swift"), encoding: .utf8)
        // Every wait is where it was, with its timeout; each converted call is one task.
        XCTAssertEqual(migrated.components(separatedBy: "Task {").count - 1, 8)
        for wait in ["waitForExpectations(timeout: 5)", "wait(for: [done], timeout: 5)", "self.waitForExpectations(timeout: 5)",
                     "wait(for: [first], timeout: 5)", "wait(for: [second], timeout: 5)", "waitForExpectations(timeout: 0.3)"] {
            XCTAssertTrue(migrated.contains(wait), wait)
        }
        // The download's alternative throws `CancellationError` besides its typed failure, when
        // its task is cancelled: in the test's own task, which nobody cancels, it never is.
        XCTAssertTrue(migrated.contains("} catch let error as FeedError {\n                result = .failure(error)\n            } catch {\n                return // `CancellationError`: nobody cancels this task\n            }"),
                      migrated)
        try Self.main.write(to: tree.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try outcomes(of: tree, as: "async"), expected, migrated)

        let again = try TestSupport.migrate([tree.path, "--to", "async", "--stage", "all", "--swift-version", "5", "--check"])
        XCTAssertEqual(again.status, 0, again.standardError)
    }

    /// In Swift 6 mode a `Task` may not take the test's non-`Sendable` state (`self`, a `var` read
    /// after the wait) while the test goes on using it: the flow converts only where the test and
    /// the task share the main actor (the class or the method written `@MainActor`).
    func testInSwift6ModeOnlyAMainActorTestConverts() {
        func converted(_ annotation: String, _ mode: SwiftLanguageMode) -> Int {
            let source = Self.library + "\n" + Self.tests.replacingOccurrences(of: "import Foundation\nimport XCTest\n", with: "import XCTest\n")
                .replacingOccurrences(of: "final class FeedTests", with: annotation + "final class FeedTests")
            let migration = SourceMigrator.migrate(source: source, fileName: "FeedTests.swift",
                                                   options: MigrationOptions(target: .async, stage: .all, languageMode: mode))
            return migration.findings.filter { $0.kind == .callSiteConverted }.count
        }
        XCTAssertEqual(converted("", .v5), 8)
        XCTAssertEqual(converted("", .v6), 0)
        XCTAssertEqual(converted("@MainActor\n", .v6), 8)
    }

    /// Alternatives added first (`--stage declarations`), call sites moved later (`--stage
    /// call-sites`): the existing alternatives are read for what they throw (`throws(FeedError)`,
    /// or the tool's own `throws` of a function returning its handle, which adds only
    /// `CancellationError`), and the result is what one `--stage all` run writes.
    func testTwoStepsWriteWhatOneRunWrites() throws {
        let root = try TestSupport.temporaryDirectory(self)
        var outputs: [String] = []
        for stages in [["all"], ["declarations", "call-sites"]] {
            let tree = root.appendingPathComponent(stages.joined(separator: "-"))
            try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: true)
            try Self.library.write(to: tree.appendingPathComponent("Feed.swift"), atomically: true, encoding: .utf8)
            try Self.tests.write(to: tree.appendingPathComponent("FeedTests.swift"), atomically: true, encoding: .utf8)
            for stage in stages {
                let run = try TestSupport.migrate([tree.path, "--to", "async", "--stage", stage, "--swift-version", "5", "--in-place"])
                XCTAssertEqual(run.status, 0, run.standardError)
            }
            outputs.append(try ["Feed.swift", "FeedTests.swift"].map {
                try String(contentsOf: tree.appendingPathComponent($0), encoding: .utf8)
            }.joined(separator: "\n"))
        }
        XCTAssertTrue(outputs[0].contains("} catch let error as FeedError {"), outputs[0])
        XCTAssertTrue(outputs[0].contains("do throws(FeedError) {"), outputs[0])
        XCTAssertEqual(outputs[0], outputs[1])
    }
}
