import Foundation
import XCTest

/// `TestBeds/CloudKitchenSDK`: a real-style SDK package (Swift 5 mode, Foundation only) with its
/// own XCTest suite of its callback API. Each form is migrated the way a user would migrate a
/// package (`--stage declarations --in-place` over `Sources` and `Tests`), then the package and
/// its tests are built and the suite is run, unchanged. The promise form depends on Vow by path;
/// the async form must build without it.
///
/// The capture check: every generated function carries a doc comment ending in `added by
/// vow-migrate.`; each one gets `@available(*, deprecated, message: "vow-migrate alternative")`
/// before the build, so any existing call (in the SDK or its tests) that now reaches a generated
/// function shows up as a deprecation warning. Alternatives call their originals, which are not
/// deprecated, so they warn about nothing themselves. The annotation only adds warnings, so the
/// annotated tree builds exactly when the plain migrated tree does and runs the same code: one
/// build per form serves the build, the suite and the check.
///
/// Slow (a package build per form, Vow included for the promise form): about two minutes on two
/// cores.
final class SDKPackageTests: XCTestCase {
    private var testBed: URL { TestSupport.packageDirectory.appendingPathComponent("TestBeds/CloudKitchenSDK") }

    /// What the tool's JSON report says about one run.
    struct Counts: Equatable, CustomStringConvertible {
        var candidates: Int
        var added: Int
        var alreadyMigrated: Int
        var skipped: Int
        /// Skip reasons with names and line numbers blanked out (`…`), cut at the first `;`.
        var skippedByReason: [String: Int]

        var description: String {
            let reasons = skippedByReason.sorted { $0.key < $1.key }.map { "    \($0.value) × \($0.key)" }.joined(separator: "\n")
            return "candidates \(candidates), added \(added), already migrated \(alreadyMigrated), skipped \(skipped):\n\(reasons)"
        }
    }

    // What users get on this package, pinned: a change here is a change in what the tool does on
    // a real package. Both forms build (the async one without Vow), the suite passes unchanged,
    // and no existing call reaches a generated function. Every skip is an unsafe shape: public API
    // whose defaulted handler (or trailing-closure call) external callers would lose to the
    // alternative, overloads differing only in the handler's error type, a handler stored in a
    // property called from two methods; and a helper that returns a response's body besides
    // answering its failures (its caller, whose request cancelled underneath goes unanswered,
    // gets both alternatives).

    private static let sharedSkips: [String: Int] = [
        "it is public and its handler has a default value: callers outside the tree that leave the handler out would call the alternative instead": 12,
        "it is public, and a caller outside the tree passing its handler as a trailing closure (`…`) would reach the alternative's other closure parameter instead": 1,
        "its alternative `…` would be the same as that of `…` at Sources/CloudKitchenSDK/Services/OrderService.swift:…:… (the two differ only in what the alternative drops): neither gets one": 2,
        "it stores its handler in `…`": 1,
        // `checkedBody(of:answering:)`, the helper `ThumbnailLoader` answers through: it hands back
        // the body of a success, and its callers' alternatives are added.
        "it returns `…` besides calling its handler": 1,
    ]

    private let asyncCounts = Counts(candidates: 65, added: 48, alreadyMigrated: 0, skipped: 17, skippedByReason: sharedSkips)

    private let promiseCounts = Counts(candidates: 65, added: 48, alreadyMigrated: 0, skipped: 17, skippedByReason: sharedSkips)

    /// Errors (`file: message`) that stop a migrated copy's build; none today.
    private let asyncKnownBuildErrors: [String] = []

    private let promiseKnownBuildErrors: [String] = []

    func testTheTestBedIsARealSizedSwift5PackageWhoseSuitePasses() throws {
        let sources = TestSupport.swiftFiles(under: testBed.appendingPathComponent("Sources"))
        let lines = try sources.reduce(0) { $0 + (try String(contentsOf: $1, encoding: .utf8)).split(separator: "\n", omittingEmptySubsequences: false).count - 1 }
        XCTAssertGreaterThanOrEqual(lines, 2_000)
        XCTAssertGreaterThanOrEqual(sources.count, 15)
        let manifest = try String(contentsOf: testBed.appendingPathComponent("Package.swift"), encoding: .utf8)
        XCTAssertTrue(manifest.hasPrefix("// swift-tools-version:5.9\n"), "Swift 5 language mode comes from the tools version")
        XCTAssertFalse(manifest.contains("swiftLanguage"))
        XCTAssertFalse(manifest.contains(".package("), "the SDK depends on nothing")
        XCTAssertGreaterThanOrEqual(try testCount(), 60)

        let copy = try copyOfTestBed(named: "original")
        try assertBuildsAndPasses(copy, knownBuildErrors: [])
    }

