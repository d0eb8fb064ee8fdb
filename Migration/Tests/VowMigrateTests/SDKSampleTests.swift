import Foundation
import VowMigrate
import XCTest

/// `Samples/SDK`: a callback-style SDK of 1,500+ lines over several files (networking, auth,
/// storage, store purchases, image loading, GitHub/Twitter-style clients, a backend, sync), with
/// typealiased handlers across files, multi-value handlers, handler pairs, handles with `cancel()`
/// from a protocol in another file, generic results and handlers called twice. At least 85% of its
/// completion-handler functions must gain an alternative that typechecks; the rest are listed here
/// with their reasons.
final class SDKSampleTests: XCTestCase {
    private var sample: URL { TestSupport.samplesDirectory.appendingPathComponent("SDK") }

    /// Skipped in both forms: `file:line: function` and a part of the reason. (`Storage.migrateFormat`,
    /// whose `guard version > 1 else { return }` answers nothing, gets alternatives that answer
    /// nothing there either.)
    private let skippedInBothForms: [(String, String)] = [
        ("Auth.swift:138: cachedThenFreshUser(completion:)", "more than once (again at line 142)"),
        ("Backend.swift:150: remoteConfig(key:completion:)", "more than once (again at line 154)"),
        ("Backend.swift:161: logEvents(_:completion:)", "the variadic parameter `names` cannot be forwarded"),
        ("GitHubClient.swift:82: allRepositories(query:completion:)", "more than once"),
        ("ImageLoading.swift:76: progressiveImage(from:completion:)", "more than once (again at line 78)"),
        ("Networking.swift:167: retrying(_:attempts:completion:)", "more than once"),
        ("Purchases.swift:113: track(_:completion:)", "it returns `Int` besides calling its handler"),
    ]

    func testTheSampleIsLargeAndTypechecksAsWritten() throws {
        let files = TestSupport.swiftFiles(in: sample)
        let lines = try files.reduce(0) { $0 + (try String(contentsOf: $1, encoding: .utf8)).split(separator: "\n", omittingEmptySubsequences: false).count - 1 }
        XCTAssertGreaterThanOrEqual(lines, 1_500)
        XCTAssertGreaterThanOrEqual(files.count, 8)
        if let diagnostics = try TestSupport.typecheckTogether(files) {
            XCTFail("Samples/SDK does not typecheck:\n\(diagnostics)")
        }
    }

    func testPromiseForm() throws {
        try assertMigration(target: "promise", expectedSkips: skippedInBothForms)
    }

    func testAsyncForm() throws {
        // Defaulted handlers get their alternative in this form too: calls leaving the handler
        // out are spelled out (none in the sample), so none is captured in async code.
        try assertMigration(target: "async", expectedSkips: skippedInBothForms)
    }

