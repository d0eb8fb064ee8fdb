import Foundation
import XCTest

/// `vow-migrate` as CI and people run it: exit codes, modes, reports and ordering.
final class CommandLineTests: XCTestCase {
    private let callbackFile = """
    import Foundation

    final class Api: Sendable {
        func ping(completion: @escaping @Sendable (Error?) -> Void) {
            completion(nil)
        }
    }

    """

    private func write(_ text: String, _ name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func testAMissingPathIsAClearErrorWithStatus2() throws {
        let result = try TestSupport.migrate(["/nonexistent/Thing.swift", "--to", "promise"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.standardError.contains("/nonexistent/Thing.swift: no such file or directory"), result.standardError)
    }

    func testANonSwiftFileIsAClearErrorWithStatus2AndNothingIsTouched() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let swift = try write(callbackFile, "A.swift", in: directory)
        let text = try write("hello", "notes.txt", in: directory)
        let result = try TestSupport.migrate([swift, text, "--to", "promise", "--in-place"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.standardError.contains("notes.txt: not a Swift file"), result.standardError)
        XCTAssertEqual(try String(contentsOfFile: swift, encoding: .utf8), callbackFile)
    }

    func testAnUnreadablePathIsAClearErrorWithStatus2() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        // A directory named like a Swift file cannot be read as one, whoever runs the test.
        let path = directory.appendingPathComponent("Folder.swift").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let result = try TestSupport.migrate([path, "--to", "async"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.standardError.contains("Folder.swift: cannot be read"), result.standardError)
    }

    func testDiffIsTheDefaultAndTouchesNothing() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let file = try write(callbackFile, "A.swift", in: directory)
        let result = try TestSupport.migrate([file, "--to", "promise"])
        XCTAssertEqual(result.status, 0, result.standardError)
        // An absolute path keeps a single slash after git's `a`/`b` prefixes.
        XCTAssertTrue(file.hasPrefix("/"))
        XCTAssertTrue(result.standardOutput.hasPrefix("--- a\(file)\n+++ b\(file)\n@@ "), result.standardOutput)
        XCTAssertTrue(result.standardOutput.contains("+    func ping() -> Promise<Void> {"))
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), callbackFile)
        XCTAssertTrue(result.standardError.contains("1 alternative added"), result.standardError)
    }

    func testCheckExitsWith1WhenSomethingWouldChangeAnd0AfterInPlace() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let file = try write(callbackFile, "A.swift", in: directory)
        let check = try TestSupport.migrate([directory.path, "--to", "async", "--check"])
        XCTAssertEqual(check.status, 1, check.standardError)
        XCTAssertTrue(check.standardOutput.contains("would change: "), check.standardOutput)
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), callbackFile)

        let inPlace = try TestSupport.migrate([directory.path, "--to", "async", "--in-place"])
        XCTAssertEqual(inPlace.status, 0, inPlace.standardError)
        XCTAssertTrue(try String(contentsOfFile: file, encoding: .utf8).contains("func ping() async throws {"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["A.swift"], "no temporary files left")

        let again = try TestSupport.migrate([directory.path, "--to", "async", "--check"])
        XCTAssertEqual(again.status, 0, again.standardError)
    }

    func testAnUnparseableFileInATreeIsReportedWithLocationLeftAloneAndExits3() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let good = try write(callbackFile, "Good.swift", in: directory)
        let brokenText = "func broken( {\n"
        let broken = try write(brokenText, "Broken.swift", in: directory)
        let result = try TestSupport.migrate([directory.path, "--to", "promise", "--in-place"])
        XCTAssertEqual(result.status, 3, result.standardError)
        XCTAssertTrue(result.standardError.contains("Broken.swift:1:"), result.standardError)
        XCTAssertEqual(try String(contentsOfFile: broken, encoding: .utf8), brokenText)
        XCTAssertTrue(try String(contentsOfFile: good, encoding: .utf8).contains("-> Promise<Void>"))
    }

    func testJSONReportShape() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        _ = try write(callbackFile, "A.swift", in: directory)
        _ = try write("func f(completion: @escaping @Sendable (Data?, Int?, Error?) -> Void) {}\n", "B.swift", in: directory)
        let result = try TestSupport.migrate([directory.path, "--to", "promise", "--report", "json"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        XCTAssertEqual(object["version"] as? Int, 1)
        XCTAssertEqual(object["target"] as? String, "promise")
        XCTAssertEqual(object["mode"] as? String, "diff")
        XCTAssertEqual(object["replace"] as? Bool, false)
        let files = try XCTUnwrap(object["files"] as? [[String: Any]])
        XCTAssertEqual(files.map { ($0["path"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } }, ["A.swift", "B.swift"])
        XCTAssertEqual(files[0]["changed"] as? Bool, true)
        XCTAssertNotNil(files[0]["diff"] as? String)
        let added = try XCTUnwrap((files[0]["findings"] as? [[String: Any]])?.first)
        XCTAssertEqual(added["kind"] as? String, "added")
        XCTAssertEqual(added["function"] as? String, "ping(completion:)")
        XCTAssertEqual(added["line"] as? Int, 4)
        XCTAssertEqual(added["column"] as? Int, 5)
        let skipped = try XCTUnwrap((files[1]["findings"] as? [[String: Any]])?.first)
        XCTAssertEqual(skipped["kind"] as? String, "skipped")
        XCTAssertNotNil(skipped["message"] as? String)
        let summary = try XCTUnwrap(object["summary"] as? [String: Any])
        XCTAssertEqual(summary["files"] as? Int, 2)
        XCTAssertEqual(summary["changedFiles"] as? Int, 1)
        XCTAssertEqual(summary["added"] as? Int, 1)
        XCTAssertEqual(summary["skipped"] as? Int, 1)
        // What the output needs beyond Swift: the promise form imports Vow.
        XCTAssertEqual(files[0]["addsVowImport"] as? Bool, true)
        XCTAssertNil(files[1]["addsVowImport"])
        XCTAssertEqual(summary["vowImportsAdded"] as? Int, 1)
        XCTAssertEqual(summary["outputNeeds"] as? String, "Vow")
    }

    func testTheSummarySaysWhatEachFormsOutputNeedsBeyondSwift() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let path = try write(callbackFile, "A.swift", in: directory)
        let promise = try TestSupport.migrate([path, "--to", "promise"])
        XCTAssertEqual(promise.status, 0, promise.standardError)
        XCTAssertTrue(promise.standardError.contains("; --to promise output needs Vow (import Vow would be added to 1 file);"), promise.standardError)

        let async = try TestSupport.migrate([path, "--to", "async", "--in-place"])
        XCTAssertEqual(async.status, 0, async.standardError)
        XCTAssertTrue(async.standardError.contains("; --to async output needs only Swift;"), async.standardError)
        XCTAssertFalse(try String(contentsOfFile: path, encoding: .utf8).contains("import Vow"))
        let report = try TestSupport.migrate([path, "--to", "async", "--report", "json"])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(report.standardOutput.utf8)) as? [String: Any])
        let summary = try XCTUnwrap(object["summary"] as? [String: Any])
        XCTAssertEqual(summary["outputNeeds"] as? String, "Swift")
        XCTAssertEqual(summary["vowImportsAdded"] as? Int, 0)
    }

    func testOutputOrderIsStableWhateverTheConcurrency() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        for index in 0..<150 {
            let text = callbackFile.replacingOccurrences(of: "func ping(", with: "func ping\(index)(")
            _ = try write(text, "Module\(index % 7)/File\(index).swift", in: directory)
        }
        let serial = try TestSupport.migrate([directory.path, "--to", "promise", "--jobs", "1"])
        let parallel = try TestSupport.migrate([directory.path, "--to", "promise"])
        let parallelAgain = try TestSupport.migrate([directory.path, "--to", "promise"])
        XCTAssertEqual(serial.status, 0, serial.standardError)
        XCTAssertEqual(serial.standardOutput, parallel.standardOutput)
        XCTAssertEqual(parallel.standardOutput, parallelAgain.standardOutput)
        let headers = parallel.standardOutput.split(separator: "\n").filter { $0.hasPrefix("--- a/") }.map(String.init)
        XCTAssertEqual(headers.count, 150, String(parallel.standardOutput.prefix(300)) + parallel.standardError)
        XCTAssertEqual(headers, headers.sorted())
    }

    func testHelpShowsExamplesAndExitCodes() throws {
        let result = try TestSupport.migrate(["--help"])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.standardOutput.contains("EXAMPLES:"))
        XCTAssertTrue(result.standardOutput.contains("EXIT STATUS:"))
        XCTAssertTrue(result.standardOutput.contains("--check"))
        XCTAssertTrue(result.standardOutput.contains("vow-migrate App --from-promisekit --to async --stage all --replace\n"))
        // Laid out for an 80-column terminal: no line wraps again, and the prose has no gap left
        // by a broken line continuation (the options' columns are aligned by the parser).
        let discussion = result.standardOutput.components(separatedBy: "USAGE:")[0]
        for line in result.standardOutput.split(separator: "\n") {
            XCTAssertLessThanOrEqual(line.count, 80, String(line))
        }
        for line in discussion.split(separator: "\n") {
            XCTAssertFalse(line.drop { $0 == " " }.contains("     "), String(line))
        }
    }

    func testVersionNamesTheToolAndItsSwiftSyntax() throws {
        let result = try TestSupport.migrate(["--version"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.standardOutput, "vow-migrate 0.9.0 (swift-syntax 603.0.1)\n")
    }

    /// The install script says how to use it, and refuses what it does not know before building.
    func testTheInstallScriptExplainsItselfAndRefusesUnknownOptions() throws {
        let script = TestSupport.packageDirectory.deletingLastPathComponent().appendingPathComponent("scripts/install-vow-migrate")
        let bash = URL(fileURLWithPath: "/bin/bash")
        let help = try TestSupport.run(bash, [script.path, "--help"])
        XCTAssertEqual(help.status, 0, help.standardError)
        XCTAssertTrue(help.standardOutput.contains("scripts/install-vow-migrate --prefix /usr/local"), help.standardOutput)
        let unknown = try TestSupport.run(bash, [script.path, "--bogus"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertEqual(unknown.standardError, "install-vow-migrate: unknown option '--bogus' (use --prefix FOLDER, --dry-run or --help)\n")
        let missing = try TestSupport.run(bash, [script.path, "--prefix"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.standardError.contains("--prefix needs a folder"), missing.standardError)
    }

    func testTheSampleCommandFromTheReadmePrintsADiff() throws {
        let result = try TestSupport.migrate(["Migration/Samples/LegacyService.swift", "--to", "promise"],
                                             in: TestSupport.packageDirectory.deletingLastPathComponent())
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(result.standardOutput.contains("+import Vow"))
        XCTAssertTrue(result.standardOutput.contains("func signIn(email: String, password: String) -> Promise<Account>"))
        XCTAssertTrue(result.standardError.contains("skipped `enqueueSync(completion:)`"), result.standardError)
    }
}

extension CommandLineTests {
    func testOnlyTheNamedPathsAreTouched() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let named = try write(callbackFile, "Named.swift", in: directory)
        let other = try write(callbackFile, "Other.swift", in: directory)
        let result = try TestSupport.migrate([named, "--to", "promise", "--in-place"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertNotEqual(try String(contentsOfFile: named, encoding: .utf8), callbackFile)
        XCTAssertEqual(try String(contentsOfFile: other, encoding: .utf8), callbackFile)
    }
}

extension CommandLineTests {
    func testAProgressLineIsDrawnOnATerminalOnly() throws {
        let script = URL(fileURLWithPath: "/usr/bin/script")
        guard FileManager.default.isExecutableFile(atPath: script.path) else { throw XCTSkip("needs util-linux `script` for a terminal") }
        let directory = try TestSupport.temporaryDirectory(self)
        for index in 0..<60 {
            _ = try write("func f\(index)(completion: @escaping @Sendable (Error?) -> Void) {}\n", "F\(index).swift", in: directory)
        }
        let command = "\(TestSupport.executable.path) \(directory.path) --to promise --check"
        let onTerminal = try TestSupport.run(script, ["-qec", command, "/dev/null"])
        XCTAssertTrue(onTerminal.standardOutput.contains("vow-migrate: 0/60 files, 0%"), onTerminal.standardOutput)
        XCTAssertTrue(onTerminal.standardOutput.contains("vow-migrate: 60/60 files, 100%"), onTerminal.standardOutput)
        let piped = try TestSupport.migrate([directory.path, "--to", "promise", "--check"])
        XCTAssertFalse(piped.standardError.contains("/60 files"))
    }

    func testOneLargeFileShowsItsStageOnATerminalAndTheSummaryARate() throws {
        let script = URL(fileURLWithPath: "/usr/bin/script")
        guard FileManager.default.isExecutableFile(atPath: script.path) else { throw XCTSkip("needs util-linux `script` for a terminal") }
        let directory = try TestSupport.temporaryDirectory(self)
        // Large enough to take well over the 0.2 s between redraws, even in a release build.
        var text = "import Foundation\n\nfinal class Big: Sendable {\n"
        for index in 0..<1_500 {
            text += "    func load\(index)(id: Int, completion: @escaping @Sendable (Int?, Error?) -> Void) {\n        completion(id, nil)\n    }\n\n"
        }
        text += "}\n"
        let file = try write(text, "Big.swift", in: directory)
        let command = "\(TestSupport.executable.path) \(file) --to promise --check"
        let onTerminal = try TestSupport.run(script, ["-qec", command, "/dev/null"])
        XCTAssertTrue(onTerminal.standardOutput.contains("vow-migrate: 0/1 file, "), onTerminal.standardOutput)
        XCTAssertTrue(onTerminal.standardOutput.contains("% · \(file): rewriting "), onTerminal.standardOutput)
        XCTAssertTrue(onTerminal.standardOutput.contains("1500 alternatives added"), onTerminal.standardOutput)
        XCTAssertTrue(onTerminal.standardOutput.contains(" lines/s)"), onTerminal.standardOutput)
    }
}

// MARK: - --from-promisekit

extension CommandLineTests {
    private var promiseKitFile: String {
        """
        import PromiseKit

        final class Api: Sendable {
            func ping(completion: @escaping @Sendable (Error?) -> Void) {
                completion(nil)
            }

            func latest() -> Promise<Int> {
                Promise.value(1)
            }

            func peek(_ other: Api) -> [Int?] {
                [latest().value, other.cached.value]
            }
        }

        """
    }

    func testFromPromiseKitAlonePrintsTheSwitchAndWarnsAboutUncertainReads() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let file = try write(promiseKitFile, "Api.swift", in: directory)
        let result = try TestSupport.migrate([file, "--from-promisekit"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(result.standardOutput.contains("-import PromiseKit\n+import Vow\n"), result.standardOutput)
        XCTAssertTrue(result.standardOutput.contains("+        [latest().valueIfFulfilled, other.cached.value]"), result.standardOutput)
        XCTAssertFalse(result.standardOutput.contains("func ping() -> Promise<Void>"), "no alternatives without --to")
        XCTAssertTrue(result.standardError.contains(
            "\(file):13:39: warning: `other.cached.value` may be PromiseKit's synchronous `value`; if this is a promise, use `valueIfFulfilled`"),
            result.standardError)
        XCTAssertTrue(result.standardError.contains("2 PromiseKit spellings switched, 1 to review"), result.standardError)
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), promiseKitFile)
    }

    func testFromPromiseKitWithToPromiseSwitchesThenAddsAlternatives() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let file = try write(promiseKitFile, "Api.swift", in: directory)
        let result = try TestSupport.migrate([file, "--from-promisekit", "--to", "promise", "--in-place"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let output = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(output.hasPrefix("import Vow\n\nfinal class Api"), output)
        XCTAssertTrue(output.contains("func ping() -> Promise<Void> {"), output)
        XCTAssertTrue(output.contains("latest().valueIfFulfilled"), output)
        XCTAssertTrue(result.standardError.contains("1 alternative added"), result.standardError)
        let again = try TestSupport.migrate([file, "--from-promisekit", "--to", "promise", "--check"])
        XCTAssertEqual(again.status, 0, again.standardError)
    }

    func testFromPromiseKitCheckExitsWith1UntilSwitched() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let file = try write(promiseKitFile, "Api.swift", in: directory)
        let check = try TestSupport.migrate([directory.path, "--from-promisekit", "--check"])
        XCTAssertEqual(check.status, 1, check.standardError)
        XCTAssertTrue(check.standardOutput.contains("would change: \(file)"), check.standardOutput)
        let inPlace = try TestSupport.migrate([directory.path, "--from-promisekit", "--in-place"])
        XCTAssertEqual(inPlace.status, 0, inPlace.standardError)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["Api.swift"], "no temporary files left")
        let again = try TestSupport.migrate([directory.path, "--from-promisekit", "--check"])
        XCTAssertEqual(again.status, 0, again.standardError)
    }

    func testFromPromiseKitJSONReport() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        _ = try write(promiseKitFile, "Api.swift", in: directory)
        let result = try TestSupport.migrate([directory.path, "--from-promisekit", "--report", "json"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        XCTAssertEqual(object["fromPromiseKit"] as? Bool, true)
        XCTAssertTrue(object["target"] is NSNull)
        let files = try XCTUnwrap(object["files"] as? [[String: Any]])
        let findings = try XCTUnwrap(files.first?["findings"] as? [[String: Any]])
        XCTAssertEqual(findings.map { $0["kind"] as? String }, ["switched", "switched", "review"])
        XCTAssertEqual(findings.last?["line"] as? Int, 13)
        XCTAssertEqual(findings.last?["column"] as? Int, 39)
        let summary = try XCTUnwrap(object["summary"] as? [String: Any])
        XCTAssertEqual(summary["switched"] as? Int, 2)
        XCTAssertEqual(summary["toReview"] as? Int, 1)
    }

    func testNeitherToNorFromPromiseKitIsAUsageError() throws {
        let result = try TestSupport.migrate(["Sources"])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.standardError.contains("--from-promisekit"), result.standardError)
        let replace = try TestSupport.migrate(["Sources", "--from-promisekit", "--replace"])
        XCTAssertEqual(replace.status, 64)
        XCTAssertTrue(replace.standardError.contains("--replace"), replace.standardError)
    }

    func testHelpExplainsSwiftVersionAndItsDefault() throws {
        let result = try TestSupport.migrate(["--help"])
        let help = result.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertTrue(help.contains("--swift-version <5|6>"), help)
        XCTAssertTrue(help.contains("Without it, a file under an Xcode project takes the project's SWIFT_VERSION"), help)
        XCTAssertTrue(help.contains("and any other file Swift 6."), help)
        XCTAssertTrue(help.contains("this flag overrides none of that"), help)
    }

    func testAnInvalidSwiftVersionIsAUsageError() throws {
        let result = try TestSupport.migrate(["x.swift", "--to", "promise", "--swift-version", "4"])
        XCTAssertEqual(result.status, 64, result.standardError)
    }

    func testHelpDescribesFromPromiseKitWithAnExample() throws {
        let result = try TestSupport.migrate(["--help"])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.standardOutput.contains("--from-promisekit"), result.standardOutput)
        XCTAssertTrue(result.standardOutput.contains("vow-migrate Sources --from-promisekit --in-place"), result.standardOutput)
        XCTAssertTrue(result.standardOutput.contains("valueIfFulfilled"), result.standardOutput)
    }
}