    func testAsyncForm() throws {
        try assertMigration(to: "async", counts: asyncCounts, knownBuildErrors: asyncKnownBuildErrors)
    }

    func testPromiseForm() throws {
        try assertMigration(to: "promise", counts: promiseCounts, knownBuildErrors: promiseKnownBuildErrors)
    }

    /// `--stage all` in async form over Sources and Tests: the suite's own waits convert too,
    /// expectation flows and the `waitFor { done in sdk.signIn(...) { done(($0, $1)) } }` helper
    /// of `SDKTestCase` (it waits for its closure's answer before it returns: ``WaitingHelper``),
    /// and the package still builds and passes every test.
    func testStageAllInAsyncFormConvertsTheSuitesWaitsAndThePackagePasses() throws {
        let copy = try copyOfTestBed(named: "async-all")
        let arguments = ["Sources", "Tests", "--to", "async", "--stage", "all"]
        let run = try TestSupport.migrate(arguments + ["--in-place", "--report", "json"], in: copy)
        XCTAssertEqual(run.status, 0, run.standardError)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let summary = try XCTUnwrap(report["summary"] as? [String: Any])
        // 87 call sites: calls leaving out a defaulted argument (`sdk.menus.search("   ") { }` of
        // `search(_:in:limit:completion:)`) are read too. (`OrderService.allOrders`' local
        // `next(_:)` hands the function's `completion` on from a callback off the main queue: left
        // alone, its callers' code would move to the task's thread.)
        XCTAssertEqual(summary["callSitesConverted"] as? Int, 26, "\(summary)")
        XCTAssertEqual(summary["callSitesRefused"] as? Int, 61, "\(summary)")
        let auth = try String(contentsOf: copy.appendingPathComponent("Tests/CloudKitchenSDKTests/AuthSessionTests.swift"), encoding: .utf8)
        XCTAssertTrue(auth.contains("value = try await sdk.signIn(email: \"ada@example.com\", password: \"\")"), auth)
        let again = try TestSupport.migrate(arguments + ["--check"], in: copy)
        XCTAssertEqual(again.status, 0, "a second run changes the output again:\n\(again.standardOutput)\(again.standardError)")
        try assertBuildsAndPasses(copy, knownBuildErrors: [])
    }

    /// The check itself, on a tiny package whose "generated" function (written by hand here, so the
    /// check is tested whatever the tool does) takes over a call that omits a defaulted handler.
    func testTheCaptureCheckFindsACallThatAGeneratedFunctionTookOver() throws {
        let package = try TestSupport.temporaryDirectory(self).appendingPathComponent("Tiny")
        try write("""
        // swift-tools-version:5.9
        import PackageDescription

        let package = Package(
            name: "Tiny",
            targets: [
                .target(name: "Tiny"),
                .testTarget(name: "TinyTests", dependencies: ["Tiny"]),
            ]
        )

        """, to: package.appendingPathComponent("Package.swift"))
        try write("""
        /// A stand-in for a promise type, so that the package needs nothing else.
        public final class Pending {
            public init() {}
        }

        public final class Store {
            public private(set) var saves = 0

            public init() {}

            public func save(completion: ((Error?) -> Void)? = nil) {
                saves += 1
                completion?(nil)
            }

            /// Promise-based alternative to `save(completion:)`, added by vow-migrate.
            @discardableResult
            public func save() -> Pending {
                save { _ in }
                return Pending()
            }
        }

        """, to: package.appendingPathComponent("Sources/Tiny/Store.swift"))
        try write("""
        import Tiny
        import XCTest

        final class StoreTests: XCTestCase {
            func testSaving() {
                let store = Store()
                store.save()
                store.save { error in XCTAssertNil(error) }
                XCTAssertEqual(store.saves, 2)
            }
        }

        """, to: package.appendingPathComponent("Tests/TinyTests/StoreTests.swift"))

        let annotated = try annotateAlternatives(in: package)
        XCTAssertEqual(annotated, 1)
        let build = try swiftBuild(package)
        XCTAssertEqual(build.errors, [])
        // The call that leaves the handler out reaches the generated function; the one passing a
        // closure still reaches the original.
        XCTAssertEqual(build.captures, ["Tests/TinyTests/StoreTests.swift:7:15: 'save()' is deprecated: vow-migrate alternative"])
    }

