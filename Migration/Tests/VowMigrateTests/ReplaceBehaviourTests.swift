import Foundation
import XCTest

/// `ReplaceProgram/`: services answering on one serial queue (each step able to fail) and
/// functions built on them by nesting callbacks. Built and run before and after `--replace` in
/// both forms (the driver calls the converted functions in their new shape): the flat promise
/// chains perform the same effects in the same order on the same queue for success and a failure
/// at each step; the async form the same effects in the same order (code between awaits runs on
/// the task's executor, not on the service queue, as the README says).
final class ReplaceBehaviourTests: XCTestCase {
    private static var program: URL { TestSupport.packageDirectory.appendingPathComponent("ReplaceProgram") }

    private func buildAndRun(_ directory: URL, flags: [String]) throws -> String {
        let sources = TestSupport.swiftFiles(in: directory) + [directory.appendingPathComponent("Driver/main.swift")]
        return try ProgramBuilding.buildAndRun(sources, binary: directory.appendingPathComponent("program"), flags: flags)
    }

    private static func withoutThreads(_ trace: String) -> String {
        trace.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.replacingOccurrences(of: "[service] ", with: "").replacingOccurrences(of: "[other] ", with: "") }
            .joined(separator: "\n")
    }

    func testReplacedFunctionsBehaveLikeTheirPyramids() throws {
        let root = try TestSupport.temporaryDirectory(self)
        let original = root.appendingPathComponent("original")
        try FileManager.default.copyItem(at: Self.program, to: original)
        let expected = try buildAndRun(original, flags: [])
        XCTAssertTrue(expected.contains("== buy, charge fails\n[other] cart(ada) called\n[service] pricing 2 items for ada\n"), expected)
        XCTAssertTrue(expected.contains("[service] bought 7: 2 items for ada\n"), expected)
        XCTAssertFalse(expected.contains("TIMED OUT"), expected)

        for target in ["promise", "async"] {
            let directory = root.appendingPathComponent(target)
            try FileManager.default.copyItem(at: Self.program, to: directory)
            let result = try TestSupport.migrate([directory.path, "--to", target, "--replace", "--in-place"])
            XCTAssertEqual(result.status, 0, result.standardError)
            XCTAssertTrue(result.standardError.contains("8 candidates: 0 alternatives added, 3 replaced, 0 skipped, 5 already migrated"), result.standardError)
            let shop = try String(contentsOf: directory.appendingPathComponent("Shop.swift"), encoding: .utf8)
            XCTAssertFalse(shop.contains("completion(.success"), shop)
            let actual = try buildAndRun(directory, flags: ["-DREPLACED_\(target.uppercased())"])
            if target == "promise" {
                XCTAssertTrue(shop.contains("}.then(on: nil) { note, order, _ -> Promise<Receipt> in"), shop)
                if actual != expected { XCTFail("promise behaves differently:\n" + UnifiedDiffText.make(expected, actual)) }
            } else if Self.withoutThreads(actual) != Self.withoutThreads(expected) {
                XCTFail("async behaves differently:\n" + UnifiedDiffText.make(Self.withoutThreads(expected), Self.withoutThreads(actual)))
            }
        }
    }

    func testCallersInOtherFilesAreLeftAloneSinceOnlyTheCalleesFileDecidesItsConversion() throws {
        let root = try TestSupport.temporaryDirectory(self)
        try """
        import Dispatch

        final class Api: Sendable {
            // Hands its handler to DispatchQueue: --replace leaves it as it is, with no alternative.
            func ping(completion: @escaping @Sendable (Error?) -> Void) {
                DispatchQueue.global().async { completion(nil) }
            }
        }
        """.write(to: root.appendingPathComponent("Api.swift"), atomically: true, encoding: .utf8)
        try """
        final class Screen: Sendable {
            let api = Api()
            func show(_ text: String) {}

            func refresh() {
                api.ping { error in
                    if let error { self.show("\\(error)"); return }
                    self.show("pong")
                }
            }
        }
        """.write(to: root.appendingPathComponent("Screen.swift"), atomically: true, encoding: .utf8)
        let result = try TestSupport.migrate([root.path, "--to", "promise", "--replace", "--stage", "all", "--in-place"])
        XCTAssertEqual(result.status, 0, result.standardError)
        // The refusal says why --stage all did not give the callee an alternative.
        XCTAssertTrue(result.standardError.contains("Screen.swift:6:9: call site left alone in `refresh()`: the callee gets no alternative: "
                                                    + "--replace converts a function itself rather than adding an alternative"),
                      result.standardError)
        XCTAssertNil(try TestSupport.typecheckTogether(TestSupport.swiftFiles(in: root)))
    }
}
