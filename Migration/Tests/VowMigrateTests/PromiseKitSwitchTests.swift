import SwiftParser
@testable import VowMigrate
import XCTest

/// `--from-promisekit`: the import becomes Vow's, PromiseKit's synchronous `.value` on evident
/// promises becomes `.valueIfFulfilled`, and uncertain reads are reported, not changed.
final class PromiseKitSwitchTests: XCTestCase {
    private let switchOnly = MigrationOptions(target: nil, fromPromiseKit: true)

    private func switched(_ source: String, _ options: MigrationOptions? = nil) -> FileMigration {
        SourceMigrator.migrate(source: source, fileName: "Dashboard.swift", options: options ?? switchOnly)
    }

    func testTheSwitchMatchesEveryFromPromiseKitFixture() throws {
        XCTAssertFalse(TestSupport.promiseKitFixtureNames.isEmpty)
        for name in TestSupport.promiseKitFixtureNames {
            let input = try TestSupport.fixture(name, "input.swift")
            let expected = try TestSupport.fixture(name, "vow.swift")
            let result = SourceMigrator.migrate(source: input, fileName: "\(name)/input.swift", options: switchOnly)
            if result.output != expected {
                XCTFail("\(name): --from-promisekit differs from vow.swift:\n" +
                        UnifiedDiff.make(old: expected, new: result.output, oldName: "expected", newName: "actual"))
            }
            XCTAssertTrue(result.changed, name)
        }
    }

    func testASecondSwitchChangesNothing() throws {
        for name in TestSupport.promiseKitFixtureNames {
            let expected = try TestSupport.fixture(name, "vow.swift")
            let again = switched(expected)
            XCTAssertFalse(again.changed, "\(name) is not idempotent:\n" +
                           UnifiedDiff.make(old: expected, new: again.output, oldName: "first", newName: "second"))
            XCTAssertEqual(again.findings, [], name)
        }
    }

    func testEveryEvidentReadIsSwitchedAndTheUncertainOneIsReportedWithItsLocation() throws {
        let input = try TestSupport.fixture("from-promisekit", "input.swift")
        let result = switched(input)
        let switchedFindings = result.findings.filter { $0.kind == .switched }
        XCTAssertEqual(switchedFindings.count, 29)
        XCTAssertEqual(switchedFindings.first, Finding(kind: .switched, function: "import PromiseKit", line: 3, column: 1,
                                                       message: "`PromiseKit` became `Vow`"))
        XCTAssertEqual(result.findings.filter { $0.kind == .review }, [
            Finding(kind: .review, function: "item.value", line: 98, column: 37,
                    message: "may be PromiseKit's synchronous `value`; if this is a promise, use `valueIfFulfilled`"),
        ])
    }

    func testAwaitedReadsStaticMembersAndCallsAreNeverTouched() {
        let source = """
        import PromiseKit

        func f(_ promise: Promise<Int>, _ guarantee: Guarantee<Int>) async throws -> Int {
            let make = Promise<Int>.value
            let made = Promise.value(1)
            let again = Guarantee<Int>.value(2)
            print(make, made, again)
            let awaited = try await promise.value
            return try await awaited + guarantee.value + promise.value
        }

        """
        let result = switched(source)
        XCTAssertEqual(result.output, source.replacingOccurrences(of: "import PromiseKit", with: "import Vow"))
        XCTAssertEqual(result.findings.filter { $0.kind == .review }, [])
    }

    func testReadsOfWhatIsEvidentlyNotAPromiseAreNeitherChangedNorReported() {
        let source = """
        import PromiseKit

        struct Box { var value = 1 }
        func box() -> Box { Box() }

        func f(_ typed: Box) -> Int {
            var local = Box()
            local.value = 2
            let literal = "text"
            return typed.value + local.value + box().value + Box().value + literal.count
        }

        """
        let result = switched(source)
        XCTAssertEqual(result.output, source.replacingOccurrences(of: "import PromiseKit", with: "import Vow"))
        XCTAssertEqual(result.findings.map(\.kind), [.switched])
    }

    func testANameDeclaredBothAsAPromiseAndAsSomethingElseIsReportedNotChanged() {
        let source = """
        import PromiseKit

        struct Box { var value = 1 }

        func first(_ item: Promise<Int>) -> Int? { item.value }
        func second(_ item: Box) -> Int { item.value }

        """
        let result = switched(source)
        XCTAssertEqual(result.output, source.replacingOccurrences(of: "import PromiseKit", with: "import Vow"))
        XCTAssertEqual(result.findings.filter { $0.kind == .review }.map { [$0.line, $0.column] }, [[5, 49], [6, 40]])
    }

