import Foundation
import VowMigrate
import XCTest

/// Issue 18's report: for each function `--replace` leaves returning a promise, the calls that
/// keep it so, with what each does with the promise, under the refusal (text and JSON), while the
/// summary still groups the refusal by its reason alone.
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
        }

        """

    private static let screen = """
        import Vow

        final class Screen {
            let api = API()
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
        }

        """

    func testTheRefusalListsTheCallsKeepingThePromiseAndTheSummaryGroupsByReason() throws {
        let root = try TestSupport.temporaryDirectory(self)
        try Self.api.write(to: root.appendingPathComponent("API.swift"), atomically: true, encoding: .utf8)
        try Self.screen.write(to: root.appendingPathComponent("Screen.swift"), atomically: true, encoding: .utf8)
        let reason = "another file uses the promise the function returns (not awaited), which --replace would break; "
            + "without --replace the function gets an async alternative instead"

        let text = try TestSupport.migrate([root.path, "--to", "async", "--stage", "all", "--replace", "--diff"])
        XCTAssertEqual(text.status, 0, text.standardError)
        let screen = root.appendingPathComponent("Screen.swift").path
        XCTAssertTrue(text.standardError.contains("""
            \(root.appendingPathComponent("API.swift").path):4:10: call site left alone in `profile(_:)`: \(reason)
                kept a promise by 4 calls using what it returns (synchronous code cannot await it, and a task started there would run it after the code that follows):
                \(screen):8:9: in synchronous code, chains on it, hands it to `when`/`race` or returns it
                \(screen):14:26: in synchronous code, chains on it, hands it to `when`/`race` or returns it
                \(screen):14:42: in synchronous code, chains on it, hands it to `when`/`race` or returns it
                \(screen):18:19: reads its `.value`

            """), text.standardError)
        XCTAssertTrue(text.standardError.contains("left alone (1 \(reason))"), text.standardError)

        let json = try TestSupport.migrate([root.path, "--to", "async", "--stage", "all", "--replace", "--diff", "--report", "json"])
        struct Report: Decodable {
            struct File: Decodable { var findings: [Finding] }
            var files: [File]
        }
        let report = try JSONDecoder().decode(Report.self, from: Data(json.standardOutput.utf8))
        let refusal = try XCTUnwrap(report.files.flatMap(\.findings).first { $0.message == reason })
        XCTAssertEqual(refusal.detail?.split(separator: "\n").count, 5, refusal.detail ?? "")
        XCTAssertNil(report.files.flatMap(\.findings).first { $0.kind == .callSiteConverted && $0.function == "show()" }?.detail)
    }
}
