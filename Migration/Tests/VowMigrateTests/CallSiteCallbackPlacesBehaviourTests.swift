import Foundation
import XCTest

/// `Fixtures/call-sites-callback-places`: callbacks the async form keeps as they are, holding a
/// split `success:`/`failure:` pair, values given with an error (`(0, -1, error)`, `(2, error)`),
/// a `defer`, `$0` in a callback and in a closure inside it, a call in a closure that runs later (a prompt's action), and a loop of calls with its
/// `DispatchGroup`. Built with a driver before and after `--stage all`, both forms print the
/// same effects for success and failure at each step, with the fakes answering on a queue of
/// their own and before they return.
final class CallSiteCallbackPlacesBehaviourTests: XCTestCase {
    private static let driver = ProgramBuilding.fixtureDriverPrelude + #"""
        let screen = HikerScreen(shown: { line in
            print("show: \(line)")
            shown.signal()
        })
        Prompt.onAsk = { shown.signal() }

        for synchronous in [false, true] {
            run("followers", [], synchronous: synchronous) { screen.followers(of: "ada") }
            run("followers, nobody", [.neither], synchronous: synchronous) { screen.followers(of: "ada") }
            run("followers, lookup fails", [.failure], synchronous: synchronous) { screen.followers(of: "ada") }
            run("followers, followers fail", [.value, .failure], synchronous: synchronous) { screen.followers(of: "ada") }
            run("climb", [], synchronous: synchronous) { screen.climb("ridge") }
            run("climb, fails", [.failure], synchronous: synchronous) { screen.climb("ridge") }
            run("replay", [], synchronous: synchronous) { screen.replay() }
            run("replay, fails", [.failure], synchronous: synchronous) { screen.replay() }
            run("recount", [], synchronous: synchronous) { screen.recount() }
            run("recount, fails", [.failure], synchronous: synchronous) { screen.recount() }
            run("friends", [], synchronous: synchronous) { screen.listFriends(of: "ada") }
            run("friends, fails", [.failure], synchronous: synchronous) { screen.listFriends(of: "ada") }
            run("suggest", [], synchronous: synchronous) { screen.suggest("ada") }
            run("suggest, follow", [], synchronous: synchronous) { Prompt.tap() }
            run("suggest again", [], synchronous: synchronous) { screen.suggest("bob") }
            run("suggest again, follow fails", [.failure], synchronous: synchronous) { Prompt.tap() }
            run("suggest, nobody", [.neither], synchronous: synchronous) { screen.suggest("ada") }
            run("rank", [], synchronous: synchronous) { screen.rank("dora") }
            run("rank, nobody", [.neither], synchronous: synchronous) { screen.rank("dora") }
            run("rank, lookup fails", [.failure], synchronous: synchronous) { screen.rank("dora") }
        }
        print("== done")

        """#

    func testEveryStepPrintsTheSameEffectsAfterMigrationInBothForms() throws {
        let root = try TestSupport.temporaryDirectory(self)
        let driver = root.appendingPathComponent("main.swift")
        try Self.driver.write(to: driver, atomically: true, encoding: .utf8)
        func run(_ form: String) throws -> String {
            try ProgramBuilding.runFixture("call-sites-callback-places", form: form, as: "Hikers.swift", driver: driver, in: root)
        }
        let expected = try run("input")
        XCTAssertTrue(expected.contains("== followers, followers fail\nlog: found ada\nshow: followers of ada failed: down\n"), expected)
        XCTAssertTrue(expected.contains("== climb, fails\nshow: climb unknown (0, -1): down\n"), expected)
        XCTAssertTrue(expected.contains("== replay, fails\nshow: sent 2, then down\n"), expected)
        XCTAssertTrue(expected.contains("== recount, fails\nlog: recount failed after 2: down\nshow: recount over\n"), expected)
        XCTAssertTrue(expected.contains("== friends\nshow: BOB, CY\n"), expected)
        XCTAssertTrue(expected.contains("== suggest again, follow fails\nshow: could not follow bob\n"), expected)
        XCTAssertTrue(expected.contains("== rank\nshow: scores: bob 30, cy 20, dora 40\n"), expected)
        XCTAssertTrue(expected.hasSuffix("== done\n"), expected)
        let async = try TestSupport.fixture("call-sites-callback-places", "async.swift")
        XCTAssertFalse(async.contains("success: { names in"), "the split pair is flat in async form")
        XCTAssertFalse(async.contains("group.enter()"), "the loop in a callback is a task group in async form")
        try ProgramBuilding.assertSameEffects(expected, forms: ["async", "promise"], run)
    }
}
