import VowMigrate
import XCTest

/// Pyramids wherever statements are (closures of any kind, accessors, `static` and local
/// functions, `#if` clauses, a `guard`'s `else`), and code after a call kept where it ran: what
/// each form converts and what it leaves alone, with the reason
/// (`Fixtures/call-sites-in-closures*`, `Fixtures/call-sites-order`).
final class CallSitePlacesTests: XCTestCase {
    private func findings(_ fixture: String, _ target: MigrationTarget, _ kind: Finding.Kind) throws -> [String] {
        let input = try TestSupport.fixture(fixture, "input.swift")
        let migration = SourceMigrator.migrate(source: input, fileName: "input.swift", options: MigrationOptions(target: target, stage: .all))
        return migration.findings.filter { $0.kind == kind }.map { "\($0.line):\($0.column) \($0.function): \($0.message)" }
    }

    private func converted(_ fixture: String, _ target: MigrationTarget) throws -> [String] {
        try findings(fixture, target, .callSiteConverted).map { String($0.prefix { $0 != ":" }) + ":" + $0.split(separator: " ")[1] }
    }

    private static let laterThenTask = "code after the call runs before its callback (the callee calls back later on every path), "
        + "but inside a `Task` the call itself would start after that code; `--to promise` keeps the order, or move that code above the call"

    func testAPyramidInAClosureIsFlattenedWhereItIsAndOnlyLoopsSelfQuestionMarkAndBridgesStay() throws {
        XCTAssertEqual(try findings("call-sites-in-closures", .promise, .callSiteRefused), [
            "89:13 bindWeakly(): the callee is reached through `?.`, so the call may not happen at all",
            "98:13 loginAll(_:): a loop around a callback",
        ])
        // The action, the hop, the closure in a closure, the task, the closure returning a value
        // and the one-line closure; the bridge in `waitForPing()` is no call site at all.
        XCTAssertEqual(try converted("call-sites-in-closures", .promise),
                       ["40:bind():", "56:refreshLater():", "67:bindThenShow():", "78:bindLater():", "117:start():", "127:makeAction():", "137:wrapped():"])
        let promise = try TestSupport.fixture("call-sites-in-closures", "promise.swift")
        XCTAssertTrue(promise.contains("        button.onTap {\n            firstly {\n                api.login(\"ada\")\n"), promise)
    }

    func testInAsyncFormAClosureGetsItsOwnTaskUnlessCodeAfterItMayRunFirst() throws {
        XCTAssertEqual(try findings("call-sites-in-closures", .async, .callSiteRefused), [
            "67:13 bindThenShow(): " + Self.laterThenTask,
            "89:13 bindWeakly(): the callee is reached through `?.`, so the call may not happen at all",
            "98:13 loginAll(_:): a loop around a callback",
            "127:13 makeAction(): " + Self.laterThenTask,
            "137:46 wrapped(): " + Self.laterThenTask,
        ])
        let async = try TestSupport.fixture("call-sites-in-closures", "async.swift")
        // A hop runs later: its `Task` does not move the call past `show("scheduled")`.
        XCTAssertTrue(async.contains("        DispatchQueue.main.async {\n            Task {\n                await api.ping()\n"), async)
        // A new task's closure is async already: no second task.
        XCTAssertTrue(async.contains("        Task {\n            do {\n                let token = try await api.login(\"cy\")\n"), async)
    }

    func testObserversAccessorsStaticAndLocalFunctionsIfConfigClausesAndGuardElsesArePlacesToo() throws {
        XCTAssertEqual(try findings("call-sites-in-closures-places", .promise, .callSiteRefused), [])
        XCTAssertEqual(try converted("call-sites-in-closures-places", .promise),
                       ["23:user.didSet:", "33:nickname.set:", "40:warmUp():", "46:coolDown():", "53:inner():",
                        "62:platform():", "66:platform():", "74:greet(_:):", "85:deferred():"])
        // A `defer` runs after the statement: code after it.
        XCTAssertEqual(try findings("call-sites-in-closures-places", .async, .callSiteRefused), ["85:9 deferred(): " + Self.laterThenTask])
    }

    func testCodeAfterACallKeepsItsPlaceInPromiseFormAndAsyncFormSaysWhyItCannot() throws {
        XCTAssertEqual(try findings("call-sites-order", .promise, .callSiteRefused), [])
        XCTAssertEqual(try findings("call-sites-order", .async, .callSiteRefused), [
            "35:9 load(): " + Self.laterThenTask,
            "45:9 loadCached(): code after the callbacks would run before them inside a `Task` (the callee may call back before it "
                + "returns: its handler is called outside a queue hop on some path, or its body is not in the tree); `--to promise` keeps the order",
            "54:9 poke(): " + Self.laterThenTask,
        ])
    }

