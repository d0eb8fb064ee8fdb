import Foundation
import VowMigrate
import VowMigrateDriver
import XCTest

/// Each file's language mode, read from its package manifest (or `--swift-version`): in Swift 5
/// mode a promise carries values that are not `Sendable`, and no alternative adds a `Sendable`
/// requirement the original did not have.
final class LanguageModeTests: XCTestCase {
    private var tree: URL { TestSupport.fixturesDirectory.appendingPathComponent("tree-language-mode") }

    // MARK: - Reading a manifest, one form at a time

    func testAToolsVersionBefore6MeansSwift5Mode() {
        let manifest = PackageManifest(source: "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"A\", targets: [.target(name: \"A\")])\n",
                                       fallback: .v6)
        XCTAssertEqual(manifest.toolsVersion, "5.9")
        XCTAssertEqual(manifest.packageMode, .v5)
        XCTAssertEqual(manifest.languageMode(ofFileAt: "Sources/A/File.swift"), .v5)
        XCTAssertEqual(manifest.languageMode(ofFileAt: "src/A/File.swift"), .v5)
        XCTAssertNil(manifest.languageMode(ofFileAt: "Tests/A/File.swift"))
        XCTAssertEqual(manifest.problems, [])
    }

    func testAToolsVersionOf6OrLaterMeansSwift6ModeWithSpacesAfterTheColon() {
        let manifest = PackageManifest(source: "// swift-tools-version: 6.1\nlet package = Package(name: \"A\", targets: [.testTarget(name: \"ATests\")])\n",
                                       fallback: .v5)
        XCTAssertEqual(manifest.packageMode, .v6)
        XCTAssertEqual(manifest.languageMode(ofFileAt: "Tests/ATests/FileTests.swift"), .v6)
    }

    func testPackageSwiftLanguageVersionsPicksTheNewestListed() {
        let five = PackageManifest(source: "// swift-tools-version:5.7\nlet package = Package(name: \"A\", swiftLanguageVersions: [.v4_2, .v5])\n", fallback: .v6)
        XCTAssertEqual(five.packageMode, .v5)
        let six = PackageManifest(source: "// swift-tools-version:5.10\nlet package = Package(name: \"A\", swiftLanguageVersions: [.v5, .version(\"6\")])\n", fallback: .v5)
        XCTAssertEqual(six.packageMode, .v6)
    }

    func testPackageSwiftLanguageModesOverridesTheToolsVersion() {
        let manifest = PackageManifest(source: "// swift-tools-version:6.0\nlet package = Package(name: \"A\", swiftLanguageModes: [.v5])\n", fallback: .v6)
        XCTAssertEqual(manifest.packageMode, .v5)
        let assigned = PackageManifest(source: "// swift-tools-version:6.0\nlet package = Package(name: \"A\")\npackage.swiftLanguageModes = [.v5]\n", fallback: .v6)
        XCTAssertEqual(assigned.packageMode, .v5)
        XCTAssertEqual(assigned.problems, [])
    }

    func testATargetsSwiftLanguageModeSettingOverridesThePackage() {
        let manifest = PackageManifest(source: """
            // swift-tools-version:6.0
            let package = Package(name: "A", targets: [
                .target(name: "Old", swiftSettings: [.swiftLanguageMode(.v5)]),
                .target(name: "New"),
            ])
            """, fallback: .v6)
        XCTAssertEqual(manifest.languageMode(ofFileAt: "Sources/Old/A.swift"), .v5)
        XCTAssertEqual(manifest.languageMode(ofFileAt: "Sources/New/A.swift"), .v6)
    }

    func testATargetsSwiftLanguageVersionSettingOverridesThePackage() {
        let manifest = PackageManifest(source: """
            // swift-tools-version:5.10
            let package = Package(name: "A", targets: [.target(name: "New", swiftSettings: [.swiftLanguageVersion(.v6)])])
            """, fallback: .v5)
        XCTAssertEqual(manifest.languageMode(ofFileAt: "Sources/New/A.swift"), .v6)
    }

