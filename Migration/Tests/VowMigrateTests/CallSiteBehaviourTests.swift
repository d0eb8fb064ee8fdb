import Foundation
import XCTest

/// `BehaviourProgram/` (fake services that answer on their own queue, each step able to fail and
/// each Bool flag able to be false, and a view model full of callback pyramids) is built and run
/// before and after `--stage all` in both forms: every scenario must print the same effects, in
/// the same order, on the same kind of queue (main or background). Existing promise chains go to
/// async too, and so does the promise form itself (`--to async --stage call-sites` on it).
/// `Places.swift` holds pyramids outside plain method bodies (an action bound in an initializer,
/// an observer, a hop, a `guard`'s `else`, a task) and a callee that may answer before it
/// returns, with code after the call.
final class CallSiteBehaviourTests: XCTestCase {
    private static var programDirectory: URL {
        TestSupport.fixturesDirectory.deletingLastPathComponent().appendingPathComponent("BehaviourProgram")
    }

    private func buildAndRun(_ directory: URL) throws -> String {
        try ProgramBuilding.buildAndRun(TestSupport.swiftFiles(in: directory), binary: directory.appendingPathComponent("program"))
    }

    private func migratedCopy(_ target: String, in root: URL) throws -> (URL, TestSupport.ProcessResult) {
        let directory = root.appendingPathComponent(target)
        try FileManager.default.copyItem(at: Self.programDirectory, to: directory)
        let result = try TestSupport.migrate([directory.path, "--to", target, "--stage", "all", "--in-place"])
        XCTAssertEqual(result.status, 0, result.standardError)
        return (directory, result)
    }