    func testCallsOfFunctionsFromOtherFilesAreReported() {
        let source = """
        import PromiseKit

        func f(api: Api) -> Int? {
            api.fetch().value
        }

        """
        let result = switched(source)
        XCTAssertEqual(result.findings.filter { $0.kind == .review }.map(\.function), ["api.fetch().value"])
        XCTAssertEqual(result.findings.filter { $0.kind == .review }.map { [$0.line, $0.column] }, [[4, 17]])
    }

    func testImportAttributesAreKeptAndExtensionModulesReportedNotRemoved() {
        let source = """
        // Header.
        @testable import PromiseKit // the core
        import PMKFoundation

        """
        let result = switched(source)
        XCTAssertEqual(result.output, """
        // Header.
        @testable import Vow // the core
        import PMKFoundation

        """)
        let review = result.findings.filter { $0.kind == .review }
        XCTAssertEqual(review.map(\.function), ["import PMKFoundation"])
        XCTAssertEqual(review.map { [$0.line, $0.column] }, [[3, 1]])
    }

    func testAnImportOfPromiseKitBesideVowIsDropped() {
        let source = """
        import Foundation
        import Vow
        import PromiseKit

        let promise = Promise.value(1)
        let value = promise.value

        """
        XCTAssertEqual(switched(source).output, """
        import Foundation
        import Vow

        let promise = Promise.value(1)
        let value = promise.valueIfFulfilled

        """)
    }

    func testAFileImportingNeitherPromiseKitNorVowIsLeftAlone() {
        let source = "let promise: Promise<Int> = make()\nlet value = promise.value\n"
        let result = switched(source)
        XCTAssertFalse(result.changed)
        XCTAssertEqual(result.findings, [])
    }

    func testWithATargetTheSwitchComesFirstThenTheAlternatives() {
        let source = """
        import PromiseKit

        final class Api: Sendable {
            func ping(completion: @escaping @Sendable (Error?) -> Void) {
                completion(nil)
            }

            func latest() -> Promise<Int> {
                Promise.value(1)
            }

            func peek() -> Int? {
                latest().value
            }
        }

        """
        let options = MigrationOptions(target: .promise, fromPromiseKit: true)
        let result = switched(source, options)
        XCTAssertTrue(result.output.hasPrefix("import Vow\n\nfinal class Api"), result.output)
        XCTAssertEqual(result.output.components(separatedBy: "import ").count, 2, "one import")
        XCTAssertTrue(result.output.contains("func ping() -> Promise<Void> {"), result.output)
        XCTAssertTrue(result.output.contains("latest().valueIfFulfilled"), result.output)
        XCTAssertEqual(result.findings.map(\.kind), [.switched, .added, .switched])
        XCTAssertFalse(Parser.parse(source: result.output).hasError)
        XCTAssertFalse(switched(result.output, options).changed)
    }

    func testAMemberCountsOnlyWhenTheFileDeclaresAPropertyOfThatName() {
        let source = """
        import PromiseKit

        final class Holder {
            let latest: Promise<Int> = Promise.value(1)

            func f(_ other: Holder, _ thing: Thing) -> [Int?] {
                let local: Promise<Int> = Promise.value(2)
                return [other.latest.value, local.value, thing.local.value]
            }
        }

        """
        let result = switched(source)
        XCTAssertTrue(result.output.contains("[other.latest.valueIfFulfilled, local.valueIfFulfilled, thing.local.value]"), result.output)
        XCTAssertEqual(result.findings.filter { $0.kind == .review }.map(\.function), ["thing.local.value"])
    }

    func testAConditionNamingPromiseKitIsReported() {
        let source = """
        #if canImport(PromiseKit)
        import PromiseKit
        #endif

        """
        let result = switched(source)
        XCTAssertEqual(result.output, source.replacingOccurrences(of: "import PromiseKit", with: "import Vow"))
        let review = result.findings.filter { $0.kind == .review }
        XCTAssertEqual(review.map(\.function), ["#if canImport(PromiseKit)"])
        XCTAssertEqual(review.map { [$0.line, $0.column] }, [[1, 1]])
    }