    func testUnsafeFlagsSwiftVersionSetsTheTargetsMode() {
        let manifest = PackageManifest(source: """
            // swift-tools-version:6.0
            let package = Package(name: "A", targets: [
                .target(name: "Old", swiftSettings: [.define("X"), .unsafeFlags(["-swift-version", "5"])]),
            ])
            """, fallback: .v6)
        XCTAssertEqual(manifest.languageMode(ofFileAt: "Sources/Old/A.swift"), .v5)
        XCTAssertEqual(manifest.problems, [])
    }

    func testATargetsPathDecidesWhichFilesItHoldsAndTheLongestPathWins() {
        let manifest = PackageManifest(source: """
            // swift-tools-version:6.0
            let targets: [Target] = [
                .target(name: "Core", path: "./Code"),
                .target(name: "Legacy", path: "Code/Legacy", swiftSettings: [.swiftLanguageMode(.v5)]),
            ]
            let package = Package(name: "A", targets: targets)
            """, fallback: .v5)
        XCTAssertEqual(manifest.languageMode(ofFileAt: "Code/A.swift"), .v6)
        XCTAssertEqual(manifest.languageMode(ofFileAt: "Code/Legacy/A.swift"), .v5)
        XCTAssertEqual(manifest.languageMode(ofFileAt: "Code/LegacyTwo/A.swift"), .v6)
        // A file no target holds (an example app beside the package) is not the manifest's to decide.
        XCTAssertNil(manifest.languageMode(ofFileAt: "Example/App.swift"))
    }

    func testWhatIsNotALiteralIsReportedAndFallsBack() {
        let manifest = PackageManifest(source: """
            import PackageDescription
            let settings: [SwiftSetting] = [.swiftLanguageMode(.v5)]
            let package = Package(name: "A", targets: [.target(name: "A", swiftSettings: settings)])
            """, fallback: .v6)
        XCTAssertNil(manifest.toolsVersion)
        XCTAssertEqual(manifest.packageMode, .v6)
        XCTAssertEqual(manifest.languageMode(ofFileAt: "Sources/A/A.swift"), .v6)
        XCTAssertEqual(manifest.problems, [
            "no `// swift-tools-version:` line on the first line; assuming Swift 6 mode",
            "line 3: `swiftSettings` is not a literal array; the target keeps the package's mode",
            "line 2: `swiftLanguageMode` is not written as a literal this tool reads; its files keep the package's mode",
        ])
    }

    // MARK: - Finding each file's manifest

