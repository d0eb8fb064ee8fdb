import Foundation
import XCTest

/// `Fixtures/call-sites-answers`: callbacks that give meaning to every answer (`(nil, nil)` is
/// "nobody", `(false, nil)` "declined", a missing size "pending"), with a `guard` first, code
/// before a `switch`, `$0`, several values, and an inner call on one branch only. Built with a
/// driver before and after `--stage all`, both forms print the same effects for every answer
/// at every step, with the fakes answering on a queue of their own and before they return.
final class CallSiteAnswersBehaviourTests: XCTestCase {
    private static let driver = ProgramBuilding.fixtureDriverPrelude + #"""
        let screen = AccountScreen(shown: { line in
            print("show: \(line)")
            shown.signal()
        })

        for synchronous in [false, true] {
            run("look up", [], synchronous: synchronous) { screen.lookUp("ada") }
            run("look up, nobody", [.neither], synchronous: synchronous) { screen.lookUp("ada") }
            run("look up, fails", [.failure], synchronous: synchronous) { screen.lookUp("ada") }
            run("look up, declined", [.value, .neither], synchronous: synchronous) { screen.lookUp("ada") }
            run("look up, approval fails", [.value, .failure], synchronous: synchronous) { screen.lookUp("ada") }
            run("open", [], synchronous: synchronous) { screen.open("bob") }
            run("open, fails", [.failure], synchronous: synchronous) { screen.open("bob") }
            run("ping then count", [], synchronous: synchronous) { screen.pingThenCount() }
            run("ping then count, offline", [.failure], synchronous: synchronous) { screen.pingThenCount() }
            run("avatar", [], synchronous: synchronous) { screen.showAvatar(of: Account(name: "ada")) }
            run("avatar, fails", [.failure], synchronous: synchronous) { screen.showAvatar(of: Account(name: "ada")) }
            run("avatar, pending", [.neither], synchronous: synchronous) { screen.showAvatar(of: Account(name: "ada")) }
            run("greet ada", [], synchronous: synchronous) { screen.greet("ada") }
            run("greet ada, offline", [.value, .failure], synchronous: synchronous) { screen.greet("ada") }
            run("greet bob", [], synchronous: synchronous) { screen.greet("bob") }
            run("greet, fails", [.failure], synchronous: synchronous) { screen.greet("ada") }
        }
        print("== done")

        """#

    func testEveryAnswerAtEveryStepPrintsTheSameEffectsAfterMigrationInBothForms() throws {
        let root = try TestSupport.temporaryDirectory(self)
        let driver = root.appendingPathComponent("main.swift")
        try Self.driver.write(to: driver, atomically: true, encoding: .utf8)
        func run(_ form: String) throws -> String {
            try ProgramBuilding.runFixture("call-sites-answers", form: form, as: "Accounts.swift", driver: driver, in: root)
        }
        let expected = try run("input")
        XCTAssertTrue(expected.contains("== look up, nobody\nshow: nobody called ada\n"), expected)
        XCTAssertTrue(expected.contains("== look up, declined\nlog: found ada\nshow: declined\n"), expected)
        XCTAssertTrue(expected.contains("== avatar, pending\nshow: avatar pending\n"), expected)
        XCTAssertTrue(expected.contains("== greet ada, offline, answered at once\nlog: pinging for ada\nshow: hello, offline ada\n"), expected)
        XCTAssertTrue(expected.hasSuffix("== done\n"), expected)
        let async = try TestSupport.fixture("call-sites-answers", "async.swift")
        XCTAssertFalse(async.contains("{ account, error in"), "every pyramid is flat in async form")
        try ProgramBuilding.assertSameEffects(expected, forms: ["async", "promise"], run)
    }
}
