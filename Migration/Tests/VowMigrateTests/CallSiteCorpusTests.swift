import Foundation
import XCTest

/// `Corpus/App/`: a multi-file app written for this test (a networking layer and a persistence
/// layer in the callback style over deterministic fakes, and six screens: settings, checkout, a
/// paged feed, profile editing, search and onboarding, full of pyramids and existing promise
/// chains; over 1,500 lines). Migrated with `--stage all` in both forms it must build, and run
/// every flow of `Corpus/Scenarios/main.swift`, with no failure and with each of its steps
/// failing, printing the same effects in the same order on the same kind of thread as the
/// original. The counts of converted and refused call sites, per reason, are pinned so that a
/// regression shows.
final class CallSiteCorpusTests: XCTestCase {
    private static var corpus: URL {
        TestSupport.packageDirectory.appendingPathComponent("Corpus")
    }

    private static var app: URL { corpus.appendingPathComponent("App") }

    /// The app's files and the scenario runner, built into one program (one compiler run).
    private func buildAndRun(_ app: URL, as name: String, in root: URL) throws -> String {
        let sources = TestSupport.swiftFiles(in: app) + [Self.corpus.appendingPathComponent("Scenarios/main.swift")]
        return try ProgramBuilding.buildAndRun(sources, binary: root.appendingPathComponent(name))
    }

    /// The async form adds alternatives to the three promise-returning functions too
    /// (`refreshToken(_:)`, `trending()`, `popular()`).
    private static func declarations(_ target: String) -> String {
        target == "async" ? "32 candidates: 32 alternatives added, 0 replaced, 0 skipped, 0 already migrated"
            : "29 candidates: 29 alternatives added, 0 replaced, 0 skipped, 0 already migrated"
    }

    /// Refusals both forms share: a callee reached through `?.`.
    private static let sharedRefusals = [
        "1 the callee is reached through `?.`, so the call may not happen at all",
    ]

    private static let forms: [(target: String, summary: String, refusals: [String])] = [
        // A chain needs the shapes its steps can say: the service layer's forwarding callbacks and
        // the screens' other shapes stay. (`guard case .success`, `if case .failure(let e) =
        // result { } else { }` handing on the error, and an inner callback's own `[weak self]`, a
        // chain of its own in the last handler, convert.)
        ("promise", "45 call sites converted, 23", [
            "11 the callback does not consist of one `switch result`",
            "3 a callback called on some paths only, or before other code",
            "1 `defer` inside a failure branch",
            "1 a (Bool, Error?) answer of `(false, nil)` would become a rejection the callback did not have",
            "1 a switch on Result with `default:` or several patterns in a case",
            "1 the callback names its parameters implicitly (`$0`)",
            "1 the callback reads `address` as optional, so a `(nil, nil)` answer means something to it",
            "1 the callback reads `data` as optional, so a `(nil, nil)` answer means something to it",
            "1 the callback reads `price` as optional, so a `(nil, nil)` answer means something to it",
            "1 the callback reads `queries` as optional, so a `(nil, nil)` answer means something to it",
        ]),
        // Async code keeps any callback's code after constants holding what it would have
        // received; the service layer's callbacks answer their own function's handler and stay.
        // A `defer` in a callback that makes no other call stays, and runs last as it did.
        ("async", "50 call sites converted, 24", [
            "1 `[weak self]` on an inner callback only",
            "16 the callback hands its answer on to `completion`, this function's own handler",
            "3 code after the callbacks would run before them inside a `Task`",
            "1 a callback started earlier in the function could run before the new `Task` makes its first call",
            "1 code after an inner call in its callback ran before that callback, and would run after it in straight-line code",
            "1 `error` would need a new name in straight-line code, but the callback declares it again",
        ]),
    ]

    func testTheCorpusBehavesTheSameAfterMigrationInBothFormsWithTheExpectedCounts() throws {
        let lines = try TestSupport.swiftFiles(in: Self.app)
            .map { try String(contentsOf: $0, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).count }
            .reduce(0, +)
        XCTAssertGreaterThanOrEqual(lines, 1_500)

        let root = try TestSupport.temporaryDirectory(self)
        let expected = try buildAndRun(Self.app, as: "original", in: root)
        // Every flow ran, with each of its steps failing in turn, and finished.
        XCTAssertTrue(expected.contains("== checkout.checkOut, mail fails\n"), expected)
        XCTAssertTrue(expected.contains("[main] Feed: ada reposted Post 1, 4 unread\n"), expected)
        XCTAssertTrue(expected.contains("== onboarding.prefetchAll, count fails\n"), expected)
        XCTAssertFalse(expected.contains("TIMED OUT"), expected)

        for form in Self.forms {
            let directory = root.appendingPathComponent(form.target)
            try FileManager.default.copyItem(at: Self.app, to: directory)
            let result = try TestSupport.migrate([directory.path, "--to", form.target, "--stage", "all", "--in-place"])
            XCTAssertEqual(result.status, 0, result.standardError)
            XCTAssertTrue(result.standardError.contains("\(Self.declarations(form.target)); \(form.summary) left alone ("), "\(form.target):\n\(result.standardError)")
            for reason in Self.sharedRefusals + form.refusals {
                XCTAssertTrue(result.standardError.contains(reason), "\(form.target): missing `\(reason)` in\n\(result.standardError)")
            }
            let actual = try buildAndRun(directory, as: "\(form.target)-program", in: root)
            if actual != expected {
                XCTFail("\(form.target) behaves differently:\n" + UnifiedDiffText.make(expected, actual))
            }
            // A second run finds nothing more to do.
            let again = try TestSupport.migrate([directory.path, "--to", form.target, "--stage", "all", "--check"])
            XCTAssertEqual(again.status, 0, again.standardError)
        }
    }
}
