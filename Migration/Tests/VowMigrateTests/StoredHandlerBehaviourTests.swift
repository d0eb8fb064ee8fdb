import Foundation
import XCTest

/// `--trust-stored-handlers` on a function that keeps its handler in a collection, built and run:
/// the promise alternative answers with the value when the handler is called once, keeps the first
/// answer without crashing when it is called twice, and stays pending when it is never called
/// (until the handler is dropped: then a waiter gets `VowError.abandoned`). The async form goes
/// through the file's resume-once bridge: the value when called once, the first answer and one
/// printed line when called twice (a second resume would trap), and an await that does not
/// return when never called; in a file without Foundation it refuses the function.
final class StoredHandlerBehaviourTests: XCTestCase {
    private static let relay = """
    import Foundation

    final class Relay: @unchecked Sendable {
        private let lock = NSLock()
        private var handlers: [@Sendable (Result<Int, Error>) -> Void] = []

        func wait(completion: @escaping @Sendable (Result<Int, Error>) -> Void) {
            lock.lock()
            handlers.append(completion)
            lock.unlock()
        }

        func answer(_ value: Int) {
            lock.lock()
            let current = handlers
            lock.unlock()
            for handler in current {
                handler(.success(value))
            }
        }

        func drop() {
            lock.lock()
            handlers = []
            lock.unlock()
        }

        var waiting: Int {
            lock.lock()
            defer { lock.unlock() }
            return handlers.count
        }
    }

    """

    private static let asyncProgram = """
    import Foundation

    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var raised = false
        func raise() { lock.lock(); raised = true; lock.unlock() }
        var isRaised: Bool { lock.lock(); defer { lock.unlock() }; return raised }
    }

    func answers(_ values: [Int]) async -> String {
        let relay = Relay()
        let task = Task { try await relay.wait() }
        while relay.waiting == 0 { await Task.yield() }
        for value in values { relay.answer(value) }
        do { return "\\(try await task.value)" } catch { return "\\(error)" }
    }

    print("once: \\(await answers([1]))")
    print("twice: \\(await answers([2, 3]))")

    let never = Relay()
    let done = Flag()
    Task {
        _ = try? await never.wait()
        done.raise()
    }
    while never.waiting == 0 { await Task.yield() }
    try await Task.sleep(nanoseconds: 200_000_000)
    print("never: returned \\(done.isRaised)")

    """

    private static let program = """
    import Foundation
    import Vow

    conf.diagnosticHandler = { print("diagnostic: \\($0)") }

    let once = Relay()
    let first = once.wait()
    once.answer(1)
    print("once: \\(String(describing: first.result))")

    let twice = Relay()
    let kept = twice.wait()
    twice.answer(2)
    twice.answer(3)
    print("twice: \\(String(describing: kept.result))")

    let never = Relay()
    let pending = never.wait()
    print("never: pending \\(pending.isPending)")
    never.drop()
    // Off the main thread, where `wait()` belongs.
    let waited = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        do {
            _ = try pending.wait()
            print("never: fulfilled")
        } catch {
            print("never, dropped: \\(error)")
        }
        waited.signal()
    }
    waited.wait()

    """

    /// Migrates `file` with `--trust-stored-handlers`: one alternative added, a second run changes nothing.
    private func migrateTrusting(_ file: URL, to target: String) throws {
        let migrated = try TestSupport.migrate([file.path, "--to", target, "--trust-stored-handlers", "--in-place"])
        XCTAssertEqual(migrated.status, 0, migrated.standardError)
        XCTAssertTrue(migrated.standardError.contains("1 alternative added"), migrated.standardError)
        let again = try TestSupport.migrate([file.path, "--to", target, "--trust-stored-handlers", "--check"])
        XCTAssertEqual(again.status, 0, "a second run changes something:\n\(again.standardOutput)")
    }

    func testTheTrustedAsyncAlternativeKeepsTheFirstAnswerDropsTheLaterAndWaitsWithoutOne() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let relay = directory.appendingPathComponent("Relay.swift")
        try Self.relay.write(to: relay, atomically: true, encoding: .utf8)
        try migrateTrusting(relay, to: "async")
        let output = try String(contentsOf: relay, encoding: .utf8)
        XCTAssertTrue(output.contains("let continuation = ResumeOnce(continuation, function: \"wait(completion:)\")"), output)
        XCTAssertFalse(output.contains("import Vow"), output)

        let main = directory.appendingPathComponent("main.swift")
        try Self.asyncProgram.write(to: main, atomically: true, encoding: .utf8)
        let run = try ProgramBuilding.buildAndRun([relay, main], binary: directory.appendingPathComponent("program"))
        XCTAssertEqual(run, """
        once: 1
        vow-migrate: `wait(completion:)` answered again; the later answer is dropped
        twice: 2
        never: returned false

        """)
    }

    func testTheTrustedPromiseAlternativeKeepsTheFirstAnswerAndStaysPendingWithoutOne() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let relay = directory.appendingPathComponent("Relay.swift")
        try Self.relay.write(to: relay, atomically: true, encoding: .utf8)

        // Without Foundation the async form has no lock for its bridge: refused, nothing changed.
        let bare = directory.appendingPathComponent("Bare.swift")
        let bareSource = "final class Bare: @unchecked Sendable {\n    var handlers: [@Sendable (Int) -> Void] = []\n"
            + "    func wait(completion: @escaping @Sendable (Int) -> Void) { handlers.append(completion) }\n}\n"
        try bareSource.write(to: bare, atomically: true, encoding: .utf8)
        let refused = try TestSupport.migrate([bare.path, "--to", "async", "--trust-stored-handlers", "--in-place"])
        XCTAssertEqual(refused.status, 0, refused.standardError)
        XCTAssertTrue(refused.standardError.contains(
            "skipped `wait(completion:)`: it stores its handler in `handlers`; --trust-stored-handlers adds the async alternative only in a file that imports Foundation"),
                      refused.standardError)
        XCTAssertEqual(try String(contentsOf: bare, encoding: .utf8), bareSource)
        try FileManager.default.removeItem(at: bare)

        let untrusted = try TestSupport.migrate([relay.path, "--to", "promise", "--check"])
        XCTAssertEqual(untrusted.status, 0, untrusted.standardError)
        try migrateTrusting(relay, to: "promise")

        let main = directory.appendingPathComponent("main.swift")
        try Self.program.write(to: main, atomically: true, encoding: .utf8)
        let output = try ProgramBuilding.buildAndRun([relay, main], binary: directory.appendingPathComponent("program"))
        XCTAssertEqual(output, """
        once: Optional(Vow.Result<Swift.Int>.fulfilled(1))
        diagnostic: Vow: a promise created at program/Relay.swift:16 was resolved more than once; the later result was ignored
        twice: Optional(Vow.Result<Swift.Int>.fulfilled(2))
        never: pending true
        diagnostic: Vow: the resolver of a pending promise created at program/Relay.swift:16 was deallocated without settling it; \
        the promise was rejected with VowError.abandoned
        never, dropped: The promise's resolver was deallocated while the promise was pending

        """)
    }
}