    // MARK: - The steps

    private func assertMigration(to form: String, counts: Counts, knownBuildErrors: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let copy = try copyOfTestBed(named: form)
        let arguments = ["Sources", "Tests", "--to", form, "--stage", "declarations"]
        let run = try TestSupport.migrate(arguments + ["--in-place", "--report", "json"], in: copy)
        XCTAssertEqual(run.status, 0, run.standardError, file: file, line: line)
        let report = try summaryCounts(fromReport: run.standardOutput)
        XCTAssertEqual(report, counts, "\n\(report)", file: file, line: line)
        XCTAssertEqual(report.added + report.alreadyMigrated + report.skipped, report.candidates, file: file, line: line)

        let again = try TestSupport.migrate(arguments + ["--check"], in: copy)
        XCTAssertEqual(again.status, 0, "a second run changes the output again:\n\(again.standardOutput)\(again.standardError)", file: file, line: line)

        if form == "promise" {
            try dependOnVow(copy)
        }
        XCTAssertGreaterThan(try annotateAlternatives(in: copy), 0, file: file, line: line)
        try assertBuildsAndPasses(copy, knownBuildErrors: knownBuildErrors, file: file, line: line)
    }

    /// Builds the package and its tests; with no build error, checks that no call reaches a
    /// generated function and that the whole suite passes.
    private func assertBuildsAndPasses(_ package: URL, knownBuildErrors: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let build = try swiftBuild(package)
        XCTAssertEqual(build.errors, knownBuildErrors, "build errors:\n" + build.errors.joined(separator: "\n"), file: file, line: line)
        guard build.errors.isEmpty else { return }
        XCTAssertEqual(build.captures, [], "existing calls now reach a generated function:\n" + build.captures.joined(separator: "\n"), file: file, line: line)

        let test = try TestSupport.run(swift, ["test", "--skip-build", "--scratch-path", scratchPath(for: package)], in: package)
        let output = test.standardOutput + test.standardError
        XCTAssertEqual(test.status, 0, failures(in: output), file: file, line: line)
        let expected = "Executed \(try testCount()) tests, with 0 failures"
        XCTAssertTrue(output.contains(expected), "expected `\(expected)`:\n\(failures(in: output))", file: file, line: line)
    }

    private struct Build {
        /// `path: message`, relative to the package, sorted and without repeats.
        var errors: [String]
        /// `path:line:column: message` of each deprecation warning naming a generated function.
        var captures: [String]
    }