    func testEveryScenarioPrintsTheSameEffectsBeforeAndAfterMigrationInBothForms() throws {
        let root = try TestSupport.temporaryDirectory(self)
        let original = root.appendingPathComponent("original")
        try FileManager.default.copyItem(at: Self.programDirectory, to: original)
        let (promise, promiseRun) = try migratedCopy("promise", in: root)
        let (async, asyncRun) = try migratedCopy("async", in: root)
        // The road from promises to async: the promise form's flat chains, and the program's own,
        // moved on with `--to async --stage call-sites`.
        let onward = root.appendingPathComponent("promise-then-async")
        try FileManager.default.copyItem(at: promise, to: onward)
        let onwardRun = try TestSupport.migrate([onward.path, "--to", "async", "--stage", "call-sites", "--in-place"])
        XCTAssertEqual(onwardRun.status, 0, onwardRun.standardError)
        // The promise form's own chains without a `catch` (`when(guarantees:).done { }`, a
        // `done(on: nil)` with code after it, refused as any `on: nil` chain there; a `map(on: .global())`) count too.
        XCTAssertTrue(onwardRun.standardError.contains("23 call sites converted, 2 left alone"), onwardRun.standardError)
        // Handlers `on: nil` after a callee that may answer at once ran before the code after the chain.
        XCTAssertTrue(onwardRun.standardError.contains("Places.swift:115:9: call site left alone in `peek()`: code after the chain: its handlers run `on: nil`"),
                      onwardRun.standardError)

        // What was converted and what was refused, so a regression shows here first.
        XCTAssertTrue(promiseRun.standardError.contains("17 call sites converted, 0 left alone"), promiseRun.standardError)
        XCTAssertTrue(asyncRun.standardError.contains("24 call sites converted, 2 left alone"), asyncRun.standardError)
        let chains = try String(contentsOf: async.appendingPathComponent("Chains.swift"), encoding: .utf8)
        XCTAssertTrue(chains.contains("let tokenPromise = promisedLogin(user)\n        Task { @MainActor in"), chains)
        XCTAssertTrue(chains.contains("Trace.shared.record(\"nesting with \\(token)\", final: false)\n                do {\n"
                                      + "                    let profile = try await promisedProfile(token).value\n"), chains)
        XCTAssertTrue(asyncRun.standardError.contains("Flows.swift:77:9: call site left alone in `kick()`: code after the call runs before its callback (the callee calls back later on every path)"),
                      asyncRun.standardError)
        let flows = try String(contentsOf: promise.appendingPathComponent("Flows.swift"), encoding: .utf8)
        XCTAssertTrue(flows.contains("}.done(on: .mainActor) { [weak self] profile in"), flows)
        XCTAssertTrue(flows.contains("case CheckFailure.fetchSystemData:"), flows)
        XCTAssertTrue(flows.contains("return api.profile(token).recover(on: nil, policy: .allErrors) { error -> Promise<Profile> in throw RefreshFailure.profile(error) }"), flows)
        XCTAssertTrue(flows.contains("case RefreshFailure.login(let error):"), flows)

        // The yardstick: nested completion closures (a pyramid level) fall to at most 20%
        // of the original's in each form.
        let before = try CallbackPyramids.count(in: TestSupport.swiftFiles(in: original))
        let promiseAfter = try CallbackPyramids.count(in: TestSupport.swiftFiles(in: promise))
        let asyncAfter = try CallbackPyramids.count(in: TestSupport.swiftFiles(in: async))
        XCTAssertEqual([before.nested, promiseAfter.nested, asyncAfter.nested], [10, 0, 0])
        XCTAssertLessThanOrEqual(promiseAfter.nested * 5, before.nested)
        XCTAssertLessThanOrEqual(asyncAfter.nested * 5, before.nested)

        let expected = try buildAndRun(original)
        XCTAssertTrue(expected.contains("== check, system declined\n[background] fetchNetworkData called\n[background] fetchSystemData called\n[background] show: no system\n"), expected)
        XCTAssertTrue(expected.contains("[main] render: name-token-ada"), expected)
        XCTAssertTrue(expected.contains("== chained, profile fails\n[background] login(eve) called\n[main] profile(token-eve) called\n[main] present: failed(\"profile\")\n"), expected)
        // The chain constructs: recover, ensure before catch and finally after it, compactMap's error.
        XCTAssertTrue(expected.contains("== recovering, profile fails\n[background] login(ann) called\n[main] profile(token-ann) called\n[main] log: recovering from failed(\"profile\")\n[main] profile(backup) called\n[main] present: failed(\"profile\")\n"), expected)
        XCTAssertTrue(expected.contains("[main] log: spinner off\n[main] log: caught failed(\"login\")\n[main] show: finished\n"), expected)
        XCTAssertTrue(expected.contains("[main] log: counted\n[main] present: Could not `compactMap<Int>`: token-eve\n"), expected)
        XCTAssertTrue(expected.contains("== settling\n[background] login(lee) called\n[background] profile(token-lee) called\n[background] show: settled name-token-lee\n"), expected)
        XCTAssertTrue(expected.contains("== hopping\n[background] login(joe) called\n[background] profile(token-joe) called\n[main] render: name-token-joe\n"), expected)
        // Pyramids in a button's action, an observer, a hop, a guard's else and a task; a cache answering at once.
        XCTAssertTrue(expected.contains("== hop\n[background] log: hop scheduled\n[background] login(hal) called\n[background] show: hopped token-hal\n"), expected)
        XCTAssertTrue(expected.contains("== peek\n[background] lookup(key) called\n[background] log: peeked cached-key\n[background] show: after peek\n"), expected)
        XCTAssertTrue(asyncRun.standardError.contains("Places.swift:102:9: call site left alone in `peek()`: code after the callbacks would run before them inside a `Task` (the callee may call back before it returns"),
                      asyncRun.standardError)
        let places = try String(contentsOf: async.appendingPathComponent("Places.swift"), encoding: .utf8)
        XCTAssertTrue(places.contains("        button.onTap {\n            Task {\n"), places)
        // Fan-outs: the calls start together, the callbacks run as the answers come (shortest
        // name first, not in loop order), the notify block after the last, one failure or none.
        XCTAssertTrue(expected.contains("== fetchAvatars, one fails\n[background] avatar(anna) called\n[background] avatar(bob) called\n[background] avatar(cy) called\n[background] log: avatar https://example.com/cy.png\n[background] log: no avatar for bob: failed(\"avatar-bob\")\n[background] log: avatar https://example.com/anna.png\n[main] show: avatars done\n"), expected)
        XCTAssertTrue(expected.contains("[background] log: bob failed: failed(\"score-bob\")\n[background] log: cy scored 2\n[main] show: total 5, failed [\"bob\"]\n"), expected)
        XCTAssertTrue(expected.contains("== pingAll, empty\n[main] show: pinged 0\n"), expected)
        let fanOuts = try String(contentsOf: async.appendingPathComponent("FanOut.swift"), encoding: .utf8)
        XCTAssertTrue(fanOuts.contains("let executor = FanOutExecutor()\n            await withTaskExecutorPreference(executor) {"), fanOuts)
        XCTAssertTrue(fanOuts.contains("group.addTask {\n                            await executor.answer {\n"), fanOuts)
        XCTAssertTrue(try String(contentsOf: promise.appendingPathComponent("FanOut.swift"), encoding: .utf8).contains("when(guarantees: group).done(on: .main) {"))
        XCTAssertFalse(expected.contains("TIMED OUT"), expected)
        for directory in [promise, async, onward] {
            let actual = try buildAndRun(directory)
            if actual != expected {
                XCTFail("\(directory.lastPathComponent) behaves differently:\n" +
                        UnifiedDiffText.make(expected, actual))
            }
        }
    }
}

