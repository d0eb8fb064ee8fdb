import Foundation
import XCTest

/// Paths the tests need: the package, its fixtures, and the build products (the `vow-migrate`
/// binary and `Vow.swiftmodule`) next to the test bundle.
enum TestSupport {
    static let packageDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let fixturesDirectory = packageDirectory.appendingPathComponent("Fixtures")
    static let samplesDirectory = packageDirectory.appendingPathComponent("Samples")

    /// One folder per pattern with an `input.swift`, sorted by name (`tree-*` folders hold
    /// multi-file trees instead, see `IndexTests`).
    static var fixtureNames: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fixturesDirectory.path)) ?? []
        return names.filter { name in
            !name.hasPrefix(".") && FileManager.default.fileExists(atPath: fixturesDirectory.appendingPathComponent(name).appendingPathComponent("input.swift").path)
        }.sorted()
    }

    /// The `.swift` files of a folder, sorted.
    static func swiftFiles(in directory: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".swift") }.sorted().map { directory.appendingPathComponent($0) }
    }

    /// Every `.swift` file under `directory`, in subfolders too, sorted by path.
    static func swiftFiles(under directory: URL) -> [URL] {
        let paths = FileManager.default.enumerator(atPath: directory.path)?.compactMap { $0 as? String } ?? []
        return paths.filter { $0.hasSuffix(".swift") }.sorted().map { directory.appendingPathComponent($0) }
    }

    /// `swiftc` from the PATH.
    static var swiftc: URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("swiftc")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return URL(fileURLWithPath: "/usr/bin/swiftc")
    }

    /// Typechecks files together, as one module, against the Vow module this package builds;
    /// the compiler's diagnostics, or nil when they typecheck without a warning.
    static func typecheckTogether(_ files: [URL]) throws -> String? {
        let result = try run(swiftc, ["-typecheck", "-swift-version", "6", "-I", modulesDirectory.path] + files.map(\.path))
        if result.status != 0 || result.standardError.contains("warning:") { return result.standardError }
        return nil
    }

    /// Writes `source` as `name` in a folder of its own and typechecks it (``typecheckTogether(_:)``).
    static func typecheck(_ source: String, as name: String, _ testCase: XCTestCase) throws -> String? {
        let file = try temporaryDirectory(testCase).appendingPathComponent(name)
        try source.write(to: file, atomically: true, encoding: .utf8)
        return try typecheckTogether([file])
    }

    static func fixture(_ name: String, _ file: String) throws -> String {
        try String(contentsOf: fixturesDirectory.appendingPathComponent(name).appendingPathComponent(file), encoding: .utf8)
    }

    /// Fixture folders named `replace-*` exercise `--replace`.
    static func isReplaceFixture(_ name: String) -> Bool { name.hasPrefix("replace-") }

    /// Fixture folders named `from-promisekit*` exercise `--from-promisekit`: `input.swift` is
    /// written against PromiseKit (not here, so it cannot be typechecked) and `vow.swift` is the
    /// expected output.
    static func isPromiseKitFixture(_ name: String) -> Bool { name.hasPrefix("from-promisekit") }

    /// `call-sites-*` fixtures run with `--stage all`: alternatives and call sites in one run
    /// (`replace-call-sites-*` ones with `--replace` too).
    static func isCallSiteFixture(_ name: String) -> Bool { name.hasPrefix("call-sites") || name.hasPrefix("replace-call-sites") }

    /// The fixtures for adding alternatives, with `promise.swift` and `async.swift`.
    static var alternativeFixtureNames: [String] { fixtureNames.filter { !isPromiseKitFixture($0) } }

    static var promiseKitFixtureNames: [String] { fixtureNames.filter(isPromiseKitFixture) }

    static var productsDirectory: URL {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        fatalError("no .xctest bundle")
        #else
        return Bundle.main.bundleURL
        #endif
    }

    static var executable: URL { productsDirectory.appendingPathComponent("vow-migrate") }
    static var modulesDirectory: URL { productsDirectory.appendingPathComponent("Modules") }

    struct ProcessResult {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// Runs a program to completion, collecting both streams.
    static func run(_ program: URL, _ arguments: [String], in directory: URL? = nil) throws -> ProcessResult {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read both pipes while the process runs so a large diff cannot fill a pipe and stall it.
        let outputData = LockedData(), errorData = LockedData()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { outputData.set(output.fileHandleForReading.readDataToEndOfFile()) }
        DispatchQueue.global().async(group: group) { errorData.set(error.fileHandleForReading.readDataToEndOfFile()) }
        group.wait()
        process.waitUntilExit()
        return ProcessResult(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData.get(), as: UTF8.self),
            standardError: String(decoding: errorData.get(), as: UTF8.self)
        )
    }

    static func migrate(_ arguments: [String], in directory: URL? = nil) throws -> ProcessResult {
        try run(executable, arguments, in: directory)
    }

    /// Writes `files` (name and text) into `tree`, made first if need be; their URLs, in order.
    @discardableResult
    static func writeTree(_ files: [(name: String, text: String)], at tree: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: true)
        return try files.map { file in
            let url = tree.appendingPathComponent(file.name)
            try file.text.write(to: url, atomically: true, encoding: .utf8)
            return url
        }
    }

    /// A fresh temporary directory, removed when the test ends.
    static func temporaryDirectory(_ testCase: XCTestCase) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vow-migrate-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        testCase.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }
}

final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.lock(); data = value; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}

/// What one `--report json` run said about call sites: converted, left alone, and the reasons.
struct CallSiteSummary: Equatable {
    var converted: Int
    var leftAlone: Int
    var reasons: [String: Int]
}

extension CallSiteSummary {
    /// Read from the report's `summary` (-1 for a count it does not give).
    init(reportJSON: String) throws {
        let report = try JSONSerialization.jsonObject(with: Data(reportJSON.utf8)) as? [String: Any]
        let summary = report?["summary"] as? [String: Any] ?? [:]
        self.init(converted: summary["callSitesConverted"] as? Int ?? -1, leftAlone: summary["callSitesRefused"] as? Int ?? -1,
                  reasons: summary["refusalReasons"] as? [String: Int] ?? [:])
    }
}
