import Foundation
import XCTest

/// Every expected output must compile against the Vow module built with this package, so a
/// rewrite that only looks right cannot pass. Files are typechecked one compiler run each (they
/// declare the same model names), two at a time.
final class TypecheckTests: XCTestCase {
    /// Typechecks each file; with `forbidding`, a diagnostic containing that text fails it too.
    private func typecheck(_ files: [URL], forbidding marker: String? = nil, swiftVersion: String = "6") -> [Failure] {
        let failures = FailureList()
        let modules = TestSupport.modulesDirectory.path
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let file = files[index]
            do {
                let result = try TestSupport.run(Self.swiftc, ["-typecheck", "-swift-version", swiftVersion, "-I", modules, file.path])
                if result.status != 0 || marker.map(result.standardError.contains) == true {
                    failures.append(Failure(file: file.path, diagnostics: result.standardError))
                }
            } catch {
                failures.append(Failure(file: file.path, diagnostics: "\(error)"))
            }
        }
        return failures.all
    }

    private static var swiftc: URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("swiftc")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return URL(fileURLWithPath: "/usr/bin/swiftc")
    }

    func testVowModuleIsAvailableToTheTypechecker() {
        XCTAssertTrue(FileManager.default.fileExists(atPath: TestSupport.modulesDirectory.appendingPathComponent("Vow.swiftmodule").path),
                      "Vow.swiftmodule not found in \(TestSupport.modulesDirectory.path)")
    }

    func testEveryFixtureInputAndExpectedOutputTypechecks() throws {
        XCTAssertFalse(TestSupport.promiseKitFixtureNames.isEmpty)
        var files: [URL] = []
        for name in TestSupport.fixtureNames {
            // A PromiseKit fixture's input needs PromiseKit, which is not here; its output needs only Vow.
            let names = TestSupport.isPromiseKitFixture(name) ? ["vow.swift"] : ["input.swift", "promise.swift", "async.swift"]
            for file in names {
                files.append(TestSupport.fixturesDirectory.appendingPathComponent(name).appendingPathComponent(file))
            }
        }
        XCTAssertGreaterThan(files.count, 60)
        // Outputs of the declarations stage are checked with every generated alternative marked
        // deprecated: no existing call may reach one (an added overload must not capture calls
        // that reached the original). The alternatives call their originals, which stay unmarked.
        let directory = try TestSupport.temporaryDirectory(self)
        var checked: [URL] = []
        for file in files {
            let name = file.deletingLastPathComponent().lastPathComponent
            guard file.lastPathComponent != "input.swift", !TestSupport.isPromiseKitFixture(name),
                  !TestSupport.isCallSiteFixture(name), !TestSupport.isReplaceFixture(name) else {
                checked.append(file)
                continue
            }
            let marked = directory.appendingPathComponent("\(name)-\(file.lastPathComponent)")
            try Self.markingAlternativesDeprecated(String(contentsOf: file, encoding: .utf8)).write(to: marked, atomically: true, encoding: .utf8)
            checked.append(marked)
        }
        for failure in typecheck(checked, forbidding: Self.alternativeMarker) {
            XCTFail("\(failure.file) does not typecheck against Vow, or an existing call reaches a generated alternative:\n\(failure.diagnostics)")
        }
    }

    /// Most code still on callbacks builds in Swift 5 mode: every input and expected output must
    /// typecheck there too (no capture check needed twice).
    func testEveryFixtureInputAndExpectedOutputTypechecksInSwift5Mode() throws {
        var files: [URL] = []
        for name in TestSupport.fixtureNames {
            let names = TestSupport.isPromiseKitFixture(name) ? ["vow.swift"] : ["input.swift", "promise.swift", "async.swift"]
            files += names.map { TestSupport.fixturesDirectory.appendingPathComponent(name).appendingPathComponent($0) }
        }
        for failure in typecheck(files, swiftVersion: "5") {
            XCTFail("\(failure.file) does not typecheck against Vow in Swift 5 mode:\n\(failure.diagnostics)")
        }
    }

    func testTheCaptureCheckSeesACallThatReachesAnAlternative() throws {
        // The check above must be able to fail: a call written against the alternative warns.
        let source = "func f(completion: @escaping @Sendable (Error?) -> Void) { completion(nil) }\n"
            + "/// Async alternative to `f(completion:)`, added by vow-migrate.\nfunc f() async throws {}\n"
            + "func g() async throws { try await f() }\n"
        let file = try TestSupport.temporaryDirectory(self).appendingPathComponent("captured.swift")
        try Self.markingAlternativesDeprecated(source).write(to: file, atomically: true, encoding: .utf8)
        let failures = typecheck([file], forbidding: Self.alternativeMarker)
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(failures.first?.diagnostics.contains("'f()' is deprecated: \(Self.alternativeMarker)") == true,
                      failures.first?.diagnostics ?? "")
    }

    static let alternativeMarker = "vow-migrate alternative"

    /// `@available(*, deprecated, message: "vow-migrate alternative")` under the doc comment of
    /// every generated alternative.
    static func markingAlternativesDeprecated(_ source: String) -> String {
        var lines: [Substring] = []
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            lines.append(line)
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix("///"), trimmed.contains("alternative to `"), trimmed.hasSuffix("added by vow-migrate.") {
                lines.append(line.prefix { $0 == " " || $0 == "\t" } + "@available(*, deprecated, message: \"\(alternativeMarker)\")")
            }
        }
        return lines.joined(separator: "\n")
    }

    func testTheSampleTypechecksBeforeAndAfterMigration() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let sample = TestSupport.samplesDirectory.appendingPathComponent("LegacyService.swift")
        var files = [sample]
        for target in ["promise", "async"] {
            let copy = directory.appendingPathComponent("\(target).swift")
            try FileManager.default.copyItem(at: sample, to: copy)
            // `--stage all`: the alternatives and the sample's call sites flattened onto them.
            let result = try TestSupport.migrate([copy.path, "--to", target, "--stage", "all", "--in-place"])
            XCTAssertEqual(result.status, 0, result.standardError)
            files.append(copy)
        }
        for failure in typecheck(files) {
            XCTFail("\(failure.file) does not typecheck against Vow:\n\(failure.diagnostics)")
        }
    }
}

private struct Failure: Sendable {
    var file: String
    var diagnostics: String
}

private final class FailureList: @unchecked Sendable {
    private let lock = NSLock()
    private var failures: [Failure] = []

    func append(_ failure: Failure) {
        lock.lock()
        failures.append(failure)
        lock.unlock()
    }

    var all: [Failure] {
        lock.lock()
        defer { lock.unlock() }
        return failures
    }
}
