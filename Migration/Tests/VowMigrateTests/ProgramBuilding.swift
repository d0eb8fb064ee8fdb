import Foundation
import XCTest

/// Builds a program from Swift sources against the Vow objects this package built, and runs it:
/// the behaviour tests' way of comparing code before and after migration.
enum ProgramBuilding {
    private static var vowSourcesDirectory: URL {
        TestSupport.packageDirectory.deletingLastPathComponent().appendingPathComponent("Sources/Vow")
    }

    /// The objects of Vow's current sources only: an incremental build leaves the object of a
    /// moved or deleted source behind, and linking it too defines its symbols twice.
    static func vowObjects() throws -> [String] {
        let vowSources = FileManager.default.enumerator(atPath: vowSourcesDirectory.path)?
            .compactMap { ($0 as? String).map { URL(fileURLWithPath: $0).lastPathComponent } }
            .filter { $0.hasSuffix(".swift") } ?? []
        let objectsDirectory = TestSupport.productsDirectory.appendingPathComponent("Vow.build")
        return try FileManager.default.contentsOfDirectory(atPath: objectsDirectory.path)
            .filter { $0.hasSuffix(".o") && vowSources.contains(String($0.dropLast(2))) }
            .map { objectsDirectory.appendingPathComponent($0).path }
    }

    /// Compiles `sources` against Vow into `binary` with `flags` (a later `-swift-version` wins
    /// over the default 6), and says how it went: for the tests that record a program that does
    /// not build instead of failing on it.
    static func compile(_ sources: [URL], flags: [String], binary: URL) throws -> TestSupport.ProcessResult {
        try TestSupport.run(TestSupport.swiftc, ["-swift-version", "6", "-I", TestSupport.modulesDirectory.path]
                            + flags + sources.map(\.path) + vowObjects() + ["-o", binary.path])
    }

    /// Compiles `sources` in Swift 6 mode (one compiler run, with `flags` such as `-DNAME`; a
    /// warning fails the test too) into `binary`, runs it, and returns what it printed.
    static func buildAndRun(_ sources: [URL], binary: URL, flags: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let objects = try vowObjects()
        XCTAssertFalse(objects.isEmpty, "the Vow objects this package builds were not found", file: file, line: line)
        let build = try TestSupport.run(TestSupport.swiftc, ["-swift-version", "6", "-I", TestSupport.modulesDirectory.path]
                                        + flags + sources.map(\.path) + objects + ["-o", binary.path])
        XCTAssertEqual(build.status, 0, "\(binary.lastPathComponent) does not build:\n\(build.standardError)", file: file, line: line)
        XCTAssertFalse(build.standardError.contains("warning:"), build.standardError, file: file, line: line)
        guard build.status == 0 else { return "" }
        let run = try TestSupport.run(binary, [])
        XCTAssertEqual(run.status, 0, run.standardError, file: file, line: line)
        return run.standardOutput
    }

    /// Writes `files` (name and text) into a new folder `name` of `directory`, builds them into one
    /// program (``buildAndRun(_:binary:flags:file:line:)``) and returns what it printed.
    static func buildAndRun(_ files: [(name: String, text: String)], as name: String, in directory: URL, flags: [String] = [],
                            file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let folder = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var sources: [URL] = []
        for (fileName, text) in files {
            let source = folder.appendingPathComponent(fileName)
            try text.write(to: source, atomically: true, encoding: .utf8)
            sources.append(source)
        }
        return try buildAndRun(sources, binary: folder.appendingPathComponent("program"), flags: flags, file: file, line: line)
    }

    /// A program of one screen (`Screen.swift`) and a driver (`main.swift`), built and run as it
    /// is and after `--to async --stage call-sites --in-place` on a copy of the screen: the chain
    /// stage's behaviour tests.
    struct ScreenProgram {
        let root: URL
        private let original: URL
        private let migrated: URL
        private let main: URL
        private let arguments: [String]

        /// `arguments`: the migration's, besides the path and `--in-place` / `--check`.
        init(screen: String, driver: String, in root: URL, arguments: [String] = ["--to", "async", "--stage", "call-sites"]) throws {
            self.root = root
            self.arguments = arguments
            original = root.appendingPathComponent("original")
            migrated = root.appendingPathComponent("migrated")
            main = root.appendingPathComponent("main.swift")
            try FileManager.default.createDirectory(at: original, withIntermediateDirectories: true)
            try screen.write(to: original.appendingPathComponent("Screen.swift"), atomically: true, encoding: .utf8)
            try driver.write(to: main, atomically: true, encoding: .utf8)
        }

        /// What the original prints.
        func runOriginal(file: StaticString = #filePath, line: UInt = #line) throws -> String {
            try buildAndRun([original.appendingPathComponent("Screen.swift"), main], binary: root.appendingPathComponent("original-program"),
                            file: file, line: line)
        }

