import VowMigrate
import XCTest

/// Where the async form's new shapes stop (`Fixtures/call-sites-callback-places` holds what they
/// convert): each limit is a refusal that names the shape, and the pyramid stays as it was.
final class CallSiteCallbackPlacesTests: XCTestCase {
    private static let services = """
        import Dispatch

        enum LoadError: Error { case gone }

        final class Store: @unchecked Sendable {
            func load(completion: @escaping @Sendable (String?, Error?) -> Void) { completion("x", nil) }
            func ping(completion: @escaping @Sendable (Error?) -> Void) { completion(nil) }
            func fetch(success: @escaping @Sendable (String) -> Void, failure: @escaping @Sendable (LoadError) -> Void) { success("x") }
            func show(_ text: String) {}
            func rows(_ run: @escaping @Sendable () -> Void) { run() }

        """

    private func refusals(_ body: String) -> [String] {
        let source = Self.services + body + "}\n"
        let migration = SourceMigrator.migrate(source: source, fileName: "input.swift", options: MigrationOptions(target: .async, stage: .all))
        XCTAssertFalse(migration.findings.contains { $0.kind == .callSiteConverted }, migration.output)
        return migration.findings.filter { $0.kind == .callSiteRefused }.map(\.message)
    }

    func testASplitPairWhoseFailureCallbackTakesATypedErrorIsLeftAlone() {
        XCTAssertEqual(refusals("""
                func open() {
                    fetch(success: { text in self.show(text) }, failure: { error in self.show("\\(error)") })
                }

            """), ["the failure callback takes a typed error, which a `catch` gives as `any Error`; convert this call by hand"])
    }

    func testALoopInACallbackThatIsNotAFanOutKeepsThePyramidWithTheLoopsReason() {
        let reasons = refusals("""
                func sweep() {
                    load { text, error in
                        for _ in 0..<2 {
                            self.ping { _ in self.show("pong") }
                            self.show("sent")
                        }
                    }
                }

            """)
        XCTAssertEqual(reasons.count, 1, "\(reasons)")
        XCTAssertTrue(reasons.first?.hasPrefix("a loop around a callback") == true, "\(reasons)")
    }

    func testADeferInACallbackThatMakesAnotherCallIsLeftAlone() {
        // It ran as the outer callback returned, before `ping` called back.
        XCTAssertEqual(refusals("""
                func sync() {
                    load { text, error in
                        defer { self.show("loaded") }
                        self.ping { _ in self.show("pong") }
                    }
                }

            """), ["`defer` inside a callback that makes another call: it ran before that call's callback, "
                   + "and would run after it in straight-line code; move its code to the end of each path"])
    }

    func testACallInAClosureOfACallbackThatTheStageLeavesAloneKeepsThePyramid() {
        // The closure may run at once (`rows` is not known to run later), before the code after
        // the call in it: the call stays, and with it the whole pyramid.
        XCTAssertEqual(refusals("""
                func refresh() {
                    load { text, error in
                        self.rows {
                            self.ping { _ in self.show("pong") }
                            self.show("after")
                        }
                    }
                }

            """), ["a callback inside a closure of a callback: code after the callbacks would run before them inside a `Task` (the callee may call back "
                   + "before it returns: its handler is called outside a queue hop on some path, or its body is not in the tree); `--to promise` keeps the order"])
    }
}
