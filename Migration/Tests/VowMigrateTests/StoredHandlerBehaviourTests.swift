import Foundation
import XCTest

/// `--trust-stored-handlers` on a function that keeps its handler in a collection, built and run:
/// the promise alternative answers with the value when the handler is called once, keeps the first
/// answer without crashing when it is called twice, and stays pending when it is never called
/// (until the handler is dropped: then a waiter gets `VowError.abandoned`). The async form refuses
/// the function (a continuation resumed twice traps) and changes nothing.
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
    }

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

    func testTheTrustedPromiseAlternativeKeepsTheFirstAnswerAndStaysPendingWithoutOne() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let relay = directory.appendingPathComponent("Relay.swift")
        try Self.relay.write(to: relay, atomically: true, encoding: .utf8)

        let refused = try TestSupport.migrate([relay.path, "--to", "async", "--trust-stored-handlers", "--in-place"])
        XCTAssertEqual(refused.status, 0, refused.standardError)
        XCTAssertTrue(refused.standardError.contains(
            "skipped `wait(completion:)`: it stores its handler in `handlers`; --trust-stored-handlers adds only the promise alternative"),
                      refused.standardError)
        XCTAssertEqual(try String(contentsOf: relay, encoding: .utf8), Self.relay)

        let untrusted = try TestSupport.migrate([relay.path, "--to", "promise", "--check"])
        XCTAssertEqual(untrusted.status, 0, untrusted.standardError)
        let migrated = try TestSupport.migrate([relay.path, "--to", "promise", "--trust-stored-handlers", "--in-place"])
        XCTAssertEqual(migrated.status, 0, migrated.standardError)
        XCTAssertTrue(migrated.standardError.contains("1 alternative added"), migrated.standardError)
        let again = try TestSupport.migrate([relay.path, "--to", "promise", "--trust-stored-handlers", "--check"])
        XCTAssertEqual(again.status, 0, "a second run changes something:\n\(again.standardOutput)")

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
