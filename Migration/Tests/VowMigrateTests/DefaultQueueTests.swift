import Foundation
@testable import VowMigrate
import XCTest

/// Chain handlers that name no queue run on `conf.Q`, the main queue unless the program changes
/// it: a tree assigning `conf.Q` or `conf.D` anywhere keeps such chains as they are.
final class DefaultQueueTests: XCTestCase {
    func testAssignmentsOfTheDefaultQueuesAreFoundAndOtherMentionsAreNot() {
        let found = { (text: String) in DefaultQueueAssignment.first(in: text, fileName: "A.swift").map { [$0.line, $0.column] } }
        XCTAssertEqual(found("let a = 1\nconf.Q.map = .global()\n"), [2, 1])
        XCTAssertEqual(found("    PromiseKit.conf.Q = (map: q, return: q)\n"), [1, 16])
        XCTAssertEqual(found("Vow.conf.D.return = d\n"), [1, 5])
        XCTAssertEqual(found("    conf.Q.return=queue\n"), [1, 5])
        XCTAssertNil(found("// conf.Q.map = .global() in tests\n"))
        XCTAssertNil(found("if conf.Q.map == nil { }\n"))
        XCTAssertNil(found("let queue = conf.Q.map\n"))
        XCTAssertNil(found("myconf.Q = 1\n"))
        // The default as it is (PromiseKit's own test helpers set it before each test).
        XCTAssertNil(found("        PromiseKit.conf.Q.map = .main\n"))
        XCTAssertNil(found("conf.Q = (map: .main, return: DispatchQueue.main)\n"))
        XCTAssertEqual(found("conf.Q.map = nil\n"), [1, 1])
        XCTAssertEqual(found("conf.Q = (map: .main, return: .global())\n"), [1, 1])
        XCTAssertNil(found("print(\"nothing\")\n"))
    }

    func testAChainOnTheDefaultQueueIsLeftAloneOnceTheTreeAssignsIt() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let screen = directory.appendingPathComponent("Screen.swift")
        try """
            import Vow

            final class Api: @unchecked Sendable {
                func load() -> Promise<Int> { Promise.value(1) }
            }

            final class Screen: @unchecked Sendable {
                let api = Api()
                func show() {
                    api.load().done { value in
                        print(value)
                    }.catch { error in
                        print(error)
                    }
                }

                func showOnMain() {
                    api.load().done(on: .main) { value in
                        print(value)
                    }.catch(on: .main) { error in
                        print(error)
                    }
                }
            }

            """.write(to: screen, atomically: true, encoding: .utf8)
        let alone = try TestSupport.migrate([screen.path, "--to", "async", "--stage", "call-sites", "--check"])
        XCTAssertTrue(alone.standardError.contains("2 call sites converted, 0 left alone"), alone.standardError)

        let setup = directory.appendingPathComponent("Setup.swift")
        try "import Vow\nimport Dispatch\n\nfunc configure() {\n    conf.Q.map = DispatchQueue(label: \"handlers\")\n}\n"
            .write(to: setup, atomically: true, encoding: .utf8)
        let together = try TestSupport.migrate([screen.path, setup.path, "--to", "async", "--stage", "call-sites", "--check"])
        XCTAssertTrue(together.standardError.contains(
            "Screen.swift:10:9: call site left alone in `show()`: a chain link on the default queue, which this tree changes "
                + "(`conf.Q`/`conf.D` assigned at \(setup.path):5:5)"), together.standardError)
        XCTAssertTrue(together.standardError.contains("1 call site converted, 1 left alone"), together.standardError)
        // Named by --context, the assignment counts too.
        let context = try TestSupport.migrate([screen.path, "--context", setup.path, "--to", "async", "--stage", "call-sites", "--check"])
        XCTAssertTrue(context.standardError.contains("1 call site converted, 1 left alone"), context.standardError)
    }
}
