import Foundation
import XCTest

/// Issue 18, `--replace --to async` on a protocol requirement returning a promise: it becomes
/// async together with every implementation of it in the tree, or none of them does.
final class ReplaceProtocolRequirementTests: XCTestCase {
    private static let loading = """
        import Vow

        enum ListError: Error { case empty }

        /// Anything that fills a list.
        protocol RowLoading {
            func rows(limit: Int) -> Promise<[String]>
        }

        final class Recent: RowLoading {
            func rows(limit: Int) -> Promise<[String]> {
                Promise.value(["milk", "eggs", "bread"]).map { rows in
                    Array(rows.prefix(limit))
                }
            }
        }

        struct Empty {}

        extension Empty: RowLoading {
            func rows(limit: Int) -> Promise<[String]> {
                guard limit > 0 else {
                    return Promise(error: ListError.empty)
                }
                return .value([])
            }
        }

        """

    private static let screen = """
        import Vow

        @MainActor final class ListScreen {
            let source: RowLoading
            var text = ""

            init(source: RowLoading) {
                self.source = source
            }

            func show() {
                source.rows(limit: 2).done { rows in
                    self.text = rows.joined(separator: ", ")
                }.catch { error in
                    self.text = "\\(error)"
                }
            }

            func first() async throws -> String? {
                let rows = try await Recent().rows(limit: 1).value
                return rows.first
            }
        }

        """

    private func tree(_ files: [String: String]) throws -> URL {
        let root = try TestSupport.temporaryDirectory(self)
        for (name, text) in files {
            try text.write(to: root.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return root
    }

    func testARequirementBecomesAsyncWithEveryImplementationAndTheCallsThroughIt() throws {
        let root = try tree(["Loading.swift": Self.loading, "Screen.swift": Self.screen])
        let result = try TestSupport.migrate([root.path, "--to", "async", "--stage", "all", "--replace", "--in-place"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let loadingFile = root.appendingPathComponent("Loading.swift"), screenFile = root.appendingPathComponent("Screen.swift")
        XCTAssertTrue(result.standardError.contains("""
            \(loadingFile.path):7:10: note: converted a protocol requirement returning a promise to `async throws -> [String]`, \
            on the main actor, with the 2 implementations of it in the tree
            """), result.standardError)
        let loading = try String(contentsOf: loadingFile, encoding: .utf8)
        let screen = try String(contentsOf: screenFile, encoding: .utf8)
        for line in [
            "    @MainActor func rows(limit: Int) async throws -> [String]\n",
            "    @MainActor func rows(limit: Int) async throws -> [String] {\n        let rows = [\"milk\", \"eggs\", \"bread\"]\n"
                + "        return Array(rows.prefix(limit))\n",
            "            throw ListError.empty\n",
            "        return []\n",
        ] {
            XCTAssertTrue(loading.contains(line), line + "\n" + loading)
        }
        // The call through the protocol keeps its promise (wrapped); the awaited one awaits the call.
        XCTAssertTrue(screen.contains("let rowsPromise = Promise.immediate { @MainActor @Sendable [self] in try await source.rows(limit: 2) }"), screen)
        XCTAssertTrue(screen.contains("let rows = try await Recent().rows(limit: 1)\n"), screen)
        XCTAssertNil(try TestSupport.typecheckTogether([loadingFile, screenFile]))
        // A second run has nothing left to do.
        let again = try TestSupport.migrate([root.path, "--to", "async", "--stage", "all", "--replace", "--check"])
        XCTAssertEqual(again.status, 0, again.standardError)
    }

    func testOneImplementationThatCannotChangeKeepsTheRequirementAndEveryOther() throws {
        // A handler leaving early: that body does not convert, so none of them does.
        let other = """
            import Vow

            final class Flaky: RowLoading {
                func rows(limit: Int) -> Promise<[String]> {
                    Promise.value(limit).map { limit in
                        guard limit > 1 else { return [] }
                        return ["a"]
                    }.get { rows in
                        guard rows.isEmpty else { return }
                        print("empty")
                    }
                }
            }

            """
        let root = try tree(["Loading.swift": Self.loading, "Screen.swift": Self.screen, "Flaky.swift": other])
        let result = try TestSupport.migrate([root.path, "--to", "async", "--stage", "all", "--replace", "--diff"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertFalse(result.standardOutput.contains("async throws -> [String]"), result.standardOutput)
        XCTAssertTrue(result.standardError.contains("`rows(limit:)`: a protocol requirement of the same name would have to change with it"),
                      result.standardError)
    }

    func testAConformingTypeWithoutItsOwnImplementationKeepsThemAll() throws {
        // `Cached` gets `rows(limit:)` from its superclass, which does not conform itself.
        let inherited = """
            import Vow

            class Base {
                func rows(limit: Int) -> Promise<[String]> {
                    .value(["base"])
                }
            }

            final class Cached: Base, RowLoading {}

            """
        let root = try tree(["Loading.swift": Self.loading, "Screen.swift": Self.screen, "Base.swift": inherited])
        let result = try TestSupport.migrate([root.path, "--to", "async", "--stage", "all", "--replace", "--diff"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertFalse(result.standardOutput.contains("async throws -> [String]"), result.standardOutput)
    }

    func testAPublicProtocolKeepsItsRequirement() throws {
        let root = try tree(["Loading.swift": Self.loading.replacingOccurrences(of: "protocol RowLoading", with: "public protocol RowLoading"),
                             "Screen.swift": Self.screen])
        let result = try TestSupport.migrate([root.path, "--to", "async", "--stage", "all", "--replace", "--diff"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertFalse(result.standardOutput.contains("async throws -> [String]"), result.standardOutput)
    }
}
