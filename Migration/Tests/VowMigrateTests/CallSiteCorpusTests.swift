import Foundation
import XCTest

/// `Corpus/App/`: a multi-file app written for this test (a networking layer and a persistence
/// layer in the callback style, ten view models full of pyramids and an existing promise chain
/// each, about 2,000 lines). Migrated with `--stage all` in both forms it must typecheck as one
/// module, and the counts of converted and refused call sites, per reason, are pinned so that a
/// regression shows. (Behaviour before and after is `CallSiteBehaviourTests`' job.)
final class CallSiteCorpusTests: XCTestCase {
    private static var corpus: URL {
        TestSupport.fixturesDirectory.deletingLastPathComponent().appendingPathComponent("Corpus").appendingPathComponent("App")
    }

    private func typecheckAsOneModule(_ directory: URL) throws {
        let sources = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".swift") }.sorted().map { directory.appendingPathComponent($0).path }
        let result = try TestSupport.run(TestSupport.swiftc, ["-typecheck", "-swift-version", "6", "-I", TestSupport.modulesDirectory.path] + sources)
        XCTAssertEqual(result.status, 0, "\(directory.lastPathComponent) does not typecheck:\n\(result.standardError)")
        XCTAssertFalse(result.standardError.contains("warning:"), result.standardError)
    }

    func testTheCorpusTypechecksInBothFormsWithTheExpectedCounts() throws {
        let root = try TestSupport.temporaryDirectory(self)
        let lines = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).filter { $0.hasSuffix(".swift") }
            .map { try String(contentsOf: Self.corpus.appendingPathComponent($0), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).count }
            .reduce(0, +)
        XCTAssertGreaterThanOrEqual(lines, 1_500)
        try typecheckAsOneModule(Self.corpus)

        let shared = "16 candidates: 16 alternatives added, 0 replaced, 0 skipped, 0 already migrated; 73 call sites converted"
        let reasons = [
            "10 a (Bool, Error?) answer of `(false, nil)` would become a rejection the callback did not have",
            "10 a `guard` inside a callback",
            "10 a loop around a callback",
            "10 a switch on Result with `default:` or several patterns in a case",
            "10 the callback reads `data` as optional, so a `(nil, nil)` answer means something to it",
            "4 the callback does not consist of one `switch result`",
        ]
        for (target, refused, extra) in [("promise", 54, [String]()), ("async", 64, ["10 code after the callbacks would run before them inside a `Task`"])] {
            let directory = root.appendingPathComponent(target)
            try FileManager.default.copyItem(at: Self.corpus, to: directory)
            let result = try TestSupport.migrate([directory.path, "--to", target, "--stage", "all", "--in-place"])
            XCTAssertEqual(result.status, 0, result.standardError)
            XCTAssertTrue(result.standardError.contains("\(shared), \(refused) left alone ("), result.standardError)
            for reason in (reasons + extra) {
                XCTAssertTrue(result.standardError.contains(reason), "\(target): missing `\(reason)` in\n\(result.standardError)")
            }
            try typecheckAsOneModule(directory)
            // A second run finds nothing more to do.
            let again = try TestSupport.migrate([directory.path, "--to", target, "--stage", "all", "--check"])
            XCTAssertEqual(again.status, 0, again.standardError)
        }
    }
}