    func testModuleQualifiedNamesBecomeVowsAndANameVowLacksIsReported() throws {
        let source = """
        import PromiseKit
        import Foundation

        func configure() {
            PromiseKit.conf.Q.map = .main
            let log: @Sendable (PromiseKit.LogEvent) -> Void = { _ in }
            PromiseKit.conf.logHandler = log
            let first: PromiseKit.Promise<Int> = PromiseKit.Promise.value(1)
            let (pending, resolver) = PromiseKit.Promise<Int>.pending()
            resolver.fulfill(2)
            _ = PromiseKit.when(fulfilled: [first, pending])
            PromiseKit.legacyHelper()
        }

        """
        let result = switched(source)
        let expected = source.replacingOccurrences(of: "import PromiseKit", with: "import Vow")
            .replacingOccurrences(of: "PromiseKit.legacyHelper", with: "KEEP")
            .replacingOccurrences(of: "PromiseKit.", with: "Vow.")
            .replacingOccurrences(of: "KEEP", with: "PromiseKit.legacyHelper")
        XCTAssertEqual(result.output, expected)
        let review = result.findings.filter { $0.kind == .review }
        XCTAssertEqual(review.map(\.function), ["PromiseKit.legacyHelper"])
        XCTAssertEqual(review.map { [$0.line, $0.column] }, [[12, 5]])
        XCTAssertEqual(result.findings.filter { $0.kind == .switched && $0.function.hasPrefix("PromiseKit.") }.count, 7)
        // Without the line Vow lacks, the switched file builds against Vow.
        let directory = try TestSupport.temporaryDirectory(self)
        let file = directory.appendingPathComponent("Configure.swift")
        try result.output.replacingOccurrences(of: "    PromiseKit.legacyHelper()\n", with: "").write(to: file, atomically: true, encoding: .utf8)
        XCTAssertNil(try TestSupport.typecheckTogether([file]))
    }

    /// The names the switch may qualify with `Vow.` are exactly Vow's public top-level names.
    func testTheListOfVowNamesMatchesVowsSources() throws {
        let sources = TestSupport.packageDirectory.deletingLastPathComponent().appendingPathComponent("Sources/Vow")
        var declared: Set<String> = []
        let pattern = try NSRegularExpression(pattern: "^public (?:final class|class|struct|enum|protocol|func|var|let|typealias|actor) ([A-Za-z_][A-Za-z0-9_]*)",
                                              options: .anchorsMatchLines)
        for path in FileManager.default.enumerator(atPath: sources.path)?.compactMap({ $0 as? String }) ?? [] where path.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                declared.insert((text as NSString).substring(with: match.range(at: 1)))
            }
        }
        XCTAssertEqual(PromiseKitSwitch.vowTopLevelNames, declared)
    }

    func testWindowsLineEndingsSurviveTheRemovalOfADuplicateImport() {
        let source = "import Vow\r\nimport PromiseKit\r\n\r\nlet promise = Promise.value(1)\r\nlet value = promise.value\r\n"
        XCTAssertEqual(switched(source).output, "import Vow\r\n\r\nlet promise = Promise.value(1)\r\nlet value = promise.valueIfFulfilled\r\n")
    }

    func testUnwrappingAnOptionalPromiseKeepsItAPromise() {
        let source = """
        import PromiseKit

        final class Screen {
            var loading: Promise<Int>?

            func f() -> Int? {
                if let loading { return loading.value }
                guard let current = loading else { return nil }
                return current.value ?? loading?.value
            }
        }

        """
        let result = switched(source)
        XCTAssertTrue(result.output.contains("if let loading { return loading.valueIfFulfilled }"), result.output)
        XCTAssertTrue(result.output.contains("return current.valueIfFulfilled ?? loading?.valueIfFulfilled"), result.output)
        XCTAssertEqual(result.findings.filter { $0.kind == .review }, [])
    }
}

/// The README's worked example is what the tool does: its PromiseKit block, switched and then
/// migrated with `--to async --stage all --replace`, gives its last block.
final class WorkedExampleTests: XCTestCase {
    func testTheReadmesWorkedExampleIsWhatTheToolWrites() throws {
        let readme = try String(contentsOf: TestSupport.packageDirectory.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try XCTUnwrap(readme.components(separatedBy: "### Worked example: one feature from PromiseKit to async/await").dropFirst().first)
        let blocks = section.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```").first ?? "" }
        XCTAssertGreaterThanOrEqual(blocks.count, 2)
        let before = try XCTUnwrap(blocks.first)
        let after = try XCTUnwrap(blocks.dropFirst().first)
        XCTAssertTrue(before.hasPrefix("import PromiseKit\n"), before)
        let switched = SourceMigrator.migrate(source: before, fileName: "Weather.swift", options: MigrationOptions(target: nil, fromPromiseKit: true))
        XCTAssertEqual(switched.output, before.replacingOccurrences(of: "import PromiseKit\n", with: "import Vow\n"))
        let migrated = SourceMigrator.migrate(source: switched.output, fileName: "Weather.swift",
                                              options: MigrationOptions(target: .async, replace: true, stage: .all))
        XCTAssertEqual(migrated.output, "import Vow\n\n" + after)
        let again = SourceMigrator.migrate(source: migrated.output, fileName: "Weather.swift",
                                           options: MigrationOptions(target: .async, replace: true, stage: .all))
        XCTAssertFalse(again.changed)
    }
}
