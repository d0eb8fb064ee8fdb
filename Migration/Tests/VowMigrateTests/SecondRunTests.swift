import VowMigrate
import XCTest

/// Shapes from a real PromiseKit app where a second `--replace` run over the first's output
/// changed it again: whatever the first run decides, the second must decide too.
final class SecondRunTests: XCTestCase {
    private static let options = MigrationOptions(target: .async, replace: true, stage: .all)

    /// Migrates `source`, then migrates the output again: the second run changes nothing.
    private func migrateTwice(_ source: String, file: StaticString = #filePath, line: UInt = #line) -> FileMigration {
        let first = SourceMigrator.migrate(source: source, fileName: "S.swift", options: Self.options)
        let second = SourceMigrator.migrate(source: first.output, fileName: "S.swift", options: Self.options)
        XCTAssertFalse(second.changed, UnifiedDiffText.make(first.output, second.output), file: file, line: line)
        return first
    }

    /// A hand-written `close() -> Promise<Void>` beside `close(completion:)`: `--replace` makes
    /// it `async throws`, which is not the async alternative of a handler reporting no error.
    func testAnAsyncSiblingThatThrowsIsNotTheAlternativeOfAHandlerWithoutAnError() {
        let source = """
            import Vow

            final class Sheet {
                func dismiss(completion: @escaping () -> Void) {
                    completion()
                }

                func close(completion: @escaping () -> Void) {
                    dismiss {
                        completion()
                    }
                }

                func close() -> Promise<Void> {
                    return Promise { seal in
                        self.close {
                            seal.fulfill(())
                        }
                    }
                }
            }

            final class Owner {
                let sheet = Sheet()
                var closed = false

                func finish() {
                    sheet.close { [weak self] in
                        self?.closed = true
                    }
                }
            }

            """
        let first = migrateTwice(source)
        XCTAssertTrue(first.output.contains("@MainActor func close() async throws {"), first.output)
        let again = SourceMigrator.migrate(source: first.output, fileName: "S.swift", options: Self.options)
        let close = again.findings.first { $0.function == "close(completion:)" }
        XCTAssertEqual(close?.kind, .skipped)
        XCTAssertTrue(close?.message.hasPrefix("`close()` already exists at S.swift:14:") == true, close?.message ?? "")
        XCTAssertTrue(close?.message.hasSuffix("as an async function that throws, while this handler reports none: "
                                               + "it is not this function's alternative, and another would clash with it") == true, close?.message ?? "")
        XCTAssertTrue(again.output.contains("sheet.close { [weak self] in"), again.output)
    }

    /// A local function's returned chain, inside a function `--replace` rewrites whole.
    func testAChainALocalFunctionReturnsStaysInBothRuns() {
        let source = """
            import Vow

            final class Balances {
                func fetch(_ id: Int) -> Promise<Int> {
                    Promise.value(id)
                }

                func total(_ ids: [Int]) -> Promise<Int> {
                    func sum() -> Promise<Int> {
                        return when(fulfilled: ids.map { fetch($0) }).map { values in
                            values.reduce(0, +)
                        }
                    }
                    return sum().map { $0 * 2 }
                }
            }

            """
        let first = migrateTwice(source)
        XCTAssertTrue(first.output.contains("        func sum() -> Promise<Int> {\n"), first.output)
        XCTAssertTrue(first.output.contains("}).map { values in\n"), first.output)
    }

