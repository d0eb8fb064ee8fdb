import Foundation
import VowMigrate
import XCTest

/// Chains that start on a guarantee never reject: straight-line code awaits them without `try`
/// and holds no `catch` that could never run (the compiler warns of both). `race` and `when` of
/// guarantees are Vow's guarantee overloads, as PromiseKit's own `RaceTests` write them.
final class ChainGuaranteeHeadTests: XCTestCase {
    func testRaceAndWhenOfGuaranteesAreAwaitedAsGuarantees() throws {
        let input = """
            import Dispatch
            import Vow

            final class Timers: @unchecked Sendable {
                var winner = 0

                func race2() {
                    race(after(seconds: 1).map { 1 }, after(.milliseconds(10)).map { 2 }).done { index in
                        self.winner = index
                    }
                }

                func both() {
                    when(after(seconds: 0.1).map { 1 }, Guarantee.value(2)).done { values in
                        self.winner = values.count
                    }
                }
            }

            """
        let result = SourceMigrator.migrate(source: input, fileName: "Timers.swift", options: MigrationOptions(target: .async, stage: .callSites))
        XCTAssertEqual(result.findings.filter { $0.kind == .callSiteConverted }.count, 2, "\(result.findings)")
        XCTAssertFalse(result.output.contains("try await"), result.output)
        XCTAssertFalse(result.output.contains("catch"), result.output)
        XCTAssertTrue(result.output.contains("let index = await indexPromise.value"), result.output)
        XCTAssertNil(try TestSupport.typecheck(result.output, as: "Timers.swift", self))
    }
}
