@testable import VowMigrate
import XCTest

/// Links given a key path instead of a closure (`map(\.all)`, `mapValues(\.entityId)`,
/// `filterValues(\.isOn)`), as real PromiseKit apps write them, convert: the value's property
/// read where the value is, or the key path handed to the sequence's own method.
final class ChainKeyPathTests: XCTestCase {
    private static let input = #"""
        import Vow

        struct Entity: Sendable {
            let entityId: String
            let domain: String
            let tags: [String]
            let isOn: Bool
        }

        struct States: Sendable {
            let all: [Entity]
            let owner: String?
        }

        final class Screen: @unchecked Sendable {
            var ids: [String] = []
            var shown: [String] = []

            func states() -> Promise<States> {
                Promise.value(States(all: [Entity(entityId: "b", domain: "camera", tags: ["x"], isOn: true),
                                           Entity(entityId: "a", domain: "camera", tags: [], isOn: false)], owner: nil))
            }

            func cameras() {
                states().map(\.all)
                    .filterValues { $0.domain == "camera" }
                    .mapValues(\.entityId)
                    .sortedValues()
                    .done { self.ids = $0 }
                    .catch { _ in }
            }

            func switchedOn() {
                states().map(\States.all).filterValues(\.isOn).done { entities in
                    self.shown = entities.map(\.entityId)
                }.catch { _ in }
            }

            func firstTags() {
                states().map(\.all[0].tags.count).done { count in
                    self.shown.append("\(count)")
                }.catch { _ in }
            }

            func owner() {
                states().map(\.owner?.count).done { count in
                    self.shown.append("\(count ?? 0)")
                }.catch { _ in }
            }
        }

        """#

    func testKeyPathLinksConvertAndTypecheck() throws {
        let result = SourceMigrator.migrate(source: Self.input, fileName: "Screen.swift",
                                            options: MigrationOptions(target: .async, stage: .callSites))
        XCTAssertEqual(result.findings.filter { $0.kind == .callSiteConverted }.map(\.function),
                       ["cameras()", "switchedOn()", "firstTags()", "owner()"])
        XCTAssertEqual(result.findings.filter { $0.kind == .callSiteRefused }.count, 0)
        XCTAssertTrue(result.output.contains("""
                            let value = try await firstPromise.value
                            let values = value.all
                            let values2 = values.filter { $0.domain == "camera" }
                            let values3 = values2.map(\\.entityId)
                            let value2 = values3.sorted()
                            self.ids = value2
            """), result.output)
        XCTAssertTrue(result.output.contains("let values = value.all\n"), result.output)
        XCTAssertTrue(result.output.contains("let entities = values.filter(\\.isOn)\n"), result.output)
        XCTAssertTrue(result.output.contains("let count = value.all[0].tags.count\n"), result.output)
        XCTAssertTrue(result.output.contains("let count = value.owner?.count\n"), result.output)
        XCTAssertFalse(result.output.contains("\\.all"), result.output)

        XCTAssertNil(try TestSupport.typecheck(result.output, as: "Screen.swift", self), result.output)
    }

    /// Codebases that write every handler inside the parentheses (`.map(on: .main, { x in })`,
    /// `.done({ x in })`) get them read as trailing closures are.
    func testAClosureGivenAsTheLastArgumentIsTheHandler() throws {
        let input = """
            import Vow

            final class Screen: @unchecked Sendable {
                var shown: [String] = []

                func count() -> Promise<Int> {
                    Promise.value(2)
                }

                func show() {
                    firstly {
                        count()
                    }.map(on: .main, { value -> String in
                        "\\(value) items"
                    }).done({ text in
                        self.shown.append(text)
                    }).catch(policy: .allErrors, { error in
                        self.shown.append("\\(error)")
                    })
                }
            }

            """
        let result = SourceMigrator.migrate(source: input, fileName: "Screen.swift", options: MigrationOptions(target: .async, stage: .callSites))
        XCTAssertEqual(result.findings.filter { $0.kind == .callSiteConverted }.map(\.function), ["show()"], "\(result.findings)")
        XCTAssertTrue(result.output.contains("""
                    Task { @MainActor in
                        do {
                            let value = try await valuePromise.value
                            let text = ("\\(value) items") as String
                            self.shown.append(text)
                        } catch {
                            self.shown.append("\\(error)")
                        }
                    }
            """), result.output)
        XCTAssertNil(try TestSupport.typecheck(result.output, as: "Screen.swift", self), result.output)
    }

    /// Should the tool ever write code that does not parse, the file is left alone and every
    /// call site it converted says so, instead of being counted as converted.
    func testOutputThatDoesNotParseLeavesTheFileAloneAndSaysSoForEachCallSite() {
        let converted = Finding(kind: .callSiteConverted, function: "load()", line: 3, column: 5, message: "converted a promise chain")
        let refused = Finding(kind: .callSiteRefused, function: "save()", line: 9, column: 5, message: "a chain handler that leaves early")
        let migration = SourceMigrator.unparseableOutput("source", findings: [converted, refused])
        XCTAssertEqual(migration.output, "source")
        XCTAssertFalse(migration.changed)
        XCTAssertEqual(migration.findings.map(\.kind), [.callSiteRefused, .callSiteRefused])
        XCTAssertEqual(migration.findings.first?.message,
                       "vow-migrate produced code that does not parse; the file was left alone (please report this)")
        XCTAssertEqual(migration.findings.last?.message, "a chain handler that leaves early")
        // With nothing converted, the file itself carries the message.
        let alone = SourceMigrator.unparseableOutput("source", findings: [refused])
        XCTAssertEqual(alone.findings.map(\.kind), [.skipped, .callSiteRefused])
    }
}