    /// A `then` on another queue answering with a chain runs that chain whole on its queue: its
    /// links are not spliced after it too (they ran twice: `["1", "end", "end"]`).
    func testAThenOnAnotherQueueAnsweringWithAChainRunsItOnce() {
        let source = """
            import Foundation
            import Vow

            final class Tokens {
                let queue = DispatchQueue(label: "tokens")

                func ids() -> Promise<[Int]> {
                    Promise.value([1])
                }

                func names(_ ids: [Int]) -> Promise<[String]> {
                    Promise.value(ids.map(String.init))
                }

                func load() -> Promise<[String]> {
                    return firstly {
                        ids()
                    }.then(on: queue) { ids -> Promise<[String]> in
                        self.names(ids).map { names in
                            names + ["end"]
                        }
                    }
                }
            }

            """
        let first = migrateTwice(source)
        XCTAssertEqual(first.output.components(separatedBy: "+ [\"end\"]").count - 1, 1, first.output)
        XCTAssertTrue(first.output.contains("        return try await queue.async(.promise) { () -> Promise<[String]> in\n"), first.output)
    }
    /// A chain statement inside a function `--replace` makes async (its promise `pending()`,
    /// settled by the chain's handlers) converts in the first run, as the second run, reading an
    /// async function, would convert it.
    func testAChainStatementInAFunctionMadeAsyncConvertsInTheFirstRun() throws {
        let source = """
            import Foundation
            import Vow

            final class Hooks: @unchecked Sendable {
                let dataQueue = DispatchQueue(label: "data")

                static func request(_ id: Int) -> Promise<(Int, String)> {
                    .value((id, "body"))
                }

                func send(_ id: Int) -> Promise<Void> {
                    let (promise, seal) = Promise<Void>.pending()
                    firstly {
                        Self.request(id)
                    }.done(on: dataQueue) { number, text in
                        print(number, text)
                    }.catch { error in
                        seal.reject(error)
                    }.finally {
                        seal.fulfill(())
                    }
                    return promise
                }
            }

            """
        let first = migrateTwice(source)
        XCTAssertTrue(first.output.contains("@MainActor func send(_ id: Int) async throws {"), first.output)
        XCTAssertTrue(first.output.contains("Task { @MainActor [dataQueue] in"), first.output)
        XCTAssertTrue(first.output.contains("return try await promise.value"), first.output)
        XCTAssertNil(try TestSupport.typecheck(first.output, as: "Hooks.swift", self))
    }

    /// A callback presenting its result on the main queue through a function whose handler is
    /// defaulted (`present(item, animated: true)`): the run spells that call out (`completion: nil`) so it
    /// keeps its callee beside the new alternative, and the statement it rewrites around it
    /// carries the argument in its own text. The call site converts in the first run (it was left
    /// alone until a second run converted it), in both forms, and the output typechecks.
    func testACallbackCallingAFunctionWhoseHandlerIsSpelledOutConvertsInTheFirstRun() throws {
        let source = """
            import Dispatch

            final class Presenter: @unchecked Sendable {
                var shown: [String] = []

                func present(_ name: String, animated: Bool, completion: (() -> Void)? = nil) {
                    shown.append(name)
                    completion?()
                }
            }

            final class Screen: @unchecked Sendable {
                let presenter = Presenter()

                func fetch(_ id: Int, completion: @escaping @Sendable (Result<String, Error>) -> Void) {
                    DispatchQueue.global().async { completion(.success("item \\(id)")) }
                }

                func show(_ id: Int) {
                    fetch(id) { result in
                        DispatchQueue.main.async {
                            switch result {
                            case .success(let item):
                                self.presenter.present(item, animated: true)
                            case .failure:
                                self.presenter.present("error", animated: false)
                            }
                        }
                    }
                }
            }

            """
        for target in MigrationTarget.allCases {
            let options = MigrationOptions(target: target, stage: .all)
            let first = SourceMigrator.migrate(source: source, fileName: "Screen.swift", options: options)
            XCTAssertEqual(first.findings.filter { $0.kind == .callSiteConverted }.map(\.function), ["show(_:)"], "\(target): \(first.findings)")
            XCTAssertFalse(first.findings.contains { $0.kind == .callSiteRefused }, "\(target): \(first.findings)")
            XCTAssertTrue(first.output.contains("self.presenter.present(item, animated: true, completion: nil)"), first.output)
            XCTAssertTrue(first.output.contains("self.presenter.present(\"error\", animated: false, completion: nil)"), first.output)
            XCTAssertFalse(first.output.contains("completion: nil, completion: nil"), first.output)
            let second = SourceMigrator.migrate(source: first.output, fileName: "Screen.swift", options: options)
            XCTAssertFalse(second.changed, "\(target): " + UnifiedDiffText.make(first.output, second.output))
            XCTAssertNil(try TestSupport.typecheck(first.output, as: "Screen.swift", self), first.output)
        }
    }
}