    private func swiftBuild(_ package: URL) throws -> Build {
        let result = try TestSupport.run(swift, ["build", "--build-tests", "--scratch-path", scratchPath(for: package)], in: package)
        let output = result.standardOutput + "\n" + result.standardError
        let prefix = package.resolvingSymlinksInPath().path + "/"
        var errors = Set<String>(), captures = Set<String>()
        for rawLine in output.split(separator: "\n") {
            var text = String(rawLine)
            // The compiler may name the file through the temporary directory's real path.
            if let start = text.range(of: prefix) { text = String(text[start.upperBound...]) }
            else if let start = text.range(of: package.path + "/") { text = String(text[start.upperBound...]) }
            else { continue }
            let parts = text.components(separatedBy: ": ")
            guard parts.count >= 3 else { continue }
            let location = parts[0], kind = parts[1], message = parts[2...].joined(separator: ": ")
            let path = location.split(separator: ":").first.map(String.init) ?? location
            if kind == "error" {
                errors.insert("\(path): \(message)")
            } else if kind == "warning", message.contains("vow-migrate alternative") {
                captures.insert("\(location): \(message.replacingOccurrences(of: " [#DeprecatedDeclaration]", with: ""))")
            }
        }
        if result.status != 0 && errors.isEmpty {
            errors.insert("build failed without a located error:\n" + output.suffix(2_000))
        }
        return Build(errors: errors.sorted(), captures: captures.sorted())
    }

    /// Inserts the deprecation after each doc comment line that marks a generated declaration;
    /// how many were marked.
    private func annotateAlternatives(in package: URL) throws -> Int {
        var marked = 0
        for file in TestSupport.swiftFiles(under: package.appendingPathComponent("Sources")) + TestSupport.swiftFiles(under: package.appendingPathComponent("Tests")) {
            let text = try String(contentsOf: file, encoding: .utf8)
            var lines: [String] = []
            for line in text.components(separatedBy: "\n") {
                lines.append(line)
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("///") && trimmed.hasSuffix("added by vow-migrate.") {
                    let indentation = String(line.prefix { $0 == " " || $0 == "\t" })
                    lines.append(indentation + "@available(*, deprecated, message: \"vow-migrate alternative\")")
                    marked += 1
                }
            }
            try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        }
        return marked
    }

    /// The promise form's manifest: Vow by path (this repository's root package) for the SDK target.
    private func dependOnVow(_ package: URL) throws {
        let root = TestSupport.packageDirectory.deletingLastPathComponent().standardizedFileURL
        let manifestURL = package.appendingPathComponent("Package.swift")
        var manifest = try String(contentsOf: manifestURL, encoding: .utf8)
        let targets = "    targets: [\n"
        let sdkTarget = "            name: \"CloudKitchenSDK\"\n        ),"
        XCTAssertTrue(manifest.contains(targets) && manifest.contains(sdkTarget), "the manifest's shape changed:\n\(manifest)")
        // A path dependency's identity is its directory's name, whatever the package calls itself.
        manifest = manifest.replacingOccurrences(of: targets, with: "    dependencies: [\n        .package(path: \"\(root.path)\"),\n    ],\n" + targets)
        manifest = manifest.replacingOccurrences(of: sdkTarget, with: "            name: \"CloudKitchenSDK\",\n            dependencies: [.product(name: \"Vow\", package: \"\(root.lastPathComponent)\")]\n        ),")
        try manifest.write(to: manifestURL, atomically: true, encoding: .utf8)
    }

    // MARK: - Helpers

    /// The manifest, `Sources` and `Tests` (not a `.build` left by someone working on the test bed).
    private func copyOfTestBed(named name: String) throws -> URL {
        let copy = try TestSupport.temporaryDirectory(self).appendingPathComponent(name)
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for item in ["Package.swift", "Sources", "Tests"] {
            try FileManager.default.copyItem(at: testBed.appendingPathComponent(item), to: copy.appendingPathComponent(item))
        }
        return copy
    }

    /// Beside the package, inside the temporary directory, so nothing is shared with other builds.
    private func scratchPath(for package: URL) -> String {
        package.deletingLastPathComponent().appendingPathComponent(".build-\(package.lastPathComponent)").path
    }

    private var swift: URL { TestSupport.swiftc.deletingLastPathComponent().appendingPathComponent("swift") }

    /// The test methods of the test bed's suite.
    private func testCount() throws -> Int {
        try TestSupport.swiftFiles(under: testBed.appendingPathComponent("Tests")).reduce(0) { count, file in
            count + (try String(contentsOf: file, encoding: .utf8)).components(separatedBy: "\n").filter { $0.hasPrefix("    func test") }.count
        }
    }

    private func summaryCounts(fromReport json: String) throws -> Counts {
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let summary = try XCTUnwrap(report["summary"] as? [String: Any])
        var reasons: [String: Int] = [:]
        for file in report["files"] as? [[String: Any]] ?? [] {
            for finding in file["findings"] as? [[String: Any]] ?? [] where finding["kind"] as? String == "skipped" {
                reasons[reasonKey(finding["message"] as? String ?? ""), default: 0] += 1
            }
        }
        return Counts(
            candidates: summary["candidates"] as? Int ?? -1,
            added: summary["added"] as? Int ?? -1,
            alreadyMigrated: summary["alreadyMigrated"] as? Int ?? -1,
            skipped: summary["skipped"] as? Int ?? -1,
            skippedByReason: reasons
        )
    }

    /// A skip reason without what differs from function to function: code in backticks and
    /// numbers become `…`, and the advice after the first `;` goes.
    private func reasonKey(_ message: String) -> String {
        // Every other piece between backticks is code. Language words stay: they say what the
        // reason is about, not which function it is.
        let pieces = message.components(separatedBy: ";")[0].components(separatedBy: "`").enumerated().map { index, piece in
            index % 2 == 1 && !["Sendable", "await", "async"].contains(piece) ? "…" : piece
        }
        return pieces.joined(separator: "`").replacingOccurrences(of: "[0-9]+", with: "…", options: .regularExpression)
    }

    /// The failing tests' lines of a `swift test` output, or its end when there are none.
    private func failures(in output: String) -> String {
        let lines = output.split(separator: "\n").filter { $0.contains("error:") || $0.contains("failed") }
        return lines.isEmpty ? String(output.suffix(3_000)) : lines.joined(separator: "\n")
    }

    private func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
}
