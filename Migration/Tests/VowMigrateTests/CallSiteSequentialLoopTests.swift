import VowMigrate
import XCTest

/// Sequential loops at call sites (issue 20, point 5): a local function starting the next call
/// from its callback becomes one `while` loop of `try await` in the async form. What converts is
/// in `Fixtures/call-sites-sequential-loops`, run here before and after in both forms; the shapes
/// that stay recursion are below, each still converted one call at a time.
final class CallSiteSequentialLoopTests: XCTestCase {
    /// Every path of the three loops (the end, a failure at each turn, a skipped turn, an answer
    /// with neither a value nor an error), with callbacks on another queue and before the call
    /// returns: the same effects after migration, in both forms.
    func testLoopsOfCallbacksPrintTheSameEffectsOnEveryPathAfterMigrationInBothForms() throws {
        let steps = """
                    run("upload three", [], synchronous: synchronous) { screen.uploadAll(["a", "bb", "ccc"]) }
                    run("upload, second fails", [.value, .failure], synchronous: synchronous) { screen.uploadAll(["a", "bb", "ccc"]) }
                    run("upload, first fails", [.failure], synchronous: synchronous) { screen.uploadAll(["a", "bb"]) }
                    run("upload nothing", [], synchronous: synchronous) { screen.uploadAll([]) }
                    run("pages", [], synchronous: synchronous) { screen.skippedPage = 0; screen.loadPages(from: 1) }
                    run("pages, skipping 2", [], synchronous: synchronous) { screen.skippedPage = 2; screen.loadPages(from: 1) }
                    run("pages, skipping the first", [], synchronous: synchronous) { screen.skippedPage = 1; screen.loadPages(from: 1) }
                    run("pages, third fails", [.value, .failure], synchronous: synchronous) { screen.skippedPage = 2; screen.loadPages(from: 1) }
                    run("pages, first empty", [.neither], synchronous: synchronous) { screen.skippedPage = 0; screen.loadPages(from: 1) }
                    run("pages, second empty", [.value, .neither], synchronous: synchronous) { screen.loadPages(from: 1) }
                    run("upload until failure", [.value, .value, .failure], synchronous: synchronous) { screen.uploadUntilFailure(["a", "b", "c", "d"]) }
                    run("upload with no failure", [], synchronous: synchronous) { screen.uploadUntilFailure(["a", "b"]) }
                    run("send queued", [], synchronous: synchronous) { screen.sendQueued(["a", "b", "c"]) }
                    run("send queued, second fails", [.value, .failure], synchronous: synchronous) { screen.sendQueued(["a", "b", "c"]) }
                    run("send nothing", [], synchronous: synchronous) { screen.sendQueued([]) }
                    run("backend up", [], synchronous: synchronous) { screen.waitForBackend() }
                    run("backend up second", [.failure], synchronous: synchronous) { screen.waitForBackend() }
                    run("backend down", [.failure, .failure, .failure], synchronous: synchronous) { screen.waitForBackend() }
            """
        let fixture = "call-sites-sequential-loops"
        let (expected, run) = try ProgramBuilding.runScreenFixture(fixture, screen: "AlbumScreen", steps: steps, test: self)
        XCTAssertTrue(expected.contains("""
            == upload, second fails
            log: uploading a
            log: a: 1 bytes
            log: uploading bb
            show: stopped at bb: down [elsewhere]

            """), expected)
        XCTAssertTrue(expected.contains("== pages, skipping 2\nlog: skipping page 2\nshow: pages: [\"p1\", \"p3\"] [elsewhere]\n"), expected)
        XCTAssertTrue(expected.contains("== pages, second empty\nshow: page 2 was empty; kept [\"p1\"] [elsewhere]\n"), expected)
        XCTAssertTrue(expected.contains("== backend down\nlog: attempt 1 failed\nlog: attempt 2 failed\nshow: backend down [elsewhere]\n"), expected)
        XCTAssertTrue(expected.hasSuffix("== done\n"), expected)
        let async = try TestSupport.fixture(fixture, "async.swift")
        for written in ["var nextIndex: Int? = 0\n            while let index = nextIndex {\n                nextIndex = nil\n",
                        "var nextTurn: (number: Int, collected: [String])? = (first, [])\n            while let turn = nextTurn {",
                        "nextTurn = (number + 1, all)\n                    continue\n",
                        "var again = true\n            while again {\n                again = false\n",
                        "Task { [self] in"] {
            XCTAssertTrue(async.contains(written), written)
        }
        XCTAssertFalse(async.contains("func next(_ index: Int)"), "the local function goes")
        XCTAssertFalse(async.contains("func upload(_ index: Int)"), "the local function goes, its callback's `[weak self]` too")
        XCTAssertFalse(async.contains("guard let self"), "the task holds `self` as the local function did")
        XCTAssertTrue(async.contains("""
                private func sendNext(sent: Int) {
                    Task { [self] in
                        var nextSent: Int? = sent
                        while let sent = nextSent {
            """), async)
        XCTAssertTrue(async.contains("nextSent = sent + 1\n"), async)
        try ProgramBuilding.assertSameEffects(expected, forms: ["promise", "async"], run)
    }