    func testEachFileGetsTheModeOfTheNearestManifestAndOtherFilesTheFallback() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        try FileManager.default.copyItem(at: tree, to: directory.appendingPathComponent("Catalog"))
        let loose = directory.appendingPathComponent("Loose.swift")
        try "let x = 1\n".write(to: loose, atomically: true, encoding: .utf8)
        let legacy = directory.appendingPathComponent("Catalog/Sources/Legacy/Catalog.swift").path
        let modern = directory.appendingPathComponent("Catalog/Sources/Modern/Catalog.swift").path
        for fallback in SwiftLanguageMode.allCases {
            let modes = LanguageModes(files: [legacy, modern, loose.path], fallback: fallback)
            XCTAssertEqual(modes.mode(of: legacy), .v5)
            XCTAssertEqual(modes.mode(of: modern), .v6)
            XCTAssertEqual(modes.mode(of: loose.path), fallback)
            XCTAssertEqual(modes.notes, [])
        }
        try "// swift-tools-version:5.9\n".write(to: directory.appendingPathComponent("Catalog/Package@swift-5.9.swift"), atomically: true, encoding: .utf8)
        let noted = LanguageModes(files: [legacy, modern], fallback: .v6)
        XCTAssertEqual(noted.notes, [directory.appendingPathComponent("Catalog/Package.swift").path
                                     + ": note: Package@swift-5.9.swift not read; the language modes come from Package.swift"])
    }

    // MARK: - The fixture: one source, two targets, two modes

    func testEachTargetMigratesInItsOwnModeInBothForms() throws {
        for target in ["promise", "async"] {
            let directory = try TestSupport.temporaryDirectory(self)
            let package = directory.appendingPathComponent("Catalog")
            try FileManager.default.copyItem(at: tree, to: package)
            try? FileManager.default.removeItem(at: package.appendingPathComponent("promise"))
            try? FileManager.default.removeItem(at: package.appendingPathComponent("async"))
            let result = try TestSupport.migrate([package.appendingPathComponent("Sources").path, "--to", target, "--in-place"])
            XCTAssertEqual(result.status, 0, result.standardError)
            for folder in ["Legacy", "Modern"] {
                let actual = try String(contentsOf: package.appendingPathComponent("Sources/\(folder)/Catalog.swift"), encoding: .utf8)
                let wanted = try String(contentsOf: tree.appendingPathComponent("\(target)/\(folder)/Catalog.swift"), encoding: .utf8)
                XCTAssertEqual(actual, wanted, "\(target)/\(folder):\n" + UnifiedDiff.make(old: wanted, new: actual, oldName: "expected", newName: "actual"))
                // A second run over the output changes nothing.
                let again = try TestSupport.migrate([package.appendingPathComponent("Sources").path, "--to", target, "--check"])
                XCTAssertEqual(again.status, 0, again.standardOutput + again.standardError)
            }
        }
    }

    func testTheSourceTypechecksInBothModesAndEachOutputInItsTargetsMode() throws {
        let source = tree.appendingPathComponent("Sources/Legacy/Catalog.swift")
        var checks: [(URL, String)] = [(source, "5"), (source, "6")]
        for target in ["promise", "async"] {
            checks.append((tree.appendingPathComponent("\(target)/Legacy/Catalog.swift"), "5"))
            checks.append((tree.appendingPathComponent("\(target)/Modern/Catalog.swift"), "6"))
        }
        for (file, version) in checks {
            let result = try TestSupport.run(TestSupport.swiftc, ["-typecheck", "-swift-version", version, "-I", TestSupport.modulesDirectory.path, file.path])
            XCTAssertTrue(result.status == 0 && !result.standardError.contains("warning:"),
                          "\(file.path) in Swift \(version) mode:\n\(result.standardError)")
        }
    }

    // MARK: - The command line

    func testSwiftVersion5LetsAPromiseCarryAClassOutsideAnyPackage() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let file = directory.appendingPathComponent("Loader.swift")
        try String(contentsOf: tree.appendingPathComponent("Sources/Legacy/Catalog.swift"), encoding: .utf8)
            .write(to: file, atomically: true, encoding: .utf8)
        let six = try TestSupport.migrate([file.path, "--to", "promise", "--check"])
        XCTAssertTrue(six.standardError.contains("skipped `page(number:completion:)`: its value type `Page` is a class without a `Sendable` conformance"),
                      six.standardError)
        let five = try TestSupport.migrate([file.path, "--to", "promise", "--swift-version", "5"])
        XCTAssertEqual(five.status, 0, five.standardError)
        XCTAssertFalse(five.standardError.contains("skipped `"), five.standardError)
        XCTAssertTrue(five.standardOutput.contains("+    public func page(number: Int) -> Promise<Page> {"), five.standardOutput)
        XCTAssertTrue(five.standardOutput.contains("+    public func first<T>(of items: [T]) -> Guarantee<T?> {"), five.standardOutput)
    }

    /// An Xcode project's or a package's deployment targets tell whether its files may use
    /// `TaskExecutor` (a fan-out's async form): the first one below it is named.
    func testDeploymentTargetsBelowTaskExecutorAreNamedPerFile() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let app = directory.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: app.appendingPathComponent("App.xcodeproj"), withIntermediateDirectories: true)
        try "{ buildSettings = { IPHONEOS_DEPLOYMENT_TARGET = 15.0; MACOSX_DEPLOYMENT_TARGET = 15.0; }; }\n"
            .write(to: app.appendingPathComponent("App.xcodeproj/project.pbxproj"), atomically: true, encoding: .utf8)
        let package = directory.appendingPathComponent("Kit")
        try FileManager.default.createDirectory(at: package.appendingPathComponent("Sources/Kit"), withIntermediateDirectories: true)
        try "// swift-tools-version:6.0\nimport PackageDescription\nlet package = Package(name: \"Kit\", platforms: [.macOS(.v15), .iOS(.v18)], targets: [.target(name: \"Kit\")])\n"
            .write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let appFile = app.appendingPathComponent("Loader.swift").path
        let kitFile = package.appendingPathComponent("Sources/Kit/Kit.swift").path
        for file in [appFile, kitFile] { try "".write(toFile: file, atomically: true, encoding: .utf8) }
        let modes = LanguageModes(files: [appFile, kitFile], fallback: .v6)
        XCTAssertEqual(modes.earlyDeployment(of: appFile), "its Xcode project deploys to iOS 15")
        XCTAssertNil(modes.earlyDeployment(of: kitFile))
    }

    /// An Xcode project's `SWIFT_VERSION` decides the files below it: Swift 5 mode when every
    /// value it sets is below 6; `--swift-version` wins over it, as it decides files no manifest holds.
    func testAnXcodeProjectsSwiftVersionDecidesTheFilesBelowItUnlessSwiftVersionIsGiven() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let app = directory.appendingPathComponent("App")
        let project = app.appendingPathComponent("App.xcodeproj")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: app.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        let file = app.appendingPathComponent("Sources/Loader.swift")
        try String(contentsOf: tree.appendingPathComponent("Sources/Legacy/Catalog.swift"), encoding: .utf8)
            .write(to: file, atomically: true, encoding: .utf8)
        let pbxproj = project.appendingPathComponent("project.pbxproj")
        try "// !$*UTF8*$!\n{ Debug = { buildSettings = { SWIFT_VERSION = 5.0; }; }; Release = { buildSettings = { SWIFT_VERSION = 5.0; }; }; }\n"
            .write(to: pbxproj, atomically: true, encoding: .utf8)
        XCTAssertEqual(LanguageModes(files: [file.path], fallback: .v6, readsProjectModes: true).mode(of: file.path), .v5)
        XCTAssertEqual(LanguageModes(files: [file.path], fallback: .v6).mode(of: file.path), .v6)
        let five = try TestSupport.migrate([file.path, "--to", "promise"])
        XCTAssertEqual(five.status, 0, five.standardError)
        XCTAssertFalse(five.standardError.contains("skipped `"), five.standardError)
        XCTAssertTrue(five.standardOutput.contains("+    public func page(number: Int) -> Promise<Page> {"), five.standardOutput)
        let given = try TestSupport.migrate([file.path, "--to", "promise", "--swift-version", "6", "--check"])
        XCTAssertTrue(given.standardError.contains("skipped `page(number:completion:)`: its value type `Page` is a class"), given.standardError)
        // A target set to 6 anywhere in the project: which target holds the file is not read.
        try "{ A = { SWIFT_VERSION = 5.0; }; B = { SWIFT_VERSION = 6.0; }; }\n".write(to: pbxproj, atomically: true, encoding: .utf8)
        XCTAssertEqual(LanguageModes(files: [file.path], fallback: .v6, readsProjectModes: true).mode(of: file.path), .v6)
        XCTAssertEqual(LanguageModes(files: [file.path], fallback: .v5, readsProjectModes: true).mode(of: file.path), .v6)
    }

    func testTheManifestWinsOverSwiftVersion() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let package = directory.appendingPathComponent("Catalog")
        try FileManager.default.copyItem(at: tree, to: package)
        let modern = package.appendingPathComponent("Sources/Modern/Catalog.swift").path
        let result = try TestSupport.migrate([modern, "--to", "promise", "--swift-version", "5", "--check"])
        XCTAssertTrue(result.standardError.contains("skipped `page(number:completion:)`: its value type `Page` is a class"), result.standardError)
    }

    func testAnUnreadableManifestIsNotedOnceAndTheRunGoesOn() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let sources = directory.appendingPathComponent("Sources/A")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try "let settings: [SwiftSetting] = []\nlet package = Package(name: \"A\", targets: [.target(name: \"A\", swiftSettings: settings)])\n"
            .write(to: directory.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        for name in ["One", "Two"] {
            try "func \(name.lowercased())(completion: @escaping (Int) -> Void) { completion(1) }\n"
                .write(to: sources.appendingPathComponent("\(name).swift"), atomically: true, encoding: .utf8)
        }
        let result = try TestSupport.migrate([sources.path, "--to", "promise"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let notes = result.standardError.split(separator: "\n").filter { $0.contains("Package.swift: note: ") }
        XCTAssertEqual(notes.count, 2, result.standardError)
        XCTAssertTrue(notes.allSatisfy { $0.hasPrefix(directory.path) || $0.contains("/Package.swift: note: ") }, result.standardError)
    }
}