    func testInAnAsyncFunctionAwaitingWouldRunTheCallbacksCodeBeforeTheCodeAfterTheCall() {
        // Not a fixture: the call left alone in async code draws the compiler's "consider using
        // asynchronous alternative function" warning.
        let source = """
        import Dispatch
        final class Store: Sendable {
            func fetch(_ key: String, completion: @escaping @Sendable (String?, Error?) -> Void) {
                DispatchQueue.global().async { completion("value-\\(key)", nil) }
            }
        }
        final class Screen: @unchecked Sendable {
            let store = Store()
            func show(_ text: String) {}
            func refresh() async {
                store.fetch("c") { value, error in
                    if let error { self.show("\\(error)"); return }
                    self.show(value!)
                }
                show("waiting")
            }
        }
        """
        let migration = SourceMigrator.migrate(source: source, fileName: "S.swift", options: MigrationOptions(target: .async, stage: .all))
        XCTAssertEqual(migration.findings.filter { $0.kind == .callSiteRefused }.map { "\($0.line):\($0.column) \($0.message)" }, [
            "11:9 code after the call runs before its callback (the callee calls back later on every path), "
                + "but once the call is awaited it would run after the callback's code; `--to promise` keeps the order",
        ])
    }

    func testAPyramidInTheClosureOfAnAmbiguousCallIsFlattenedThereAndTheCallStays() {
        let source = """
        import Dispatch
        final class Api: Sendable {
            func ping(completion: @escaping @Sendable () -> Void) { DispatchQueue.global().async { completion() } }
        }
        final class Sheet: Sendable {
            func dismiss(animated: Bool, completion: @escaping @Sendable (Int) -> Void) { DispatchQueue.main.async { completion(0) } }
        }
        final class Alert: Sendable {
            func dismiss(animated: Bool, completion: @escaping @Sendable (Error?) -> Void) { DispatchQueue.main.async { completion(nil) } }
        }
        let api = Api()
        final class Screen: @unchecked Sendable {
            var presented: () -> Sheet = { Sheet() }
            func show(_ text: String) {}
            func close() {
                let sheet = presented()
                sheet.dismiss(animated: true) { _ in
                    api.ping {
                        self.show("pong")
                    }
                }
            }
        }
        """
        for target in MigrationTarget.allCases {
            let migration = SourceMigrator.migrate(source: source, fileName: "S.swift", options: MigrationOptions(target: target, stage: .all))
            XCTAssertEqual(migration.findings.filter { $0.kind == .callSiteRefused || $0.kind == .callSiteConverted }.map { "\($0.line) \($0.kind)" },
                           ["17 callSiteRefused", "18 callSiteConverted"], "\(target)")
            XCTAssertTrue(migration.output.contains("sheet.dismiss(animated: true) { _ in\n"), migration.output)
            let again = SourceMigrator.migrate(source: migration.output, fileName: "S.swift", options: MigrationOptions(target: target, stage: .all))
            XCTAssertFalse(again.changed, again.output)
        }
    }

    func testTheIndexTellsACalleeThatCallsBackOnlyFromAHopOrATaskFromOneThatMayAnswerAtOnce() {
        let source = """
        import Dispatch
        final class S {
            var cache: [String: Int] = [:]
            func hop(completion: @escaping (Int) -> Void) { DispatchQueue.main.async { completion(1) } }
            func later(completion: @escaping (Int) -> Void) { DispatchQueue.global().asyncAfter(deadline: .now() + 1) { completion(1) } }
            func task(completion: @escaping @Sendable (Int) -> Void) { Task { completion(1) } }
            func direct(completion: @escaping (Int) -> Void) { completion(1) }
            func cached(_ key: String, completion: @escaping (Int) -> Void) {
                guard let value = cache[key] else { DispatchQueue.main.async { completion(0) }; return }
                completion(value)
            }
            func syncHop(completion: @escaping (Int) -> Void) { DispatchQueue.main.sync { completion(1) } }
            func request(completion: @escaping (Int) -> Void) {
                session.dataTask(with: url) { _, _, _ in completion(1) }.resume()
            }
            func workItem(completion: @escaping (Int) -> Void) { DispatchWorkItem { completion(1) }.perform() }
            func handedOn(completion: @escaping (Int) -> Void) { hop(completion: completion) }
            func local(completion: @escaping (Int) -> Void) {
                func answer() { completion(1) }
                DispatchQueue.main.async { answer() }
                answer()
            }
        }
        """
        let index = MigrationIndex(summaries: [MigrationIndex.summarize(source: source, fileName: "S.swift")])
        let later = { (name: String) in index.completionFunctions(baseName: name).first?.callsBackLater }
        XCTAssertEqual(later("hop"), true)
        XCTAssertEqual(later("later"), true)
        XCTAssertEqual(later("task"), true)
        XCTAssertEqual(later("direct"), false)
        XCTAssertEqual(later("cached"), false)
        XCTAssertEqual(later("syncHop"), false)
        XCTAssertEqual(later("request"), true)
        XCTAssertEqual(later("workItem"), false)
        // Handed on: not followed, so not known to call back later.
        XCTAssertEqual(later("handedOn"), false)
        XCTAssertEqual(later("local"), false)
    }
}
