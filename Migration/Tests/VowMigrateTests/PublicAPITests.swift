import Foundation
import SwiftParser
import SwiftSyntax
@testable import VowMigrate
import XCTest

/// `--public-api`: an app's frameworks declare their functions `public` for the app's own
/// targets, which are in the tree. With `auto` (the default) a tree that starts an app converts
/// them under `--replace` (and gives a public promise function its async alternative), saying
/// so; a file of a Swift package that ships a library keeps its public functions, as `keep`
/// keeps every one; `change` takes the paths for every caller.
final class PublicAPITests: XCTestCase {
    private static let shared = """
        import Vow

        public final class Api {
            public init() {}

            public func profile(_ id: Int) -> Promise<String> {
                return firstly {
                    Promise.value(id)
                }.map { id in
                    "user \\(id)"
                }
            }
        }

        """

    private static let screen = """
        import Vow

        final class Screen {
            let api = Api()
            var text = ""

            func show() {
                api.profile(1).done { name in
                    self.text = name
                }.catch { _ in }
            }
        }

        """

    private static let app = """
        import SwiftUI

        @main
        struct KitchenApp: App {
            var body: some Scene {
                WindowGroup { Text("Kitchen") }
            }
        }

        """

    private func tree(app: Bool, manifest: String? = nil) throws -> URL {
        let root = try TestSupport.temporaryDirectory(self)
        let shared = root.appendingPathComponent("Shared")
        let screens = root.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: screens, withIntermediateDirectories: true)
        try Self.shared.write(to: shared.appendingPathComponent("Api.swift"), atomically: true, encoding: .utf8)
        try Self.screen.write(to: screens.appendingPathComponent("Screen.swift"), atomically: true, encoding: .utf8)
        if app { try Self.app.write(to: screens.appendingPathComponent("KitchenApp.swift"), atomically: true, encoding: .utf8) }
        if let manifest { try manifest.write(to: shared.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8) }
        return root
    }

    private func findings(_ arguments: [String], in root: URL) throws -> [(path: String, function: String, message: String)] {
        let result = try TestSupport.migrate([root.path, "--to", "async", "--stage", "all", "--report", "json"] + arguments)
        XCTAssertEqual(result.status, 0, result.standardError)
        let json = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        let files = json?["files"] as? [[String: Any]] ?? []
        return files.flatMap { file in
            (file["findings"] as? [[String: Any]] ?? []).map {
                ((file["path"] as? String ?? "").replacingOccurrences(of: root.path + "/", with: ""),
                 $0["function"] as? String ?? "", $0["message"] as? String ?? "")
            }
        }
    }

    private func profileFinding(_ found: [(path: String, function: String, message: String)]) -> String? {
        found.first { $0.path == "Shared/Api.swift" && $0.function == "profile(_:)" }?.message
    }

    func testAnAppsPublicPromiseFunctionIsReplacedAndTheFindingSaysWhy() throws {
        let root = try tree(app: true)
        let message = try XCTUnwrap(profileFinding(try findings(["--replace"], in: root)))
        XCTAssertTrue(message.hasPrefix("converted a function returning a promise to `async throws -> String`"), message)
        XCTAssertTrue(message.hasSuffix("; it is public, and the tree starts an app (at \(root.path)/App/KitchenApp.swift:3:1), so every caller "
                                        + "is taken to be in the tree (--public-api keep leaves public functions as they are)"), message)

        let migrated = try TestSupport.migrate([root.path, "--to", "async", "--stage", "all", "--replace", "--in-place"])
        XCTAssertEqual(migrated.status, 0, migrated.standardError)
        let api = try String(contentsOf: root.appendingPathComponent("Shared/Api.swift"), encoding: .utf8)
        XCTAssertTrue(api.contains("@MainActor public func profile(_ id: Int) async throws -> String {"), api)
        let again = try TestSupport.migrate([root.path, "--to", "async", "--stage", "all", "--replace", "--check"])
        XCTAssertEqual(again.status, 0, again.standardOutput + again.standardError)
    }

    func testWithoutAnAppOrWithKeepOrInALibraryPackageAPublicFunctionStays() throws {
        let kept = "it is public: callers outside the tree would break"
        XCTAssertEqual(profileFinding(try findings(["--replace"], in: try tree(app: false))), kept)
        XCTAssertEqual(profileFinding(try findings(["--replace", "--public-api", "keep"], in: try tree(app: true))), kept)
        let library = """
            // swift-tools-version:5.9
            import PackageDescription

            let package = Package(
                name: "Shared",
                products: [.library(name: "Shared", targets: ["Shared"])],
                targets: [.target(name: "Shared", path: ".")]
            )

            """
        XCTAssertEqual(profileFinding(try findings(["--replace"], in: try tree(app: true, manifest: library))), kept)
        // The paths are taken for every caller.
        let changed = try XCTUnwrap(profileFinding(try findings(["--replace", "--public-api", "change"], in: try tree(app: false))))
        XCTAssertTrue(changed.hasPrefix("converted a function returning a promise"), changed)
        XCTAssertFalse(changed.contains("the tree starts an app"), changed)
    }

    /// Without `--replace`, a public promise function of an app gets its async alternative
    /// (kept from a library's, where a caller outside could pick it instead of the promise).
    func testAnAppsPublicPromiseFunctionGainsItsAsyncAlternative() throws {
        let added = try findings([], in: try tree(app: true)).first { $0.path == "Shared/Api.swift" && $0.function == "profile(_:)" }
        XCTAssertNotNil(added)
        XCTAssertFalse(added?.message.contains("it is public") ?? true, added?.message ?? "")
        let skipped = try findings([], in: try tree(app: false)).first { $0.path == "Shared/Api.swift" && $0.function == "profile(_:)" }
        XCTAssertTrue(skipped?.message.hasPrefix("it is public: a caller outside the tree") ?? false, skipped?.message ?? "")
    }

    /// What starts an app: an application type marked `@main` (or the older attributes), or a
    /// `UIApplicationMain` call; a command-line tool's `@main` does not.
    func testTheEntryPointsOfAnApp() {
        let cases: [(String, Int?)] = [
            ("import SwiftUI\n@main\nstruct A: App { var body: some Scene { WindowGroup {} } }\n", 2),
            ("import UIKit\n\n@UIApplicationMain\nclass AppDelegate: UIResponder, UIApplicationDelegate {}\n", 3),
            ("import AppKit\n@main final class AppDelegate: NSObject, NSApplicationDelegate {}\n", 2),
            ("import UIKit\nUIApplicationMain(CommandLine.argc, CommandLine.unsafeArgv, nil, \"AppDelegate\")\n", 2),
            ("import ArgumentParser\n@main struct Tool: ParsableCommand { func run() {} }\n", nil),
            ("import UIKit\nclass AppDelegate: UIResponder, UIApplicationDelegate {}\n", nil),
            ("struct Outer {\n    @main struct A: App {}\n}\n", nil),
        ]
        for (source, line) in cases {
            let tree = Parser.parse(source: source)
            let found = AppEntryPoint.first(in: tree, fileName: "F.swift", converter: SourceLocationConverter(fileName: "F.swift", tree: tree))
            XCTAssertEqual(found?.line, line, source)
        }
    }
}