extension CallSiteBehaviourTests {
    private static var promiseFunctionDirectory: URL {
        TestSupport.fixturesDirectory.deletingLastPathComponent().appendingPathComponent("PromiseFunctionProgram")
    }

    /// `PromiseFunctionProgram/`: a function returning a promise whose body is one chain (then, get,
    /// ensure, compactMap, recover), called from the main queue for success and a failure at each
    /// step. Its caller is written by hand in both forms (`--replace` changes the signature); the
    /// function is migrated with `--replace --to async` and the effects must stay the same.
    func testAFunctionWhoseBodyIsOneChainBehavesTheSameAfterReplace() throws {
        let root = try TestSupport.temporaryDirectory(self)
        var directories: [URL] = []
        for (name, caller) in [("promise", "main-promise.txt"), ("async", "main-async.txt")] {
            let directory = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for file in ["Support.swift", "Model.swift"] {
                try FileManager.default.copyItem(at: Self.promiseFunctionDirectory.appendingPathComponent(file),
                                                 to: directory.appendingPathComponent(file))
            }
            try FileManager.default.copyItem(at: Self.promiseFunctionDirectory.appendingPathComponent(caller),
                                             to: directory.appendingPathComponent("main.swift"))
            directories.append(directory)
        }
        let model = directories[1].appendingPathComponent("Model.swift")
        let result = try TestSupport.migrate([model.path, "--to", "async", "--replace", "--stage", "call-sites", "--in-place"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(result.standardError.contains("1 call site converted, 0 left alone"), result.standardError)
        XCTAssertTrue(try String(contentsOf: model, encoding: .utf8).contains("@MainActor func load(_ user: String, failing: String) async throws -> Int {"))

        let expected = try buildAndRun(directories[0])
        XCTAssertTrue(expected.contains("== count\n[main] fetch(login-ada) called\n[main] fetch(profile-v-login-ada) called\n[main] got v-profile-v-login-ada\n[main] settled\n[main] recovering from Could not `compactMap<Int>`: v-profile-v-login-ada\n[main] value -1\n"), expected)
        XCTAssertTrue(expected.contains("== login\n[main] fetch(login-ada) called\n[main] settled\n[main] recovering from failed(\"login-ada\")\n[main] error failed(\"login-ada\")\n"), expected)
        let actual = try buildAndRun(directories[1])
        if actual != expected {
            XCTFail("--replace behaves differently:\n" + UnifiedDiffText.make(expected, actual))
        }
    }
}

/// A line diff for failure messages.
enum UnifiedDiffText {
    static func make(_ old: String, _ new: String) -> String {
        let oldLines = old.split(separator: "\n", omittingEmptySubsequences: false)
        let newLines = new.split(separator: "\n", omittingEmptySubsequences: false)
        var text = ""
        for index in 0..<max(oldLines.count, newLines.count) {
            let before = index < oldLines.count ? String(oldLines[index]) : "<none>"
            let after = index < newLines.count ? String(newLines[index]) : "<none>"
            if before != after { text += "line \(index + 1): expected `\(before)`, got `\(after)`\n" }
        }
        return text
    }
}
