import Foundation
import VowMigrate
import XCTest

/// Bodies of promise-returning functions as a real wallet app writes them (its gas price
/// estimator): one `if` whose branches `return` promises, and a `recover` answering with a call
/// of another of the tree's promise functions.
final class ReplaceBodyShapeTests: XCTestCase {
    private static let estimator = """
        import Vow

        struct Gas: Sendable { let price: Int }

        final class Estimator: @unchecked Sendable {
            var log: [String] = []

            func etherscan() -> Promise<Gas> { .value(Gas(price: 1)) }
            func rpc(server: Int) -> Promise<Gas> { .value(Gas(price: server)) }

            func estimate(server: Int) -> Promise<Gas> {
                if server > 1 {
                    return etherscan()
                        .recover { _ in self.rpc(server: server) }
                } else {
                    return rpc(server: server)
                }
            }

            func show() {
                etherscan().recover { _ in self.rpc(server: 2) }.done { gas in
                    self.log.append("\\(gas.price)")
                }.catch { error in
                    self.log.append("\\(error)")
                }
            }
        }

        """

    /// A body that is one `if` statement was taken for an implicit return value and wrapped
    /// whole, `return`s and all, in `try await (if ... { return ... }).value`, which does not
    /// compile. Its `return`s are its answers.
    func testABodyThatIsOneIfStatementIsNotWrappedAsAnExpression() throws {
        let result = SourceMigrator.migrate(source: Self.estimator, fileName: "Estimator.swift",
                                            options: MigrationOptions(target: .async, replace: true, stage: .all))
        XCTAssertFalse(result.output.contains("(if "), result.output)
        XCTAssertNil(try TestSupport.typecheck(result.output, as: "Estimator.swift", self))
    }

    /// `recover { _ in self.rpc(server: 2) }`: the call is the tree's promise function, so the
    /// handler answers with a promise (the form passing cancellations on), not the `Void` form.
    func testARecoverAnsweringWithTheTreesPromiseFunctionConverts() throws {
        let result = SourceMigrator.migrate(source: Self.estimator, fileName: "Estimator.swift",
                                            options: MigrationOptions(target: .async, stage: .all))
        XCTAssertFalse(result.findings.contains { $0.kind == .callSiteRefused }, "\(result.findings)")
        XCTAssertTrue(result.output.contains("if error.isCancelled { throw error }"), result.output)
        XCTAssertNil(try TestSupport.typecheck(result.output, as: "Estimator.swift", self))
    }

    /// `Kind.allCases.map { $0.load(from: data) }`, `load` made async: the call still needing a
    /// promise is wrapped, and the closure names its `$0` (the wrapper would take it for its
    /// own). The wrapper was written after the new name, which left it in front of `Promise`
    /// (`valuePromise.immediate { ... .load(from: data) }`), and the file did not compile.
    func testACallStartingWithShorthandIsWrappedWithTheNameInsideTheWrapper() throws {
        let source = """
            import Vow

            enum Kind: CaseIterable, Sendable {
                case small, large

                func load(from data: Int) -> Promise<String> {
                    .value("\\(self) \\(data)")
                }
            }

            final class Loader: Sendable {
                func all(data: Int) -> Promise<[String]> {
                    firstly {
                        Promise.value(data)
                    }.then { data in
                        when(fulfilled: Kind.allCases.map { $0.load(from: data) })
                    }
                }
            }

            """
        let result = SourceMigrator.migrate(source: source, fileName: "Loader.swift",
                                            options: MigrationOptions(target: .async, replace: true, stage: .all))
        XCTAssertTrue(result.output.contains(
            "Kind.allCases.map { value in Promise.immediate { @MainActor @Sendable in try await value.load(from: "), result.output)
        XCTAssertNil(try TestSupport.typecheck(result.output, as: "Loader.swift", self))
    }

    /// `return api.get("/scenes")`, the tree's `get(_:as:)` (a link's name, a string argument,
    /// no closure): the first promise, not PromiseKit's `get` link, however the call is written,
    /// so the function is converted in the first run, and a second run (which sees the call
    /// wrapped in `Promise.immediate`) decides the same.
    func testACallNamedLikeALinkWithoutAClosureIsTheFirstPromiseInEveryRun() throws {
        let input = """
            import Vow

            struct Scene: Sendable {
                let name: String
            }

            enum APIError: Error {
                case missing
            }

            final class API: @unchecked Sendable {
                var stored: [String: [Scene]] = [:]

                func get<T: Sendable>(_ path: String, as type: T.Type = T.self) -> Promise<T> {
                    guard let value = stored[path] as? T else { return Promise(error: APIError.missing) }
                    return .value(value)
                }
            }

            final class Repository: @unchecked Sendable {
                let api = API()

                func scenes() -> Promise<[Scene]> {
                    return api.get("/scenes")
                }
            }

            """
        let options = MigrationOptions(target: .async, replace: true, stage: .all)
        let first = SourceMigrator.migrate(source: input, fileName: "Repository.swift", options: options)
        XCTAssertTrue(first.output.contains("@MainActor func scenes() async throws -> [Scene] {\n        return try await api.get(\"/scenes\")"), first.output)
        let second = SourceMigrator.migrate(source: first.output, fileName: "Repository.swift", options: options)
        XCTAssertEqual(second.output, first.output)
        XCTAssertNil(try TestSupport.typecheck(first.output, as: "Repository.swift", self))
    }
}