    private static let services = """
    import Foundation

    final class Api: Sendable {
        func send(_ id: Int, completion: @escaping @Sendable (Error?) -> Void) {
            DispatchQueue.global().async { completion(nil) }
        }
    }

    final class Screen: @unchecked Sendable {
        let api = Api()
        func show(_ text: String) { print(text) }

    """

    private func migrate(_ body: String) -> (code: String, findings: [String]) {
        let migration = SourceMigrator.migrate(source: Self.services + body + "\n}\n", fileName: "input.swift",
                                               options: MigrationOptions(target: .async, stage: .all))
        let findings = migration.findings.filter { $0.kind == .callSiteRefused || $0.kind == .callSiteConverted }.map {
            ($0.kind == .callSiteConverted ? "converted: " : "left alone: ") + $0.message
        }
        return (migration.output, findings)
    }

    /// Shapes that stay recursion: the loop would change what runs when, or cannot be written.
    /// The call inside the function is then a call site like any other.
    func testShapesThatStayRecursionConvertOneCallAtATime() {
        let oneAtATime = "converted 1 callback to `try await` inside a new `Task { }`, which starts the work when the task runs "
            + "instead of during the call; each callback's code is kept as it was, after constants holding what it would have received"
        let shapes: [(String, String)] = [
            ("code after the start call", """
                func sendAll(_ ids: [Int]) {
                    func next(_ index: Int) {
                        guard index < ids.count else { return }
                        api.send(ids[index]) { _ in next(index + 1) }
                    }
                    next(0)
                    show("started")
                }
            """),
            ("the next call from a queue hop", """
                func sendAll(_ ids: [Int]) {
                    func next(_ index: Int) {
                        guard index < ids.count else { return }
                        api.send(ids[index]) { _ in
                            DispatchQueue.main.async { next(index + 1) }
                        }
                    }
                    next(0)
                }
            """),
            ("code after the next call", """
                func sendAll(_ ids: [Int]) {
                    func next(_ index: Int) {
                        guard index < ids.count else { return }
                        api.send(ids[index]) { _ in
                            next(index + 1)
                            self.show("sent \\(index)")
                        }
                    }
                    next(0)
                }
            """),
            ("a method a subclass may override", """
                class Sender: @unchecked Sendable {
                    let api = Api()
                    func send(_ ids: [Int], from index: Int) {
                        guard index < ids.count else { return }
                        api.send(ids[index]) { _ in self.send(ids, from: index + 1) }
                    }
                }
            """),
            ("a method's weak callback", """
                private func send(_ ids: [Int], from index: Int) {
                    guard index < ids.count else { return }
                    api.send(ids[index]) { [weak self] _ in self?.send(ids, from: index + 1) }
                }
            """),
            ("the function's own handler answered", """
                func sendAll(_ ids: [Int], completion: @escaping @Sendable () -> Void) {
                    func next(_ index: Int) {
                        guard index < ids.count else { completion(); return }
                        api.send(ids[index]) { _ in next(index + 1) }
                    }
                    next(0)
                }
            """),
        ]
        for (name, body) in shapes {
            let (code, findings) = migrate(body)
            XCTAssertFalse(code.contains("while "), name)
            if name == "code after the start call" {
                // Code after it would run before the task's turns; the call inside runs at once in the original.
                XCTAssertTrue(code.contains("func next(_ index: Int)"), name)
            } else {
                XCTAssertEqual(findings, ["converted: " + oneAtATime], name)
            }
        }
    }
}
