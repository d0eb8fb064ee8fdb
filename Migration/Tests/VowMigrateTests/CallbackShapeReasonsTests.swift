import Foundation
@testable import VowMigrate
import XCTest

/// Call sites left alone for the shape of their callback's code are counted, and a promise-form
/// run points to the async form, which keeps such code.
final class CallbackShapeReasonsTests: XCTestCase {
    /// Each prefix is how the reader words a refusal today: a reworded one would stop counting.
    func testEachPrefixIsStillHowTheReaderWordsARefusal() throws {
        let reader = try String(contentsOf: TestSupport.packageDirectory.appendingPathComponent("Sources/VowMigrate/CallSites/PyramidReader.swift"),
                                encoding: .utf8)
        for prefix in CallbackShapeReasons.prefixes {
            XCTAssertTrue(reader.contains(prefix), "PyramidReader no longer says: \(prefix)")
        }
        XCTAssertTrue(CallbackShapeReasons.isCallbackShape("a `guard` inside a callback"))
        XCTAssertTrue(CallbackShapeReasons.isCallbackShape("the callback reads `user` as optional, so a `(nil, nil)` answer means something to it"))
        XCTAssertFalse(CallbackShapeReasons.isCallbackShape("the callee has no promise alternative yet (add them first: --stage declarations, or --stage all)"))
    }

    func testAPromiseRunPointsToTheAsyncFormForThoseCallSitesOnly() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let file = directory.appendingPathComponent("Screen.swift")
        try """
            final class Api: @unchecked Sendable {
                func user(_ id: Int, completion: @escaping @Sendable (String?, Error?) -> Void) { completion("ada", nil) }
            }

            final class Screen: @unchecked Sendable {
                let api = Api()
                var title = ""
                func show() {
                    api.user(1) { name, error in
                        guard let name else { self.title = "\\(String(describing: error))"; return }
                        self.title = name
                    }
                }
            }

            """.write(to: file, atomically: true, encoding: .utf8)
        let promise = try TestSupport.migrate([file.path, "--to", "promise", "--stage", "all"])
        XCTAssertTrue(promise.standardError.hasSuffix(
            "\nvow-migrate: note: 1 call site was left alone for the shape of the callback's own code (a `guard`, code before the error check, "
                + "an answer it gives meaning to...), which a promise chain's handlers cannot hold as written; --to async keeps such code as "
                + "it is, after constants holding what the callback received\n"), promise.standardError)
        let async = try TestSupport.migrate([file.path, "--to", "async", "--stage", "all"])
        XCTAssertFalse(async.standardError.contains("note: 1 call site was left alone"), async.standardError)
        XCTAssertTrue(async.standardError.contains("1 call site converted"), async.standardError)
    }
}
