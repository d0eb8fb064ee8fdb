import SwiftParser
import VowMigrate
import XCTest

/// Every fixture folder holds `input.swift` and the expected `promise.swift` and `async.swift`
/// (`from-promisekit*` folders: `vow.swift`, see `PromiseKitSwitchTests`); these tests hold the
/// rewriter to them, side by side.
final class FixtureTests: XCTestCase {
    private func options(for name: String, _ target: MigrationTarget) -> MigrationOptions {
        MigrationOptions(target: target, replace: TestSupport.isReplaceFixture(name),
                         stage: TestSupport.isCallSiteFixture(name) ? .all : .declarations)
    }

    func testThereAreFixturesForEveryHandlerShape() {
        let names = Set(TestSupport.fixtureNames)
        for shape in ["optional-value-and-error", "value-and-error", "error-only", "value-only", "no-arguments",
                      "result", "typed-result", "success-flag", "split-handlers", "typealias", "handler-not-last",
                      "throwing", "cancellable", "generic", "extension-and-static", "protocol",
                      "multi-value", "optional-handlers", "unusual-labels", "qualified-and-generic-typealias",
                      "autoclosure", "generic-result", "bare-result-parameter", "handler-calls"] {
            XCTAssertTrue(names.contains(shape), "missing fixture \(shape)")
        }
    }

    func testPromiseOutputMatchesEveryFixture() throws {
        try assertFixtures(.promise, expected: "promise.swift")
    }

    func testAsyncOutputMatchesEveryFixture() throws {
        try assertFixtures(.async, expected: "async.swift")
    }

    private func assertFixtures(_ target: MigrationTarget, expected file: String) throws {
        for name in TestSupport.alternativeFixtureNames {
            let input = try TestSupport.fixture(name, "input.swift")
            let expected = try TestSupport.fixture(name, file)
            let result = SourceMigrator.migrate(source: input, fileName: "\(name)/input.swift", options: options(for: name, target))
            // `VOW_REGENERATE_FIXTURES=1 swift test --filter FixtureTests`: writes what the tool
            // produces now, for review with `git diff` before it is committed.
            if ProcessInfo.processInfo.environment["VOW_REGENERATE_FIXTURES"] == "1", result.output != expected {
                try result.output.write(to: TestSupport.fixturesDirectory.appendingPathComponent(name).appendingPathComponent(file),
                                        atomically: true, encoding: .utf8)
                continue
            }
            if result.output != expected {
                XCTFail("\(name): --to \(target) differs from \(file):\n" +
                        UnifiedDiff.make(old: expected, new: result.output, oldName: "expected", newName: "actual"))
            }
            XCTAssertEqual(result.changed, input != expected, name)
        }
    }

    func testASecondRunChangesNothing() throws {
        for name in TestSupport.alternativeFixtureNames {
            for target in MigrationTarget.allCases {
                let expected = try TestSupport.fixture(name, "\(target.rawValue).swift")
                let again = SourceMigrator.migrate(source: expected, fileName: name, options: options(for: name, target))
                XCTAssertFalse(again.changed, "\(name) --to \(target) is not idempotent:\n" +
                               UnifiedDiff.make(old: expected, new: again.output, oldName: "first", newName: "second"))
                XCTAssertFalse(again.findings.contains { $0.kind == .added || $0.kind == .replaced }, name)
            }
        }
    }

    func testPromiseThenAsyncKeepsBothAlternativesAndIsStable() throws {
        for name in TestSupport.alternativeFixtureNames where !TestSupport.isReplaceFixture(name) {
            let promise = try TestSupport.fixture(name, "promise.swift")
            let both = SourceMigrator.migrate(source: promise, fileName: name, options: .init(target: .async)).output
            XCTAssertFalse(Parser.parse(source: both).hasError, name)
            for target in MigrationTarget.allCases {
                XCTAssertFalse(SourceMigrator.migrate(source: both, fileName: name, options: .init(target: target)).changed, name)
            }
        }
    }

    func testEveryOutputParses() throws {
        var sources: [(String, String)] = []
        for name in TestSupport.fixtureNames {
            sources.append((name, try TestSupport.fixture(name, "input.swift")))
        }
        for sample in try FileManager.default.contentsOfDirectory(atPath: TestSupport.samplesDirectory.path) where sample.hasSuffix(".swift") {
            sources.append((sample, try String(contentsOf: TestSupport.samplesDirectory.appendingPathComponent(sample), encoding: .utf8)))
        }
        for (name, source) in sources {
            for target in MigrationTarget.allCases.map(Optional.some) + [nil] {
                for replace in [false, true] where target != nil || !replace {
                    for fromPromiseKit in [false, true] where target != nil || fromPromiseKit {
                        let options = MigrationOptions(target: target, replace: replace, fromPromiseKit: fromPromiseKit)
                        let output = SourceMigrator.migrate(source: source, fileName: name, options: options).output
                        XCTAssertFalse(Parser.parse(source: output).hasError,
                                       "\(name) --to \(target.map(\.rawValue) ?? "-") replace: \(replace) from PromiseKit: \(fromPromiseKit)")
                    }
                }
            }
        }
    }

    func testSkippedFunctionsAreReportedWithLocationAndReason() throws {
        let input = try TestSupport.fixture("not-convertible", "input.swift")
        let result = SourceMigrator.migrate(source: input, fileName: "Legacy.swift", options: .init(target: .promise))
        XCTAssertFalse(result.changed)
        let skipped = result.findings.filter { $0.kind == .skipped }
        XCTAssertEqual(skipped.map(\.function), ["enqueue(job:completion:)", "refresh(id:completion:)", "log(_:completion:)"])
        XCTAssertEqual(skipped.first?.line, 9)
        XCTAssertEqual(skipped.first?.column, 5)
        XCTAssertTrue(skipped.allSatisfy { !$0.message.isEmpty })
    }
}
