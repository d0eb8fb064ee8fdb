import VowMigrate
import XCTest

/// Values threaded through flat chains, and where a new `Task` would change when work starts:
/// what `Fixtures/call-sites-threaded-values` and `Fixtures/call-sites-task-start` leave alone,
/// at its place with its reason.
final class CallSiteThreadingTests: XCTestCase {
    private func refusals(_ fixture: String, _ target: MigrationTarget) throws -> [String] {
        let input = try TestSupport.fixture(fixture, "input.swift")
        let migration = SourceMigrator.migrate(source: input, fileName: "input.swift", options: MigrationOptions(target: target, stage: .all))
        return migration.findings.filter { $0.kind == .callSiteRefused }.map { "\($0.line):\($0.column) \($0.function): \($0.message)" }
    }

    func testValuesAreThreadedAndOnlyWhatCannotBeIsLeftAloneInPromiseForm() throws {
        XCTAssertEqual(try refusals("call-sites-threaded-values", .promise), [
            "138:45 note(_:): a failure branch reads `entry`, whose type the shared `catch` cannot name",
            "149:13 count(_:): a later step reads `var attempts` from an earlier callback; a chain would hand it a copy",
        ])
        XCTAssertEqual(try refusals("call-sites-threaded-values", .async), [])
        let promise = try TestSupport.fixture("call-sites-threaded-values", "promise.swift")
        XCTAssertTrue(promise.contains("return api.profile(token).map(on: nil) { (token, $0) }\n        }.done(on: nil) { token, profile in"), promise)
        XCTAssertTrue(promise.contains("guard allowed else { throw PublishFailure.allowed(profile, allowed) }"), promise)
        XCTAssertTrue(promise.contains("case PublishFailure.audit(let error, let token, let entry):"), promise)
    }

    func testATaskThatWouldStartWorkLateIsLeftAloneAndAReceiverHeldBySelfIsReadBeforeIt() throws {
        XCTAssertEqual(try refusals("call-sites-task-start", .async), [
            "42:9 refresh(): code after the call runs before its callback (the callee calls back later on every path), "
                + "but inside a `Task` the call itself would start after that code; `--to promise` keeps the order, or move that code above the call",
            "45:9 refresh(): a callback started earlier in the function could run before the new `Task` makes its first call",
        ])
        // `Task { [weak self] }` could only reach `api` as `self?.api`: it is read first, as the call read it.
        let async = try TestSupport.fixture("call-sites-task-start", "async.swift")
        XCTAssertTrue(async.contains("let api = self.api\n        Task { [weak self] in"), async)
        XCTAssertEqual(try refusals("call-sites-task-start", .promise), [])
    }
}
