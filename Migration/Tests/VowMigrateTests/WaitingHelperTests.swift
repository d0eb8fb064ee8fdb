import Foundation
import VowMigrate
import XCTest

/// SDK suites wrap their waits in a helper: `waitFor { done in api.load { done($0) } }` returns
/// once the closure's answer came (its body calls the closure with one fulfilling an expectation,
/// then waits). A pyramid ending that closure by answering it converts in async form as a test's
/// own expectation flow does: the task runs while the helper waits, and the assertions after the
/// helper still see the answer. A helper that does not wait, or a closure doing more after the
/// call, keeps its callback.
final class WaitingHelperTests: XCTestCase {
    private static let suite = """
        import Foundation
        import XCTest

        final class Client: @unchecked Sendable {
            func load(_ id: Int, completion: @escaping (Result<String, Error>) -> Void) {
                DispatchQueue.global().async { completion(.success("item \\(id)")) }
            }
        }

        class BaseTestCase: XCTestCase {
            let client = Client()

            func waitFor<T>(_ description: String = #function, _ start: (@escaping (T) -> Void) -> Void) -> T? {
                let done = expectation(description: description)
                var value: T?
                start { received in
                    value = received
                    done.fulfill()
                }
                wait(for: [done], timeout: 5)
                return value
            }

            /// Starts the work but does not wait for it.
            func kickOff<T>(_ start: (@escaping (T) -> Void) -> Void) {
                start { _ in }
            }
        }

        final class ClientTests: BaseTestCase {
            func testLoading() {
                let result: Result<String, Error>? = waitFor { done in
                    client.load(1) { result in
                        done(result)
                    }
                }
                XCTAssertEqual(try result?.get(), "item 1")
            }

            func testLoadingWithALabel() {
                let value: String? = waitFor("labelled") { done in
                    client.load(2) { result in
                        done((try? result.get()) ?? "none")
                    }
                }
                XCTAssertEqual(value, "item 2")
            }

            func testKickingOff() {
                kickOff { (done: (String) -> Void) in
                    client.load(3) { result in
                        done((try? result.get()) ?? "none")
                    }
                }
                XCTAssertTrue(true)
            }

            func testMoreAfterTheCall() {
                let value: String? = waitFor { done in
                    client.load(4) { result in
                        done((try? result.get()) ?? "none")
                    }
                    print("started")
                }
                XCTAssertEqual(value, "item 4")
            }
        }
        """

    func testAPyramidAnsweringTheHelpersClosureConvertsWhereTheHelperWaits() {
        let migration = SourceMigrator.migrate(source: Self.suite, fileName: "ClientTests.swift",
                                               options: MigrationOptions(target: .async, stage: .all, languageMode: .v5))
        let converted = migration.findings.filter { $0.kind == .callSiteConverted }.map(\.function)
        XCTAssertEqual(converted, ["testLoading()", "testLoadingWithALabel()"], "\(migration.findings.map(\.message))")
        XCTAssertEqual(migration.findings.filter { $0.kind == .callSiteRefused }.map(\.function), ["testKickingOff()", "testMoreAfterTheCall()"],
                       "\(migration.findings.map(\.message))")
        XCTAssertTrue(migration.output.contains("""
                    let result: Result<String, Error>? = waitFor { done in
                        Task {
                            let result: Result<String, Error>
                            do {
                                result = .success(try await client.load(1))
                            } catch {
                                result = .failure(error)
                            }
                            done(result)
                        }
                    }
                    XCTAssertEqual(try result?.get(), "item 1")
            """), migration.output)
    }
}
