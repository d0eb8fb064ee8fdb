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

    /// `client.get("/a")`, a call of the tree's own function named like the `get` link, is the
    /// chain's first promise (it read as a `get` link with `"/a"` and was refused).
    func testACallOfTheTreesOwnFunctionNamedLikeALinkIsTheFirstPromise() throws {
        let input = """
            import Vow

            final class Client: Sendable {
                func get(_ path: String) -> Promise<String> { .value(path) }
            }

            final class Screen: @unchecked Sendable {
                let client = Client()
                var text = ""

                func load() {
                    client.get("/a").done { text in
                        self.text = text
                    }.catch { error in
                        self.text = "\\(error)"
                    }
                }
            }

            """
        let result = SourceMigrator.migrate(source: input, fileName: "Screen.swift", options: MigrationOptions(target: .async, stage: .callSites))
        XCTAssertEqual(result.findings.filter { $0.kind == .callSiteConverted }.count, 1, "\(result.findings)")
        XCTAssertTrue(result.output.contains("let textPromise = client.get(\"/a\")"), result.output)
        XCTAssertNil(try TestSupport.typecheck(result.output, as: "Screen.swift", self))
    }
}
