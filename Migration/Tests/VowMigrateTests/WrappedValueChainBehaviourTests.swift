import Foundation
import XCTest

/// Chains used as values on a call `--replace --to async` makes async (a closure's answer, a
/// constant given its promise on each path, a `cauterize()` on the call): each becomes one
/// Vow's `Promise { }` bridge around the chain's code (``WrappedValueChains``). Built and run before
/// and after, called from the main queue for success and a failure at each step: the effects, their
/// order and the queue they run on stay the same. (Chains running side by side, as under `when`,
/// are one chain each here: the relative order of two such branches' steps depends on when each
/// task starts, as for any chain moved into a task.)
final class WrappedValueChainBehaviourTests: XCTestCase {
    private static let shop = """
    import Vow

    final class Shop: Sendable {
        func price(_ name: String, fails: Bool) -> Promise<String> {
            fetch(name, fails: fails).map { value in "$" + value }
        }

        func prices(_ names: [String], failing: String) -> Promise<[String?]> {
            let checks = names.map { name in
                price(name, fails: name == failing).map { value -> String? in
                    log("priced \\(value)")
                    return value
                }.recover { error -> Guarantee<String?> in
                    log("skipped \\(name): \\(error)")
                    return .value(nil)
                }
            }
            log("asked for \\(names.count)")
            return when(fulfilled: checks.map { Promise($0) })
        }

        func open(_ kind: String, failing: Bool) -> Promise<String> {
            let chosen: Promise<String>
            if kind == "a" {
                chosen = price("a", fails: failing).map { value in
                    log("mapping \\(value)")
                    return "a:" + value
                }
            } else {
                chosen = price(kind, fails: failing)
            }
            log("opening \\(kind)")
            return chosen.recover { error -> Promise<String> in
                log("recovering from \\(error)")
                guard kind == "a" else { throw error }
                return .value("fallback")
            }
        }

        // Answers at once: the chain's code still runs after the code after it, as a handler did.
        func cached(_ name: String) -> Promise<String> {
            .value("cached-" + name)
        }

        func show(_ name: String) -> Promise<String> {
            let shown = cached(name).map { value -> String in
                log("showing \\(value)")
                return value
            }
            log("asked for \\(name)")
            return shown
        }

        func remember(_ name: String, failing: Bool) {
            price(name, fails: failing).cauterize()
            log("remembering \\(name)")
        }
    }
    """

    /// The driver: one scenario at a time from the main queue, `use` the function's answer in the
    /// form at hand.
    private static func driver(async: Bool) -> String {
        func use(_ call: String) -> String {
            async ? """
            Task { @MainActor in
                do { log("value \\(try await \(call))") } catch { log("error \\(error)") }
                finished.signal()
            }
            """ : """
            \(call).done { log("value \\($0)") }.catch { log("error \\($0)") }.finally { finished.signal() }
            """
        }
        return """
        import Dispatch
        import Foundation
        import Vow

        DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
        conf.logHandler = { event in log("logged \\(event)") }
        let shop = Shop()
        let scenarios: [(String, @MainActor @Sendable (DispatchSemaphore) -> Void)] = [
            ("prices", { finished in \(use("shop.prices([\"x\"], failing: \"\")")) }),
            ("prices, x fails", { finished in \(use("shop.prices([\"x\"], failing: \"x\")")) }),
            ("open a", { finished in \(use("shop.open(\"a\", failing: false)")) }),
            ("open a, fails", { finished in \(use("shop.open(\"a\", failing: true)")) }),
            ("open b, fails", { finished in \(use("shop.open(\"b\", failing: true)")) }),
            ("show", { finished in \(use("shop.show(\"c\")")) }),
            ("remember", { finished in
                shop.remember("r", failing: false)
                DispatchQueue.main.asyncAfter(deadline: .now() + 0.2) { finished.signal() }
            }),
            ("remember, fails", { finished in
                shop.remember("r", failing: true)
                DispatchQueue.main.asyncAfter(deadline: .now() + 0.2) { finished.signal() }
            }),
        ]
        Thread.detachNewThread {
            for (name, run) in scenarios {
                let finished = DispatchSemaphore(value: 0)
                DispatchQueue.main.sync { print("== \\(name)") }
                // From a task on the main actor: on Linux the main queue runs on a thread of its own,
                // where `Task.immediate` (under `Promise.immediate`) cannot tell it is on the main
                // actor outside a task and queues the body; on Apple platforms it is the main thread.
                DispatchQueue.main.async { Task { @MainActor in run(finished) } }
                if finished.wait(timeout: .now() + 5) == .timedOut { print("TIMED OUT") }
            }
            exit(0)
        }
        dispatchMain()
        """
    }

    func testChainsUsedAsValuesOnCallsMadeAsyncKeepTheirEffectsInOrder() throws {
        let root = try TestSupport.temporaryDirectory(self)
        let support = TestSupport.fixturesDirectory.deletingLastPathComponent().appendingPathComponent("PromiseFunctionProgram/Support.swift")
        var outputs: [String] = []
        for form in ["promise", "async"] {
            let directory = root.appendingPathComponent(form)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: support, to: directory.appendingPathComponent("Support.swift"))
            let shop = directory.appendingPathComponent("Shop.swift")
            try Self.shop.write(to: shop, atomically: true, encoding: .utf8)
            try Self.driver(async: form == "async").write(to: directory.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
            if form == "async" {
                let result = try TestSupport.migrate([shop.path, "--to", "async", "--replace", "--stage", "call-sites", "--in-place"])
                XCTAssertEqual(result.status, 0, result.standardError)
                XCTAssertTrue(result.standardError.contains("0 left alone"), result.standardError)
                let migrated = try String(contentsOf: shop, encoding: .utf8)
                // Each chain on `price` became one wrapper; none is left.
                XCTAssertFalse(migrated.contains("}.recover") || migrated.contains(".cauterize()") || migrated.contains(".map { value"), migrated)
                XCTAssertTrue(migrated.contains("@MainActor func open(_ kind: String, failing: Bool) async throws -> String {"), migrated)
            }
            let sources = ["Support.swift", "Shop.swift", "main.swift"].map { directory.appendingPathComponent($0) }
            outputs.append(try ProgramBuilding.buildAndRun(sources, binary: directory.appendingPathComponent("program")))
        }
        let expected = outputs[0]
        XCTAssertFalse(expected.contains("TIMED OUT"), expected)
        XCTAssertTrue(expected.contains("== prices, x fails\n[main] fetch(x) called\n[main] asked for 1\n[main] skipped x: failed(\"x\")\n[main] value [nil]\n"), expected)
        XCTAssertTrue(expected.contains("== open a, fails\n[main] fetch(a) called\n[main] opening a\n[main] recovering from failed(\"a\")\n[main] value fallback\n"), expected)
        XCTAssertTrue(expected.contains("== show\n[main] asked for c\n[main] showing cached-c\n[main] value cached-c\n"), expected)
        XCTAssertTrue(expected.contains("== remember, fails\n[main] fetch(r) called\n[main] remembering r\n[main] logged cauterized("), expected)
        if outputs[1] != expected {
            XCTFail("--replace behaves differently:\n" + UnifiedDiffText.make(expected, outputs[1]))
        }
    }
}
