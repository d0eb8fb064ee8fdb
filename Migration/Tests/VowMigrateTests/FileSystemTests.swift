import Foundation
import XCTest
import VowMigrate
@testable import VowMigrateDriver
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `vow-migrate` against the file system as a new user meets it: read-only files and folders,
/// symbolic links (named, inside trees, in cycles), owners, byte order marks, line endings,
/// files that are not UTF-8, and flags that do not go together. The tests run as root here,
/// so "read-only" is the mode bits, which the tool honours whoever runs it.
final class FileSystemTests: XCTestCase {
    private let callbackFile = """
    import Foundation

    final class Api: Sendable {
        func ping(completion: @escaping @Sendable (Error?) -> Void) {
            completion(nil)
        }
    }

    """

    @discardableResult
    private func write(_ text: String, _ name: String, in directory: URL) throws -> String {
        try write(Data(text.utf8), name, in: directory)
    }

    @discardableResult
    private func write(_ data: Data, _ name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
        return url.path
    }

    private func read(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    private func mode(_ path: String) -> mode_t {
        var status = stat()
        XCTAssertEqual(stat(path, &status), 0)
        return status.st_mode & 0o7777
    }

    private func isSymbolicLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK
    }

    /// Makes `path` writable again when the test ends, so the temporary directory can go.
    private func restoreWhenDone(_ path: String) {
        addTeardownBlock { chmod(path, 0o755) }
    }

    // MARK: - Read-only files and directories

