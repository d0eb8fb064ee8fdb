import Foundation
import VowMigrate
import XCTest

/// A handler with its error between values, `(NSObject?, Error?, HTTPURLResponse)`, as a real
/// app's HTTP client passes them: the response counts on failure too, and `(nil, nil, response)`
/// is an answer (a 404). The alternatives pass every value on, the error included, and throw
/// nothing; a caller's pyramid flattens (async form) and prints the same for each answer.
final class MiddleErrorHandlerTests: XCTestCase {
    private static let source = #"""
        import Foundation

        final class Response: @unchecked Sendable {
            let statusCode: Int
            init(_ statusCode: Int) { self.statusCode = statusCode }
        }

        struct ServerError: Error, CustomStringConvertible {
            var description: String { "server error" }
        }

        final class Client: @unchecked Sendable {
            private let queue = DispatchQueue(label: "net")

            func get(_ path: String, callback: @escaping (String?, Error?, Response) -> Void) {
                queue.async {
                    switch path {
                    case "/fail": callback(nil, ServerError(), Response(500))
                    case "/missing": callback(nil, nil, Response(404))
                    default: callback("body of \(path)", nil, Response(200))
                    }
                }
            }
        }

        final class Screen: @unchecked Sendable {
            let client = Client()
            let finished: @Sendable () -> Void

            init(finished: @escaping @Sendable () -> Void) {
                self.finished = finished
            }

            func load(_ path: String) {
                client.get(path) { (result: String?, error: Error?, response: Response) in
                    if let error = error {
                        print("failed: \(error), status \(response.statusCode)")
                        self.finished()
                        return
                    }
                    guard let result = result else {
                        print("nothing, status \(response.statusCode)")
                        self.finished()
                        return
                    }
                    self.client.get("/details") { details, _, response in
                        print("\(result); \(details ?? "-"), status \(response.statusCode)")
                        self.finished()
                    }
                }
            }
        }

        """#

    private static let driver = #"""
        import Dispatch
        import Foundation

        let done = DispatchSemaphore(value: 0)
        let screen = Screen(finished: { done.signal() })
        DispatchQueue.global().async {
            for path in ["/a", "/fail", "/missing"] {
                print("==", path)
                screen.load(path)
                done.wait()
            }
            exit(0)
        }
        dispatchMain()

        """#

    private func run(_ code: String, _ name: String) throws -> String {
        try ProgramBuilding.buildAndRun([("Screen.swift", code), ("main.swift", Self.driver)], as: name,
                                        in: try TestSupport.temporaryDirectory(self), flags: ["-swift-version", "5"])
    }

    func testEveryAnswerKeepsItsMeaningAndThePyramidFlattens() throws {
        let expected = try run(Self.source, "original")
        XCTAssertEqual(expected, """
            == /a
            body of /a; body of /details, status 200
            == /fail
            failed: server error, status 500
            == /missing
            nothing, status 404

            """)
        for target in [MigrationTarget.async, .promise] {
            let migration = SourceMigrator.migrate(source: Self.source, fileName: "Screen.swift", options: MigrationOptions(target: target, stage: .all))
            XCTAssertEqual(migration.findings.filter { $0.kind == .added }.map(\.function), ["get(_:callback:)"], "\(target)")
            switch target {
            case .async:
                XCTAssertEqual(migration.findings.filter { $0.kind == .callSiteConverted }.map(\.function), ["load(_:)"], "\(migration.findings.map(\.message))")
                XCTAssertTrue(migration.output.contains(
                    "func get(_ path: String) async -> (string: String?, error: Error?, response: Response) {"), migration.output)
                XCTAssertTrue(migration.output.contains(
                    "let (result, error, response): (String?, Error?, Response) = await client2.get(path)"), migration.output)
            case .promise:
                // A chain's handlers take one value: the promise form flattens such callbacks
                // only as the last one of a pyramid.
                XCTAssertEqual(migration.findings.filter { $0.kind == .callSiteRefused }.map(\.message),
                               ["callbacks passing several values are flattened as the last callback only"])
                XCTAssertTrue(migration.output.contains(
                    "func get(_ path: String) -> Guarantee<(string: String?, error: Error?, response: Response)> {"), migration.output)
            }
            XCTAssertEqual(try run(migration.output, "\(target)"), expected, "\(target)")
        }
    }
}
