import Foundation
import VowMigrate
import XCTest

/// Issue 18, `--replace --to async` on promise-returning functions across files: a function
/// becomes async with every call of it changed in its own file (awaited, or wrapped where the
/// promise is used); a function some call keeps a promise is reported with every such call, in
/// text and JSON, while the summary groups the refusal by its reason alone.
final class ReplaceKeptPromiseReportTests: XCTestCase {
    private static let api = """
        import Vow

        final class API {
            func profile(_ id: Int) -> Promise<String> {
                return firstly {
                    Promise.value(id)
                }.map { id in
                    "user \\(id)"
                }
            }

            func avatar(_ id: Int) -> Promise<String> {
                return Promise.value(id).map { id in
                    "avatar \\(id)"
                }
            }

            func banner() -> Promise<String> {
                Promise.value("Fresh")
            }
        }

        """

    private static let screen = """
        import Vow

        final class Screen {
            let api = API()
            weak var backup: API?
            var text = ""

            func show() {
                api.profile(1).done { name in
                    self.text = name
                }.catch { _ in }
            }

            func both() -> Promise<[String]> {
                when(fulfilled: [api.profile(2), api.profile(3)])
            }

            func later() async throws -> String {
                try await api.profile(4).value
            }

            func loader() -> () -> Promise<String> {
                let load = api.banner
                return load
            }

            func picture() {
                backup?.avatar(1).done { self.text = $0 }.cauterize()
                api.avatar(2).done { self.text = $0 }.cauterize()
            }
        }

        """

    func testCallsChangeWithTheFunctionAndAFunctionACallKeepsIsReportedWithThatCall() throws {
        let root = try TestSupport.temporaryDirectory(self)
        let apiFile = root.appendingPathComponent("API.swift"), screenFile = root.appendingPathComponent("Screen.swift")
        try Self.api.write(to: apiFile, atomically: true, encoding: .utf8)
        try Self.screen.write(to: screenFile, atomically: true, encoding: .utf8)
        let reason = "a call of it is made through optional chaining, which `Promise.immediate { try await ... }` cannot wrap as it is"

        let text = try TestSupport.migrate([root.path, "--to", "async", "--stage", "all", "--replace", "--diff"])
        XCTAssertEqual(text.status, 0, text.standardError)
        XCTAssertTrue(text.standardError.contains("""
            \(apiFile.path):12:10: call site left alone in `avatar(_:)`: \(reason)
                kept a promise by 1 call that cannot change with it:
                \(screenFile.path):28:9: `avatar(_:)` is made through `?.`

            """), text.standardError)
        XCTAssertTrue(text.standardError.contains("left alone (1 \(reason)"), text.standardError)
        XCTAssertTrue(text.standardError.contains("""
            \(apiFile.path):4:10: note: converted a function returning a promise to `async throws -> String`, \
            its chain straight-line code on the main actor, where its handlers ran; its 4 calls in the tree changed with it \
            (1 awaited directly, 3 using the promise wrapped in `Promise.immediate { ... }`, which starts it at once as before)
            """), text.standardError)
        // Each call in its own file: awaited where async code read `.value`, wrapped elsewhere.
        for line in [
            "+    @MainActor func profile(_ id: Int) async throws -> String {",
            // The map's `id` no longer hides the parameter its first call reads.
            "+        let id2 = id",
            "+        return \"user \\(id2)\"",
            // `both()` forwards a promise: async too, the calls in it still wrapped for `when`.
            "+    @MainActor func both() async throws -> [String] {",
            "+        return try await when(fulfilled: [Promise.immediate { @MainActor @Sendable [self] in try await api.profile(2) }, "
                + "Promise.immediate { @MainActor @Sendable [self] in try await api.profile(3) }]).value",
            "+        try await api.profile(4)",
            "+        let namePromise = Promise.immediate { @MainActor @Sendable [self] in try await api.profile(1) }",
        ] {
            XCTAssertTrue(text.standardOutput.contains(line + "\n"), line + "\n" + text.standardOutput)
        }

        // A function handed on as a value, not called: no call to change, so it stays.
        XCTAssertTrue(text.standardError.contains("""
            \(apiFile.path):18:10: call site left alone in `banner()`: its name is used as a value somewhere in the tree \
            (handed on, not called), which the async function would not fit
            """), text.standardError)
        XCTAssertFalse(text.standardOutput.contains("func banner() async"), text.standardOutput)

        let json = try TestSupport.migrate([root.path, "--to", "async", "--stage", "all", "--replace", "--diff", "--report", "json"])
        struct Report: Decodable {
            struct File: Decodable { var findings: [Finding] }
            var files: [File]
        }
        let report = try JSONDecoder().decode(Report.self, from: Data(json.standardOutput.utf8))
        let refusal = try XCTUnwrap(report.files.flatMap(\.findings).first { $0.message == reason })
        XCTAssertEqual(refusal.detail?.split(separator: "\n").count, 2, refusal.detail ?? "")
    }

    func testAFunctionKeptForItsBodysShapeSaysWhy() throws {
        let root = try TestSupport.temporaryDirectory(self)
        let file = root.appendingPathComponent("Search.swift")
        try """
            import Foundation
            import Vow

            final class Search: @unchecked Sendable {
                private let lock = NSLock()
                private var last = ""

                func search(_ text: String) -> Promise<String> {
                    lock.lock()
                    last = text
                    lock.unlock()
                    return Promise.value(text)
                }

                func logged(_ text: String) -> Promise<String> {
                    defer { print("asked") }
                    if text.isEmpty {
                        return Promise.value("")
                    }
                    return Promise.value(text).map { $0 + "!" }
                }
            }

            """.write(to: file, atomically: true, encoding: .utf8)
        let result = try TestSupport.migrate([root.path, "--to", "async", "--stage", "all", "--replace", "--diff"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(result.standardError.contains("""
            \(file.path):8:10: call site left alone in `search(_:)`: its body calls `lock()`, `unlock()` or `wait()`, \
            which async code cannot (they block its thread)
            """), result.standardError)
        XCTAssertTrue(result.standardError.contains("""
            \(file.path):15:10: call site left alone in `logged(_:)`: its body has a `defer`, which would run once the async \
            function ends rather than when the promise was made
            """), result.standardError)
        XCTAssertFalse(result.standardOutput.contains("async throws -> String"), result.standardOutput)
    }
}
