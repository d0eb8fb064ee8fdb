import Foundation
import VowMigrate
import VowMigrateDriver
import XCTest

/// Async alternatives run on their caller's actor (`nonisolated(nonsending)`) where the function is
/// provably not isolated, and share the original's isolation everywhere else, including in a
/// module whose default isolation is `MainActor`.
final class IsolationTests: XCTestCase {
    private let service = """
        final class Service: @unchecked Sendable {
            func load(_ id: Int, completion: @escaping @Sendable (Result<Int, Error>) -> Void) {
                completion(.success(id))
            }
        }

        """

    // MARK: - Reading the default isolation

    func testATargetsDefaultIsolationSettingIsRead() {
        let manifest = PackageManifest(source: """
            // swift-tools-version:6.2
            import PackageDescription
            let package = Package(name: "A", targets: [
                .target(name: "Core"),
                .target(name: "App", swiftSettings: [.defaultIsolation(MainActor.self)]),
                .target(name: "Tools", swiftSettings: [.defaultIsolation(nil)]),
                .target(name: "Flags", swiftSettings: [.unsafeFlags(["-default-isolation", "MainActor"])]),
            ])
            """, fallback: .v6)
        XCTAssertNil(manifest.defaultIsolation(ofFileAt: "Sources/Core/A.swift"))
        XCTAssertEqual(manifest.defaultIsolation(ofFileAt: "Sources/App/A.swift"), .mainActor)
        XCTAssertEqual(manifest.defaultIsolation(ofFileAt: "Sources/Tools/A.swift"), .nonisolated)
        XCTAssertEqual(manifest.defaultIsolation(ofFileAt: "Sources/Flags/A.swift"), .mainActor)
        XCTAssertEqual(manifest.problems, [])
    }

    func testADefaultIsolationThatIsNotALiteralMakesThePackageMainActorWithANote() {
        let manifest = PackageManifest(source: """
            // swift-tools-version:6.2
            let shared: [SwiftSetting] = [.defaultIsolation(MainActor.self)]
            let package = Package(name: "A", targets: [.target(name: "App", swiftSettings: shared)])
            """, fallback: .v6)
        XCTAssertTrue(manifest.defaultIsolationUnread)
        XCTAssertEqual(manifest.defaultIsolation(ofFileAt: "Sources/App/A.swift"), .mainActor)
        XCTAssertTrue(manifest.problems.contains { $0.hasPrefix("line 2: the default isolation is not written as a literal") }, "\(manifest.problems)")
    }