        /// Migrates a copy of the screen; the run's outcome and the migrated screen's code.
        func migrate() throws -> (result: TestSupport.ProcessResult, code: String) {
            try FileManager.default.copyItem(at: original, to: migrated)
            let result = try TestSupport.migrate([migrated.path] + arguments + ["--in-place"])
            return (result, try String(contentsOf: migrated.appendingPathComponent("Screen.swift"), encoding: .utf8))
        }

        /// What the migrated program prints.
        func runMigrated(file: StaticString = #filePath, line: UInt = #line) throws -> String {
            try buildAndRun([migrated.appendingPathComponent("Screen.swift"), main], binary: root.appendingPathComponent("migrated-program"),
                            file: file, line: line)
        }

        /// `--check` over the migrated copy: a second run changes nothing when its status is 0.
        func checkAgain() throws -> TestSupport.ProcessResult {
            try TestSupport.migrate([migrated.path] + arguments + ["--check"])
        }
    }

    /// Builds one form of a call-site fixture (`input`, `promise` or `async`), saved as
    /// `sourceName`, with `driver` as its `main.swift`, and returns what it printed. The driver's
    /// `run(_:_:synchronous:_:)` comes from ``fixtureDriverPrelude``.
    static func runFixture(_ fixture: String, form: String, as sourceName: String, driver: URL, in root: URL) throws -> String {
        let directory = root.appendingPathComponent(form)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let source = directory.appendingPathComponent(sourceName)
        try TestSupport.fixture(fixture, "\(form).swift").write(to: source, atomically: true, encoding: .utf8)
        return try buildAndRun([source, driver], binary: directory.appendingPathComponent("program"))
    }

    /// What the call-site fixtures' drivers share: each step names its title and the answers the
    /// fakes give (`Plan`), and waits for the screen to show its one result.
    static let fixtureDriverPrelude = #"""
        import Dispatch

        let shown = DispatchSemaphore(value: 0)

        func run(_ title: String, _ answers: [Answer], synchronous: Bool, _ body: () -> Void) {
            print("== \(title)\(synchronous ? ", answered at once" : "")")
            Plan.answers = answers
            Plan.synchronous = synchronous
            body()
            shown.wait()
        }

        """#

    /// The end of a driver that runs `steps` (an array of `(title, plan, body)` declared above it)
    /// one after another on the main queue: each gets a fresh `Store` with its plan and a `Screen`
    /// (`makeScreen`, an expression reading `store`), held as a view controller would be (its
    /// handlers hold it weakly), and the screen's `finished()` starts the next.
    static func stepRunner(makeScreen: String) -> String {
        #"""
        nonisolated(unsafe) var next = 0
        // The screen on show, held as a view controller would be (its handlers hold it weakly).
        nonisolated(unsafe) var screen: Screen?
        func runNext() {
            guard next < steps.count else { exit(0) }
            let (title, plan, body) = steps[next]
            next += 1
            print("==", title)
            let store = Store()
            store.plan = plan
            finished = { DispatchQueue.main.async { runNext() } }
            screen = \#(makeScreen)
            body(screen!)
        }

        DispatchQueue.main.async { runNext() }
        dispatchMain()

        """#
    }

    /// A driver running `steps` (lines of `run(...)`) off the main queue, each step's one `show`
    /// naming the kind of thread it came on.
    static func screenDriver(screen: String, steps: String) -> String {
        ProgramBuilding.fixtureDriverPrelude + #"""
            import Foundation

            let mainKey = DispatchSpecificKey<Bool>()
            DispatchQueue.main.setSpecific(key: mainKey, value: true)

            let screen = \#(screen)(shown: { line in
                print("show: \(line) [\(DispatchQueue.getSpecific(key: mainKey) == true ? "main" : "elsewhere")]")
                shown.signal()
            })

            DispatchQueue.global().async {
                for synchronous in [false, true] {
            \#(steps)
                }
                print("== done")
                exit(0)
            }
            dispatchMain()

            """#
    }

    /// A fixture whose screen class (`screen`) the ``screenDriver(screen:steps:)`` drives: what
    /// the original prints, and how to run any form.
    static func runScreenFixture(_ fixture: String, screen: String, steps: String,
                                 test: XCTestCase) throws -> (expected: String, run: (String) throws -> String) {
        let root = try TestSupport.temporaryDirectory(test)
        let driver = root.appendingPathComponent("main.swift")
        try screenDriver(screen: screen, steps: steps).write(to: driver, atomically: true, encoding: .utf8)
        let run = { (form: String) throws -> String in
            try ProgramBuilding.runFixture(fixture, form: form, as: "Screen.swift", driver: driver, in: root)
        }
        return (try run("input"), run)
    }

    /// Fails with a diff for each migrated form whose output differs from the original's.
    static func assertSameEffects(_ expected: String, forms: [String], file: StaticString = #filePath, line: UInt = #line,
                                  _ run: (String) throws -> String) rethrows {
        for form in forms {
            let actual = try run(form)
            if actual != expected {
                XCTFail("\(form) behaves differently:\n" + UnifiedDiffText.make(expected, actual), file: file, line: line)
            }
        }
    }
}