    func testInPlaceLeavesAReadOnlyFileSaysNotWritableAndExits3() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let readOnly = try write(callbackFile, "ReadOnly.swift", in: directory)
        let writable = try write(callbackFile, "Writable.swift", in: directory)
        XCTAssertEqual(chmod(readOnly, 0o444), 0)
        let result = try TestSupport.migrate([directory.path, "--to", "promise", "--in-place"])
        XCTAssertEqual(result.status, 3, result.standardError)
        XCTAssertTrue(result.standardError.contains("\(readOnly): error: not writable: the file is read-only (mode 444)"), result.standardError)
        XCTAssertEqual(try read(readOnly), callbackFile)
        XCTAssertEqual(mode(readOnly), 0o444)
        XCTAssertTrue(try read(writable).contains("func ping() -> Promise<Void> {"), "the other files are migrated")
        XCTAssertTrue(result.standardError.contains("2 files, 1 changed;"), result.standardError)
        XCTAssertTrue(result.standardError.contains("1 file(s) could not be read or written (left as they were)"), result.standardError)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted(), ["ReadOnly.swift", "Writable.swift"])
    }

    func testInPlaceInAReadOnlyDirectoryCountsNothingAsChanged() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let folder = directory.appendingPathComponent("Locked")
        let file = try write(callbackFile, "Api.swift", in: folder)
        XCTAssertEqual(chmod(folder.path, 0o555), 0)
        restoreWhenDone(folder.path)
        let result = try TestSupport.migrate([folder.path, "--to", "async", "--in-place"])
        XCTAssertEqual(result.status, 3, result.standardError)
        XCTAssertTrue(result.standardError.contains("\(file): error: not writable: its directory \(folder.path) is read-only (mode 555)"), result.standardError)
        XCTAssertTrue(result.standardError.contains("vow-migrate: 1 file, 0 changed;"), result.standardError)
        XCTAssertEqual(try read(file), callbackFile)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["Api.swift"], "no temporary file")
    }

    func testInPlaceJSONMarksTheUnwrittenFileWithItsError() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let file = try write(callbackFile, "Api.swift", in: directory)
        XCTAssertEqual(chmod(file, 0o400), 0)
        let result = try TestSupport.migrate([file, "--to", "promise", "--in-place", "--report", "json"])
        XCTAssertEqual(result.status, 3, result.standardError)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let report = try XCTUnwrap((object["files"] as? [[String: Any]])?.first)
        XCTAssertEqual(report["changed"] as? Bool, true, "it still needs the change")
        XCTAssertTrue((report["error"] as? String)?.hasPrefix("not writable: the file is read-only (mode 400)") == true, "\(report)")
        let summary = try XCTUnwrap(object["summary"] as? [String: Any])
        XCTAssertEqual(summary["changedFiles"] as? Int, 0)
        XCTAssertEqual(summary["failedFiles"] as? Int, 1)
    }

    func testAWriteThatFailsIsNotCountedAsAChange() {
        var summary = RunSummary()
        summary.count(FileReport(path: "A.swift", changed: true, lines: 3, findings: [], error: "not writable"))
        summary.count(FileReport(path: "B.swift", changed: true, lines: 4, findings: []))
        XCTAssertEqual(summary.changedFiles, 1)
        XCTAssertEqual(summary.failedFiles, 1)
        XCTAssertEqual(summary.lines, 7)
    }

    func testWriteProblemHonoursModeBitsWhoeverRuns() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let file = try write(callbackFile, "A.swift", in: directory)
        XCTAssertNil(AtomicFile.writeProblem(for: file))
        chmod(file, 0o444)
        XCTAssertEqual(AtomicFile.writeProblem(for: file), "not writable: the file is read-only (mode 444); make it writable to migrate it")
        XCTAssertThrowsError(try AtomicFile.write("new", to: file))
        XCTAssertEqual(try read(file), callbackFile)
    }

    // MARK: - Symbolic links

    func testASymlinkedDirectoryNamedOnTheCommandLineIsSearched() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        try write(callbackFile, "Real/Api.swift", in: directory)
        let link = directory.appendingPathComponent("Linked").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "Real")
        let check = try TestSupport.migrate([link, "--to", "promise", "--check"])
        XCTAssertEqual(check.status, 1, check.standardError)
        XCTAssertEqual(check.standardOutput, "would change: \(link)/Api.swift\n")
        XCTAssertTrue(check.standardError.contains("vow-migrate: 1 file, 1 would change;"), check.standardError)
    }

    func testInPlaceOnANamedSymlinkWritesTheTargetAndKeepsTheLink() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let target = try write(callbackFile, "Shared/Api.swift", in: directory)
        let link = directory.appendingPathComponent("Api.swift").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "Shared/Api.swift")
        let result = try TestSupport.migrate([link, "--to", "async", "--in-place"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(isSymbolicLink(link), "the link stays a link")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), "Shared/Api.swift")
        XCTAssertTrue(try read(target).contains("func ping() async throws {"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("Shared").path), ["Api.swift"])
    }

    func testALinkToAFileInsideATreeIsFollowedOnceAndItsTargetWritten() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let tree = directory.appendingPathComponent("Tree")
        let outside = try write(callbackFile, "Vendor/Client.swift", in: directory)
        try write(callbackFile.replacingOccurrences(of: "func ping(", with: "func pong("), "Own.swift", in: tree)
        let link = tree.appendingPathComponent("Client.swift").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside)
        let result = try TestSupport.migrate([tree.path, "--to", "promise", "--in-place"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(result.standardError.contains("vow-migrate: 2 files, 2 changed;"), result.standardError)
        XCTAssertTrue(isSymbolicLink(link))
        XCTAssertTrue(try read(outside).contains("func ping() -> Promise<Void> {"))
    }

    func testALinkBesideItsTargetIsMigratedOnceAndReported() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let target = try write(callbackFile, "Api.swift", in: directory)
        let alias = directory.appendingPathComponent("Zlias.swift").path
        try FileManager.default.createSymbolicLink(atPath: alias, withDestinationPath: "Api.swift")
        let result = try TestSupport.migrate([directory.path, "--to", "promise", "--in-place"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(result.standardError.contains("\(alias): note: skipped: the same file as \(target); migrated once, under that path"), result.standardError)
        XCTAssertTrue(result.standardError.contains("vow-migrate: 1 file, 1 changed;"), result.standardError)
        XCTAssertEqual(try read(target).components(separatedBy: "func ping() -> Promise<Void>").count, 2, "one alternative, not two")
    }

    func testADirectoryLinkCycleIsSkippedAndReportedAndTheRestIsMigrated() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let tree = directory.appendingPathComponent("Tree")
        try write(callbackFile, "Module/Api.swift", in: tree)
        let loop = tree.appendingPathComponent("Module/Loop").path
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: "..")
        let result = try TestSupport.migrate([tree.path, "--to", "promise", "--check"])
        XCTAssertEqual(result.status, 1, result.standardError)
        XCTAssertEqual(result.standardOutput, "would change: \(tree.path)/Module/Api.swift\n")
        XCTAssertTrue(result.standardError.contains("\(loop): note: skipped: symbolic link cycle: leads back to \(tree.path), already searched"),
                      result.standardError)
        XCTAssertTrue(result.standardError.contains("1 path(s) skipped (listed above)"), result.standardError)

        let json = try TestSupport.migrate([tree.path, "--to", "promise", "--report", "json"])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let skipped = try XCTUnwrap(object["skippedPaths"] as? [[String: Any]])
        XCTAssertEqual(skipped.map { $0["path"] as? String }, [loop])
        XCTAssertEqual((object["summary"] as? [String: Any])?["skippedPaths"] as? Int, 1)
    }

    func testABrokenLinkInATreeIsReportedNotFatal() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        try write(callbackFile, "Api.swift", in: directory)
        let broken = directory.appendingPathComponent("Gone.swift").path
        try FileManager.default.createSymbolicLink(atPath: broken, withDestinationPath: "Nowhere.swift")
        let result = try TestSupport.migrate([directory.path, "--to", "promise", "--check"])
        XCTAssertEqual(result.status, 1, result.standardError)
        XCTAssertTrue(result.standardError.contains("\(broken): note: skipped: broken symbolic link (to Nowhere.swift)"), result.standardError)
    }

    func testANamedDirectoryWithoutSwiftFilesFailsInsteadOfPassingCheck() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        try write("notes", "README.md", in: directory)
        let result = try TestSupport.migrate([directory.path, "--to", "promise", "--check"])
        XCTAssertEqual(result.status, 2, result.standardError)
        XCTAssertTrue(result.standardError.contains("\(directory.path): no .swift files in this directory"), result.standardError)
    }

    func testABrokenLinkNamedOnTheCommandLineIsAClearError() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let link = directory.appendingPathComponent("Sources").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "Missing")
        let result = try TestSupport.migrate([link, "--to", "promise", "--check"])
        XCTAssertEqual(result.status, 2, result.standardError)
        XCTAssertTrue(result.standardError.contains("\(link): a symbolic link to Missing, which cannot be followed"), result.standardError)
    }

    // MARK: - Owner, permissions, byte order mark, line endings

    func testInPlaceKeepsOwnerGroupAndPermissions() throws {
        guard geteuid() == 0 else { throw XCTSkip("giving a file to another owner needs root") }
        let directory = try TestSupport.temporaryDirectory(self)
        let file = try write(callbackFile, "Api.swift", in: directory)
        XCTAssertEqual(chown(file, 4321, 8765), 0)
        XCTAssertEqual(chmod(file, 0o640), 0)
        let result = try TestSupport.migrate([file, "--to", "promise", "--in-place"])
        XCTAssertEqual(result.status, 0, result.standardError)
        var status = stat()
        XCTAssertEqual(stat(file, &status), 0)
        XCTAssertEqual(status.st_uid, 4321)
        XCTAssertEqual(status.st_gid, 8765)
        XCTAssertEqual(status.st_mode & 0o7777, 0o640)
        XCTAssertTrue(try read(file).contains("-> Promise<Void>"))
    }

    func testInPlaceKeepsTheByteOrderMarkAndWindowsLineEndings() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let crlf = callbackFile.replacingOccurrences(of: "\n", with: "\r\n")
        let file = try write(Data([0xEF, 0xBB, 0xBF]) + Data(crlf.utf8), "Api.swift", in: directory)
        let result = try TestSupport.migrate([file, "--to", "promise", "--in-place"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        XCTAssertEqual(Array(bytes.prefix(3)), [0xEF, 0xBB, 0xBF], "the byte order mark survives")
        XCTAssertEqual(bytes.filter { $0 == 0xEF }.count, 1, "once")
        let text = String(decoding: bytes.dropFirst(3), as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("import Foundation\r\nimport Vow\r\n"), text)
        XCTAssertTrue(text.contains("func ping() -> Promise<Void> {\r\n"), text)
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            XCTAssertEqual(bytes[index - 1], UInt8(ascii: "\r"), "a bare LF at byte \(index)")
        }
        let again = try TestSupport.migrate([file, "--to", "promise", "--check"])
        XCTAssertEqual(again.status, 0, again.standardError)
    }

    /// The index pass reads files as the run does: `--context` through a linked folder, and a
    /// file with a byte order mark, still lend their typealias to the file migrated.
    func testTheIndexPassReadsContextThroughLinksAndByteOrderMarks() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        try write(Data([0xEF, 0xBB, 0xBF]) + Data("typealias Done = (Error?) -> Void\r\n".utf8), "Vendor/Types.swift", in: directory)
        let link = directory.appendingPathComponent("VendorLink").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "Vendor")
        let api = try write(callbackFile.replacingOccurrences(of: "(Error?) -> Void", with: "Done"), "App/Api.swift", in: directory)
        let result = try TestSupport.migrate([api, "--context", link, "--to", "async"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(result.standardOutput.contains("+    nonisolated(nonsending) func ping() async throws {"), result.standardOutput)
        XCTAssertTrue(result.standardError.contains("1 candidate: 1 alternative added"), result.standardError)
    }

    func testTheDiffOfAFileWithAByteOrderMarkDoesNotTouchItsFirstLine() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let file = try write(Data([0xEF, 0xBB, 0xBF]) + Data(callbackFile.utf8), "Api.swift", in: directory)
        let result = try TestSupport.migrate([file, "--to", "promise"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertFalse(result.standardOutput.contains("-import Foundation"), result.standardOutput)
        XCTAssertTrue(result.standardOutput.contains("+import Vow\n"), result.standardOutput)
    }

    func testInAFileMixingLineEndingsGeneratedLinesTakeTheirNeighboursEnding() {
        // `Windows` was written on Windows (CRLF), `Unix` pasted in later (LF); the import line is LF.
        let windows = "final class Windows: Sendable {\r\n    func ping(completion: @escaping @Sendable (Error?) -> Void) {\r\n        completion(nil)\r\n    }\r\n}\r\n"
        let unix = "final class Unix: Sendable {\n    func pong(completion: @escaping @Sendable (Error?) -> Void) {\n        completion(nil)\n    }\n}\n"
        let source = "import Foundation\n\n" + windows + "\n" + unix
        let output = SourceMigrator.migrate(source: source, fileName: "Mixed.swift", options: .init(target: .promise)).output
        XCTAssertTrue(output.hasPrefix("import Foundation\nimport Vow\n\nfinal class Windows"), output)
        let windowsPart = String(output[output.range(of: "final class Windows")!.lowerBound..<output.range(of: "final class Unix")!.lowerBound])
        let unixPart = String(output[output.range(of: "final class Unix")!.lowerBound...])
        XCTAssertTrue(windowsPart.contains("func ping() -> Promise<Void> {\r\n        Promise { seal in\r\n"), windowsPart)
        XCTAssertFalse(windowsPart.dropLast(2).replacingOccurrences(of: "\r\n", with: "").contains("\n"), "a bare LF among the CRLF lines")
        XCTAssertTrue(unixPart.contains("func pong() -> Promise<Void> {\n        Promise { seal in\n"), unixPart)
        XCTAssertFalse(unixPart.contains("\r"), "a CR among the LF lines")
        XCTAssertFalse(SourceMigrator.migrate(source: output, fileName: "Mixed.swift", options: .init(target: .promise)).changed)
    }

    // MARK: - Clear errors

    func testInvalidUTF8NamesTheFileAndTheByteOffset() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        // "café" in Latin-1 on line 2: the é is byte 0xE9, at offset 18 + 6 = 24.
        var bytes = Array("import Foundation\n// caf".utf8)
        let offset = bytes.count
        bytes.append(0xE9)
        bytes += Array(" au lait\n".utf8)
        let bad = try write(Data(bytes), "Latin1.swift", in: directory)
        let good = try write(callbackFile, "Good.swift", in: directory)
        let result = try TestSupport.migrate([directory.path, "--to", "promise", "--in-place"])
        XCTAssertEqual(result.status, 3, result.standardError)
        XCTAssertEqual(offset, 24)
        XCTAssertTrue(result.standardError.contains(
            "\(bad): error: is not valid UTF-8: the first bad byte, 0xE9, is at byte offset 24 (line 2, column 7)"), result.standardError)
        XCTAssertEqual([UInt8](try Data(contentsOf: URL(fileURLWithPath: bad))), bytes, "left as it was")
        XCTAssertTrue(try read(good).contains("-> Promise<Void>"))
    }

    func testUTF8ValidationFindsTheFirstIllFormedSequence() {
        XCTAssertNil(SourceText.firstInvalidByte(in: Array("héllo 🙂 ✓".utf8), from: 0))
        XCTAssertEqual(SourceText.firstInvalidByte(in: [0x61, 0xC3], from: 0), 1, "truncated at the end")
        XCTAssertEqual(SourceText.firstInvalidByte(in: [0x61, 0xC0, 0x80], from: 0), 1, "overlong")
        XCTAssertEqual(SourceText.firstInvalidByte(in: [0x61, 0x62, 0xED, 0xA0, 0x80], from: 0), 2, "surrogate")
        XCTAssertEqual(SourceText.firstInvalidByte(in: [0xF4, 0x90, 0x80, 0x80], from: 0), 0, "past U+10FFFF")
        XCTAssertEqual(SourceText.firstInvalidByte(in: [0x61, 0x80], from: 0), 1, "lone continuation byte")
    }

    func testInPlaceAndCheckTogetherIsAUsageErrorWithASentence() throws {
        let result = try TestSupport.migrate(["Sources", "--to", "promise", "--in-place", "--check"])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.standardError.contains(
            "--in-place and --check cannot be used together: --diff shows the changes, --in-place makes them, --check only tells whether there are any (exit 1)."),
            result.standardError)
    }

    func testAnUnknownFlagGetsASuggestion() throws {
        let result = try TestSupport.migrate(["Sources", "--to", "promise", "--in-palce"])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.standardError.contains("Unknown option '--in-palce'. Did you mean '--in-place'?"), result.standardError)
    }

    func testHelpTeachesTheWorkflowExamplesAndExitCodes() throws {
        let result = try TestSupport.migrate(["--help"])
        XCTAssertEqual(result.status, 0)
        for heading in ["WORKFLOW:", "EXAMPLES:", "EXIT STATUS:", "PATHS:"] {
            XCTAssertTrue(result.standardOutput.contains(heading), heading)
        }
        XCTAssertTrue(result.standardOutput.contains("vow-migrate Sources --to async --check"))
        XCTAssertTrue(result.standardOutput.contains("read-only files"))
    }
}