    /// `--stage all`: call sites too. A protocol requirement and its conforming type's
    /// implementation with the same signature (`Transport.send`, `TokenStore.load`,
    /// `DocumentStore.document`...) are one callee; of the same-named `delete` functions of
    /// `HTTPClient` and `TwitterClient`, which take different handlers, the receiver's type
    /// (`http: HTTPClient`) tells which is called. An SDK's calls mostly answer their own
    /// function's handler: the async form leaves those alone (a `Task` would start the call after
    /// the function returned; the function's own alternative is its migration), except where no
    /// caller in the tree is left with a callback and the callee runs nothing of the tree's that
    /// shows its thread at once (``ForwardingFacts``), the promise
    /// form's chain starts the call where it was (in `Auth.swift` its last handler keeps the inner
    /// `store.save` callback as it was, a call site of its own; in `Sync.swift` the `guard let url
    /// else { ...; return }` before `images.loadImage` stays in the last handler, whose `return` it
    /// is, the inner callback kept too). Handlers annotated with the value's
    /// type (`{ (result: Result<[String: String], Error>) in }` for a generic `fetch<T>`) keep it.
    /// Statements inside closures are read too; `transactions.removeAll { $0.identifier == id }`
    /// in a queue hop is the array's, not the tree's `removeAll(completion:)`, whose handler takes
    /// no `$0`.
    func testStageAllInBothFormsConvertsCallSitesAndTypechecks() throws {
        for (target, converted, leftAlone) in [("promise", 27, 47), ("async", 37, 35)] {
            let directory = try TestSupport.temporaryDirectory(self)
            let copy = directory.appendingPathComponent("SDK")
            try FileManager.default.copyItem(at: sample, to: copy)
            let result = try TestSupport.migrate([copy.path, "--to", target, "--stage", "all", "--in-place", "--report", "json"])
            XCTAssertEqual(result.status, 0, result.standardError)

            let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            let summary = try XCTUnwrap(report["summary"] as? [String: Any])
            XCTAssertEqual(summary["callSitesConverted"] as? Int, converted, target)
            XCTAssertEqual(summary["callSitesRefused"] as? Int, leftAlone, target)
            let reasons = try XCTUnwrap(summary["refusalReasons"] as? [String: Int])
            XCTAssertEqual(reasons.filter { $0.key.contains("ambiguous") }, [:], target)
            // The promise form leaves the three `http.delete` calls for what their callbacks make of
            // `(false, nil)`; the async form keeps such callbacks as they are (they answer their own
            // function's handler, though, so stay too).
            XCTAssertEqual(reasons.filter { $0.key.contains("(false, nil)") },
                           target == "promise" ? ["a (Bool, Error?) answer of `(false, nil)` would become a rejection the callback did not have": 3] : [:],
                           target)

            if let diagnostics = try TestSupport.typecheckTogether(TestSupport.swiftFiles(in: copy)) {
                XCTFail("Samples/SDK --to \(target) --stage all does not typecheck:\n\(diagnostics)")
            }
        }
    }

    private func assertMigration(target: String, expectedSkips: [(String, String)]) throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let copy = directory.appendingPathComponent("SDK")
        try FileManager.default.copyItem(at: sample, to: copy)
        let result = try TestSupport.migrate([copy.path, "--to", target, "--in-place", "--report", "json"])
        XCTAssertEqual(result.status, 0, result.standardError)

        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let summary = try XCTUnwrap(report["summary"] as? [String: Any]).compactMapValues { $0 as? Int }
        let candidates = try XCTUnwrap(summary["candidates"])
        let added = try XCTUnwrap(summary["added"])
        XCTAssertEqual(candidates, 126, target)
        XCTAssertEqual(added + summary["skipped"]! + summary["alreadyMigrated"]! + summary["replaced"]!, candidates, target)
        XCTAssertEqual(added, candidates - expectedSkips.count, target)
        XCTAssertGreaterThanOrEqual(Double(added) / Double(candidates), 0.85, "\(target): \(added) of \(candidates)")

        var skipped: [String: String] = [:]
        for file in try XCTUnwrap(report["files"] as? [[String: Any]]) {
            let name = URL(fileURLWithPath: try XCTUnwrap(file["path"] as? String)).lastPathComponent
            for finding in try XCTUnwrap(file["findings"] as? [[String: Any]]) where finding["kind"] as? String == "skipped" {
                skipped["\(name):\(finding["line"] as? Int ?? 0): \(finding["function"] as? String ?? "")"] = finding["message"] as? String
            }
        }
        XCTAssertEqual(Set(skipped.keys), Set(expectedSkips.map(\.0)), target)
        for (place, reason) in expectedSkips {
            XCTAssertTrue(skipped[place]?.contains(reason) == true, "\(target) \(place): \(skipped[place] ?? "not skipped")")
        }

        // Every alternative added typechecks, with the rest of the SDK, against Vow.
        if let diagnostics = try TestSupport.typecheckTogether(TestSupport.swiftFiles(in: copy)) {
            XCTFail("Samples/SDK --to \(target) does not typecheck:\n\(diagnostics)")
        }
    }
}
