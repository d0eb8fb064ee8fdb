import Foundation
import XCTest

/// `Fixtures/call-sites-promise-answers`: the callbacks the promise form flattens beyond the flat
/// shapes (a whole-body hop to the main queue, with or without its own `[weak self]`; `guard error
/// == nil`; a combined `guard`; the branch for an answer of neither a value nor an error; the
/// value tested first or against `nil`; an error handled aside; `switch $0`; a `.failure` case
/// for an error of a named kind; `.success` cases with `where`; `if case .success`; `guard let
/// self, let value` in a hop; several values; an inner callback
/// of a refused shape kept as it was in the last handler;
/// `guard let self` before hops). Built with a driver before
/// and after `--stage all`, both forms print the same effects on the same kind of thread for
/// every answer at every step, with the fakes answering on a queue of their own and before they
/// return. The steps run off the main queue, which `dispatchMain()` drains.
final class CallSitePromiseAnswersBehaviourTests: XCTestCase {
    private static let driver = ProgramBuilding.fixtureDriverPrelude + #"""
        import Foundation

        // (`dispatchMain()` on Linux drains the main queue on a thread of its own: the queue tells.)
        let mainKey = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: mainKey, value: true)

        let screen = AccountScreen(shown: { line in
            print("show: \(line) [\(DispatchQueue.getSpecific(key: mainKey) == true ? "main" : "elsewhere")]")
            shown.signal()
        })

        /// Waits until the plan has `left` answers (the calls before took theirs).
        func awaitAnswersTaken(_ left: Int) {
            while Plan.answers.count > left { usleep(1_000) }
        }

        DispatchQueue.global().async {
            for synchronous in [false, true] {
                run("look up", [], synchronous: synchronous) { screen.lookUp("ada") }
                run("look up, nobody", [.neither], synchronous: synchronous) { screen.lookUp("ada") }
                run("look up, fails", [.failure], synchronous: synchronous) { screen.lookUp("ada") }
                run("look up, declined", [.value, .neither], synchronous: synchronous) { screen.lookUp("ada") }
                run("look up, approval fails", [.value, .failure], synchronous: synchronous) { screen.lookUp("ada") }
                run("open", [], synchronous: synchronous) { screen.open("bob") }
                run("open, fails", [.failure], synchronous: synchronous) { screen.open("bob") }
                run("refresh", [], synchronous: synchronous) { screen.refresh() }
                run("refresh, offline", [.failure], synchronous: synchronous) { screen.refresh() }
                run("sync", [], synchronous: synchronous) { screen.sync() }
                run("sync, offline", [.failure], synchronous: synchronous) { screen.sync() }
                run("reload", [], synchronous: synchronous) { screen.reload("gil") }
                run("reload, down", [.failure], synchronous: synchronous) { screen.reload("gil") }
                run("reload, busy", [.neither], synchronous: synchronous) { screen.reload("gil") }
                run("rank", [], synchronous: synchronous) { screen.rank("gil") }
                run("rank, long", [], synchronous: synchronous) { screen.rank("harriet") }
                run("rank, fails", [.failure], synchronous: synchronous) { screen.rank("gil") }
                run("tour", [], synchronous: synchronous) { screen.tour("ian") }
                run("tour, fails", [.failure], synchronous: synchronous) { screen.tour("ian") }
                run("tour, no guide", [.value, .neither], synchronous: synchronous) { screen.tour("ian") }
                run("tour, guide lookup fails", [.value, .failure], synchronous: synchronous) { screen.tour("ian") }
                run("pick", [], synchronous: synchronous) { screen.pick("harriet") }
                run("pick, too short", [], synchronous: synchronous) { screen.pick("gil") }
                run("pick, fails", [.failure], synchronous: synchronous) { screen.pick("harriet") }
                run("peek", [], synchronous: synchronous) { screen.peek("jo") }
                // Without a value `peek` shows nothing: `refresh` shows that the step is over. It
                // starts once `peek`'s call took its answer: in the async form each starts in a
                // task of its own, in either order.
                run("peek, fails", [.failure, .value], synchronous: synchronous) { screen.peek("jo"); awaitAnswersTaken(1); screen.refresh() }
                run("peek, nobody", [.neither, .value], synchronous: synchronous) { screen.peek("jo"); awaitAnswersTaken(1); screen.refresh() }
                run("preview", [], synchronous: synchronous) { screen.preview("fay") }
                run("preview, fails", [.failure], synchronous: synchronous) { screen.preview("fay") }
                for (name, step) in [("check", screen.check), ("greet", screen.greet), ("invite", screen.invite), ("follow", screen.follow),
                                     ("touch", screen.touch)] {
                    run(name, [], synchronous: synchronous) { step("cy") }
                    run("\(name), fails", [.failure], synchronous: synchronous) { step("cy") }
                    run("\(name), nobody", [.neither], synchronous: synchronous) { step("cy") }
                }
                run("follow, load fails", [.value, .failure], synchronous: synchronous) { screen.follow("cy") }
                run("enroll", [], synchronous: synchronous) { screen.enroll(Account(name: "dee")) }
                run("enroll, fails", [.failure], synchronous: synchronous) { screen.enroll(Account(name: "dee")) }
                run("enroll, declined", [.neither], synchronous: synchronous) { screen.enroll(Account(name: "dee")) }
                run("measure", [], synchronous: synchronous) { screen.measure() }
                run("watch", [], synchronous: synchronous) { screen.watch("eve") }
                run("watch, fails", [.failure], synchronous: synchronous) { screen.watch("eve") }
            }
            print("== done")
            exit(0)
        }
        dispatchMain()

        """#

    func testEveryAnswerAtEveryStepPrintsTheSameEffectsOnTheSameThreadsAfterMigrationInBothForms() throws {
        let root = try TestSupport.temporaryDirectory(self)
        let driver = root.appendingPathComponent("main.swift")
        try Self.driver.write(to: driver, atomically: true, encoding: .utf8)
        func run(_ form: String) throws -> String {
            try ProgramBuilding.runFixture("call-sites-promise-answers", form: form, as: "Accounts.swift", driver: driver, in: root)
        }
        let expected = try run("input")
        XCTAssertTrue(expected.contains("== look up, nobody\nshow: nobody called ada [main]\n"), expected)
        XCTAssertTrue(expected.contains("== look up, declined\nlog: found ada\nshow: ada declined [elsewhere]\n"), expected)
        XCTAssertTrue(expected.contains("== invite, nobody\nlog: answered\nshow: nobody to invite [elsewhere]\n"), expected)
        XCTAssertTrue(expected.contains("== enroll, declined\nshow: not enrolled [elsewhere]\n"), expected)
        XCTAssertTrue(expected.contains("== greet, nobody\nshow: hello, stranger [elsewhere]\n"), expected)
        XCTAssertTrue(expected.contains("== measure, answered at once\nshow: 3 x 2 [main]\n"), expected)
        XCTAssertTrue(expected.contains("== sync, offline\nlog: queued after down\nshow: synced [elsewhere]\n"), expected)
        XCTAssertTrue(expected.contains("== reload, busy\nshow: reload failed: busy [elsewhere]\n"), expected)
        XCTAssertTrue(expected.contains("== touch, nobody\nshow: untouched: nobody [elsewhere]\n"), expected)
        XCTAssertTrue(expected.hasSuffix("== done\n"), expected)
        let promise = try TestSupport.fixture("call-sites-promise-answers", "promise.swift")
        XCTAssertFalse(promise.contains(" in\n            DispatchQueue.main.async {\n                if"), "every callback is flat in promise form")
        XCTAssertFalse(promise.contains("{ account, error in"), "every callback is flat in promise form")
        XCTAssertTrue(promise.contains("{ guide, _ in"), "the inner callback of a refused shape is kept")
        try ProgramBuilding.assertSameEffects(expected, forms: ["promise", "async"], run)
    }

    /// `Fixtures/call-sites-promise-typed-errors`: a failure branch reading the callee's own error
    /// type (`error.message` of a `Result<Member, DirectoryError>`) and `.failure(.missing)`, alone
    /// and at the first of three steps.
    func testErrorsReadAsTheCalleesOwnTypePrintTheSameEffectsAtEveryStepAfterMigrationInBothForms() throws {
        let steps = """
                    run("open", [], synchronous: synchronous) { screen.open("ann") }
                    run("open, missing", [.failure], synchronous: synchronous) { screen.open("ann") }
                    run("open, locked", [.neither], synchronous: synchronous) { screen.open("ann") }
                    run("decorate", [], synchronous: synchronous) { screen.decorate("ann") }
                    run("decorate, gold", [], synchronous: synchronous) { screen.decorate("berta") }
                    run("decorate, missing", [.failure], synchronous: synchronous) { screen.decorate("ann") }
                    run("decorate, locked", [.neither], synchronous: synchronous) { screen.decorate("ann") }
                    run("decorate, offline", [.value, .value, .failure], synchronous: synchronous) { screen.decorate("berta") }
            """
        let (expected, run) = try ProgramBuilding.runScreenFixture("call-sites-promise-typed-errors", screen: "MemberScreen", steps: steps, test: self)
        XCTAssertTrue(expected.contains("== open, missing\nshow: nobody called ann [elsewhere]\n"), expected)
        XCTAssertTrue(expected.contains("== decorate, locked, answered at once\nshow: no member: the member is locked [elsewhere]\n"), expected)
        XCTAssertTrue(expected.contains("== decorate, offline\nshow: offline: down [elsewhere]\n"), expected)
        XCTAssertTrue(expected.hasSuffix("== done\n"), expected)
        let promise = try TestSupport.fixture("call-sites-promise-typed-errors", "promise.swift")
        XCTAssertTrue(promise.contains("case DecorateFailure.member(let error as DirectoryError):"), promise)
        try ProgramBuilding.assertSameEffects(expected, forms: ["promise", "async"], run)
    }

    /// `Fixtures/call-sites-promise-early-exits`: `guard case .success(let v) = result, C else`,
    /// `if C { ...; return }` and `guard C else { ...; return }` before the next call, and the
    /// inner callbacks that become a chain of their own (after `guard let self`, with `[weak
    /// self]` of their own): every exit and every failure at every step.
    func testCallbacksThatStopEarlyPrintTheSameEffectsAtEveryStepAfterMigrationInBothForms() throws {
        let steps = """
                    run("open", [], synchronous: synchronous) { screen.open(1) }
                    run("open, not pending", [], synchronous: synchronous) { screen.open(3) }
                    run("open, none pending", [.neither], synchronous: synchronous) { screen.open(1) }
                    run("open, fails", [.failure], synchronous: synchronous) { screen.open(1) }
                    run("open, accept fails", [.value, .failure], synchronous: synchronous) { screen.open(2) }
                    run("join", [], synchronous: synchronous) { screen.join(1) }
                    run("join, none pending", [.neither], synchronous: synchronous) { screen.join(1) }
                    run("join, fails", [.failure], synchronous: synchronous) { screen.join(1) }
                    run("join, accept fails", [.value, .failure], synchronous: synchronous) { screen.join(1) }
                    run("join, nobody joined", [.value, .value, .neither], synchronous: synchronous) { screen.join(0) }
                    run("join, stopped", [], synchronous: synchronous) { screen.stopped = true; screen.join(1) }
                    run("count", [], synchronous: synchronous) { screen.stopped = false; screen.count(1) }
                    run("count, not counted", [], synchronous: synchronous) { screen.count(0) }
                    run("count, fails", [.failure], synchronous: synchronous) { screen.count(1) }
                    run("count, accept fails", [.value, .failure], synchronous: synchronous) { screen.count(1) }
                    run("remind", [], synchronous: synchronous) { screen.remind(1) }
                    run("remind, fails", [.failure], synchronous: synchronous) { screen.remind(1) }
            """
        let (expected, run) = try ProgramBuilding.runScreenFixture("call-sites-promise-early-exits", screen: "InviteScreen", steps: steps, test: self)
        XCTAssertTrue(expected.contains("== open, not pending\nshow: invitation 3 is no longer open [elsewhere]\n"), expected)
        XCTAssertTrue(expected.contains("== join, none pending\nlog: 0 pending\nshow: nothing to join [elsewhere]\n"), expected)
        XCTAssertTrue(expected.contains("== join, stopped\nlog: 2 pending\nshow: stopped before counting [elsewhere]\n"), expected)
        XCTAssertTrue(expected.contains("== count, not counted\nshow: accepted, not counted [elsewhere]\n"), expected)
        XCTAssertTrue(expected.hasSuffix("== done\n"), expected)
        let promise = try TestSupport.fixture("call-sites-promise-early-exits", "promise.swift")
        XCTAssertTrue(promise.contains("throw JoinFailure.returned"), promise)
        XCTAssertFalse(promise.contains(" in\n            if let error"), "every callback is flat in promise form")
        try ProgramBuilding.assertSameEffects(expected, forms: ["promise", "async"], run)
    }
}
