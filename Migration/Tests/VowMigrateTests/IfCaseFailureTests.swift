import Foundation
import VowMigrate
import XCTest

/// SDK test suites wait for one error: `if case .failure(let error) = result, case .parseError(_)
/// = error { condition.fulfill() }`. In promise form the chain's `catch` matches that error as the
/// callee's failure type (`case TaxonomyError.parseError(_):`), and runs the `else` code (or
/// nothing) for a value and for any other error; `if case .success(let v) = result { } else if
/// case .failure(let e) = result { }` splits as a `switch` would, and so does `if case
/// .failure(let e) = result { } else { }`. Run before and after, the
/// program prints the same lines for every answer.
final class IfCaseFailureTests: XCTestCase {
    private static let source = """
        import Foundation

        enum CatalogError: Error {
            case parseError(String)
            case unknownError
            case unexpectedResponse(Int)
        }

        final class Catalog: @unchecked Sendable {
            var answer: Result<[String], CatalogError> = .success([])

            func download(ids: [Int], callback: @escaping @Sendable (Result<[String], CatalogError>) -> Void) {
                let answer = self.answer
                DispatchQueue.global().async { callback(answer) }
            }
        }

        final class Checks: @unchecked Sendable {
            let catalog: Catalog
            let done: @Sendable (String) -> Void

            init(catalog: Catalog, done: @escaping @Sendable (String) -> Void) {
                self.catalog = catalog
                self.done = done
            }

            func expectParseError() {
                catalog.download(ids: [-1]) { result in
                    if case .failure(let error) = result, case .parseError(_) = error {
                        self.done("parse error seen")
                    }
                }
            }

            func expectServerError() {
                catalog.download(ids: [1]) { result in
                    if case .failure(let error) = result,
                        case .unexpectedResponse(500) = error {
                        self.done("server error seen")
                    } else {
                        self.done("something else")
                    }
                }
            }

            func expectNames() {
                catalog.download(ids: [2]) { result in
                    if case .success(let names) = result {
                        self.done("names \\(names)")
                    } else if case .failure(let error) = result {
                        self.done("failed \\(error)")
                    }
                }
            }

            func expectFailureFirst() {
                catalog.download(ids: [3]) { result in
                    if case .failure(let error) = result {
                        self.done("failure first \\(error)")
                    } else {
                        self.done("no failure")
                    }
                }
            }
        }
        """

    private static let driver = """
        import Foundation

        let answers: [(String, Result<[String], CatalogError>)] = [
            ("names", .success(["a", "b"])),
            ("parse", .failure(.parseError("x"))),
            ("unknown", .failure(.unknownError)),
            ("500", .failure(.unexpectedResponse(500))),
            ("404", .failure(.unexpectedResponse(404))),
        ]
        for (name, answer) in answers {
            let catalog = Catalog()
            catalog.answer = answer
            for check in ["expectParseError", "expectServerError", "expectNames", "expectFailureFirst"] {
                let answered = DispatchSemaphore(value: 0)
                let checks = Checks(catalog: catalog) { line in
                    print("\\(name) \\(check): \\(line)")
                    answered.signal()
                }
                switch check {
                case "expectParseError": checks.expectParseError()
                case "expectServerError": checks.expectServerError()
                case "expectNames": checks.expectNames()
                default: checks.expectFailureFirst()
                }
                if answered.wait(timeout: .now() + 1) == .timedOut { print("\\(name) \\(check): nothing") }
            }
        }
        """

    func testTheChainsCatchMatchesTheWaitedErrorAndTheProgramPrintsTheSame() throws {
        let migration = SourceMigrator.migrate(source: Self.source, fileName: "Checks.swift",
                                               options: MigrationOptions(target: .promise, stage: .all))
        XCTAssertEqual(migration.findings.filter { $0.kind == .callSiteConverted }.map(\.function),
                       ["expectParseError()", "expectServerError()", "expectNames()", "expectFailureFirst()"],
                       "\(migration.findings.map(\.message))")
        XCTAssertTrue(migration.output.contains("""
                    catalog.download(ids: [-1]).done(on: nil) { _ in
                    }.catch(on: nil, policy: .allErrors) { error in
                        switch error {
                        case CatalogError.parseError(_):
                            self.done("parse error seen")
                        default:
                            break
                        }
                    }
            """), migration.output)
        XCTAssertTrue(migration.output.contains("case CatalogError.unexpectedResponse(500):"), migration.output)

        let root = try TestSupport.temporaryDirectory(self)
        let original = try ProgramBuilding.buildAndRun([("Checks.swift", Self.source), ("main.swift", Self.driver)], as: "original", in: root)
        XCTAssertEqual(original.split(separator: "\n").count, 20, original)
        XCTAssertTrue(original.contains("404 expectFailureFirst: failure first unexpectedResponse(404)\n"), original)
        XCTAssertTrue(original.contains("names expectFailureFirst: no failure\n"), original)
        XCTAssertTrue(original.contains("parse expectParseError: parse error seen\n"), original)
        XCTAssertTrue(original.contains("404 expectServerError: something else\n"), original)
        XCTAssertTrue(original.contains("unknown expectParseError: nothing\n"), original)
        let migrated = try ProgramBuilding.buildAndRun([("Checks.swift", migration.output), ("main.swift", Self.driver)], as: "promise", in: root)
        XCTAssertEqual(migrated, original)
    }

    /// A bound payload, a third condition or a read of the error in the branch stays a callback.
    func testShapesTheCatchCannotMatchStay() {
        let source = """
            import Foundation

            enum CatalogError: Error {
                case networkError(Error)
                case unknownError
            }

            final class Catalog: @unchecked Sendable {
                func download(callback: @escaping @Sendable (Result<Int, CatalogError>) -> Void) {
                    callback(.failure(.unknownError))
                }

                func check(_ flag: Bool) {
                    download { result in
                        if case .failure(let error) = result, case .networkError(let inner as NSError) = error {
                            print(inner.code)
                        }
                    }
                    download { result in
                        if case .failure(let error) = result, case .unknownError = error, flag {
                            print("flagged")
                        }
                    }
                    download { result in
                        if case .failure(let error) = result, case .unknownError = error {
                            print(error)
                        }
                    }
                }
            }
            """
        let migration = SourceMigrator.migrate(source: source, fileName: "Catalog.swift", options: MigrationOptions(target: .promise, stage: .all))
        XCTAssertEqual(migration.findings.filter { $0.kind == .callSiteConverted }.count, 0, migration.output)
        XCTAssertEqual(migration.findings.filter { $0.kind == .callSiteRefused }.count, 3, "\(migration.findings.map(\.message))")
    }
}