    func testAnXcodeProjectSettingMainActorDecidesTheFilesBelowIt() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let app = directory.appendingPathComponent("App")
        let project = app.appendingPathComponent("App.xcodeproj")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: app.appendingPathComponent("Sources/Screens"), withIntermediateDirectories: true)
        let file = app.appendingPathComponent("Sources/Screens/Screen.swift").path
        let loose = directory.appendingPathComponent("Loose.swift").path
        try "// !$*UTF8*$!\n{ buildSettings = { SWIFT_VERSION = 5.0; }; }\n"
            .write(to: project.appendingPathComponent("project.pbxproj"), atomically: true, encoding: .utf8)
        XCTAssertEqual(LanguageModes(files: [file], fallback: .v6, fallbackIsolation: .mainActor).defaultIsolation(of: file), .nonisolated)
        try "// !$*UTF8*$!\n{ buildSettings = { SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor; SWIFT_VERSION = 5.0; }; }\n"
            .write(to: project.appendingPathComponent("project.pbxproj"), atomically: true, encoding: .utf8)
        let modes = LanguageModes(files: [file, loose], fallback: .v6)
        XCTAssertEqual(modes.defaultIsolation(of: file), .mainActor)
        XCTAssertEqual(modes.defaultIsolation(of: loose), .nonisolated)
        XCTAssertEqual(LanguageModes(files: [loose], fallback: .v6, fallbackIsolation: .mainActor).defaultIsolation(of: loose), .mainActor)
    }

    func testAnXcodeGenOrTuistSpecOrAnXcconfigBesideItDecidesToo() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        for (name, spec) in [("project.yml", "settings:\n  base:\n    SWIFT_DEFAULT_ACTOR_ISOLATION: MainActor\n"),
                             ("Project.swift", "let settings: SettingsDictionary = [\"SWIFT_DEFAULT_ACTOR_ISOLATION\": \"MainActor\"]\n")] {
            let app = directory.appendingPathComponent(name.replacingOccurrences(of: ".", with: "-"))
            try FileManager.default.createDirectory(at: app.appendingPathComponent("Sources"), withIntermediateDirectories: true)
            let file = app.appendingPathComponent("Sources/A.swift").path
            try spec.write(to: app.appendingPathComponent(name), atomically: true, encoding: .utf8)
            XCTAssertEqual(LanguageModes(files: [file], fallback: .v6).defaultIsolation(of: file), .mainActor, name)
        }
        let app = directory.appendingPathComponent("Configured")
        try FileManager.default.createDirectory(at: app.appendingPathComponent("App.xcodeproj"), withIntermediateDirectories: true)
        try "{ }\n".write(to: app.appendingPathComponent("App.xcodeproj/project.pbxproj"), atomically: true, encoding: .utf8)
        try "SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor\n".write(to: app.appendingPathComponent("Shared.xcconfig"), atomically: true, encoding: .utf8)
        let file = app.appendingPathComponent("A.swift").path
        XCTAssertEqual(LanguageModes(files: [file], fallback: .v6).defaultIsolation(of: file), .mainActor)
    }

    // MARK: - What the command writes

    func testAPlainServiceGetsANonsendingAlternativeAndMainActorByDefaultKeepsThePlainOne() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let file = directory.appendingPathComponent("Service.swift")
        try service.write(to: file, atomically: true, encoding: .utf8)
        let plain = try TestSupport.migrate([file.path, "--to", "async"])
        XCTAssertTrue(plain.standardOutput.contains("+    nonisolated(nonsending) func load(_ id: Int) async throws -> Int {"), plain.standardOutput)
        let mainActor = try TestSupport.migrate([file.path, "--to", "async", "--default-isolation", "MainActor"])
        XCTAssertTrue(mainActor.standardOutput.contains("+    func load(_ id: Int) async throws -> Int {"), mainActor.standardOutput)
        XCTAssertFalse(mainActor.standardOutput.contains("nonsending"), mainActor.standardOutput)
        let promise = try TestSupport.migrate([file.path, "--to", "promise"])
        XCTAssertFalse(promise.standardOutput.contains("nonsending"), promise.standardOutput)
    }

    func testAPackageWithMainActorByDefaultBuildsAfterMigration() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let sources = directory.appendingPathComponent("Sources/App")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try """
            // swift-tools-version:6.2
            import PackageDescription
            let package = Package(name: "App", targets: [
                .executableTarget(name: "App", swiftSettings: [.defaultIsolation(MainActor.self)]),
            ])
            """.write(to: directory.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try service.write(to: sources.appendingPathComponent("Service.swift"), atomically: true, encoding: .utf8)
        try "print(\"ready\")\n".write(to: sources.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        let result = try TestSupport.migrate([sources.path, "--to", "async", "--in-place"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let migrated = try String(contentsOf: sources.appendingPathComponent("Service.swift"), encoding: .utf8)
        XCTAssertTrue(migrated.contains("    func load(_ id: Int) async throws -> Int {"), migrated)
        XCTAssertFalse(migrated.contains("nonsending"), migrated)
        // Typechecked as the package builds it: nonisolated(nonsending) here would not compile
        // (its body calls the main-actor original synchronously).
        let check = try TestSupport.run(TestSupport.swiftc, ["-typecheck", "-swift-version", "6", "-default-isolation", "MainActor",
                                                             sources.appendingPathComponent("Service.swift").path])
        XCTAssertEqual(check.status, 0, check.standardError)
    }

    /// Members of an `@objcMembers` class (and of its extensions) are exposed to Objective-C, which
    /// this machine cannot check: their alternatives keep the plain form.
    func testAnObjcMembersClassKeepsThePlainForm() {
        let source = """
            import Foundation

            @objcMembers
            final class Bridge: NSObject {
                func load(completion: @escaping @Sendable (Int) -> Void) { completion(1) }
            }

            extension Bridge {
                func save(completion: @escaping @Sendable (Int) -> Void) { completion(2) }
            }

            final class Plain: NSObject {
                func load(completion: @escaping @Sendable (Int) -> Void) { completion(3) }
            }

            """
        let output = SourceMigrator.migrate(source: source, fileName: "Bridge.swift", options: .init(target: .async)).output
        XCTAssertTrue(output.contains("\n    func load() async -> Int {\n        await withCheckedContinuation { continuation in\n            load { value in"), output)
        XCTAssertTrue(output.contains("\n    func save() async -> Int {"), output)
        XCTAssertEqual(output.components(separatedBy: "nonisolated(nonsending)").count - 1, 1, output)
    }

    // MARK: - Behaviour: where and in which order the original is called

    /// A main-actor caller starts several tasks in one turn, each awaiting the alternative. The
    /// original records the order of its calls and whether it was called on the main queue: as
    /// the completion-handler calls were, in order, on the main queue.
    func testTasksStartedInOneTurnCallTheOriginalInOrderOnTheCallersActor() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let file = directory.appendingPathComponent("Service.swift")
        try """
            import Dispatch
            import Foundation

            let mainKey = DispatchSpecificKey<Bool>()

            final class Service: @unchecked Sendable {
                private let lock = NSLock()
                private var calls: [String] = []
                var log: [String] { lock.lock(); defer { lock.unlock() }; return calls }

                func load(_ id: Int, completion: @escaping @Sendable (Result<Int, Error>) -> Void) {
                    let place = DispatchQueue.getSpecific(key: mainKey) == true ? "main" : "elsewhere"
                    lock.lock(); calls.append("\\(id) \\(place)"); lock.unlock()
                    DispatchQueue.global().async { completion(.success(id)) }
                }
            }

            """.write(to: file, atomically: true, encoding: .utf8)
        let result = try TestSupport.migrate([file.path, "--to", "async", "--in-place"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let main = directory.appendingPathComponent("main.swift")
        try """
            import Dispatch
            import Foundation

            DispatchQueue.main.setSpecific(key: mainKey, value: true)
            let service = Service()

            @MainActor final class Screen {
                func refresh(_ ids: [Int]) {
                    for id in ids {
                        Task { _ = try await service.load(id) }
                    }
                }
            }

            DispatchQueue.main.async {
                MainActor.assumeIsolated { Screen().refresh(Array(0..<40)) }
                DispatchQueue.main.asyncAfter(deadline: .now() + 0.3) {
                    print(service.log.joined(separator: ","))
                    exit(0)
                }
            }
            dispatchMain()

            """.write(to: main, atomically: true, encoding: .utf8)
        let output = try ProgramBuilding.buildAndRun([file, main], binary: directory.appendingPathComponent("program"))
        XCTAssertEqual(output.trimmingCharacters(in: .whitespacesAndNewlines), (0..<40).map { "\($0) main" }.joined(separator: ","))
    }
}
