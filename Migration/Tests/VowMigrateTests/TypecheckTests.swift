import Foundation
import XCTest

/// Every expected output must compile against the Vow module built with this package, so a
/// rewrite that only looks right cannot pass. Files are typechecked one compiler run each (they
/// declare the same model names), two at a time.
final class TypecheckTests: XCTestCase {
    private func typecheck(_ files: [URL]) -> [Failure] {
        let failures = FailureList()
        let modules = TestSupport.modulesDirectory.path
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let file = files[index]
            do {
                let result = try TestSupport.run(Self.swiftc, ["-typecheck", "-swift-version", "6", "-I", modules, file.path])
                if result.status != 0 {
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
        for failure in typecheck(files) {
            XCTFail("\(failure.file) does not typecheck against Vow:\n\(failure.diagnostics)")
        }
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
