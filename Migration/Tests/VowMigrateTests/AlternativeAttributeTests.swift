import VowMigrate
import XCTest

/// Alternatives and call sites that did not compile on an SDK the tool had not seen.
final class AlternativeAttributeTests: XCTestCase {
    /// An `@inlinable` original: the alternative is an ordinary public function (an inlinable
    /// body may not use the file's private helper it needs, `NeitherValueNorError`).
    func testAnInlinableOriginalGetsAnAlternativeThatIsNotInlinable() throws {
        let input = """
            public struct API: Sendable {
                public init() {}

                @inlinable
                public func ping(completion: @escaping @Sendable (Bool, Error?) -> Void) {
                    completion(true, nil)
                }
            }

            """
        let result = SourceMigrator.migrate(source: input, fileName: "API.swift", options: MigrationOptions(target: .async))
        XCTAssertTrue(result.output.contains("public nonisolated(nonsending) func ping() async throws"), result.output)
        XCTAssertEqual(result.output.components(separatedBy: "@inlinable").count - 1, 1, result.output)
        XCTAssertNil(try TestSupport.typecheck(result.output, as: "API.swift", self))
    }

    /// A callee of a generic class whose handler names the class's parameter through a generic
    /// typealias (`PageHandler<Item>`): a call site declaring the callback's values would name
    /// `Item`, which is not in scope there; left alone, with the reason.
    func testACallSiteIsNotWrittenWithTheCalleesTypeParameter() throws {
        let input = """
            import Dispatch

            public typealias PageHandler<Item> = (_ items: [Item]?, _ error: Error?) -> ()

            public final class Pager<Item>: @unchecked Sendable {
                public init() {}
                public func loadNext(completion: @escaping PageHandler<Item>) {
                    DispatchQueue.main.async { completion([], nil) }
                }
            }

            final class Screen: @unchecked Sendable {
                func show() {
                    let pager = Pager<Int>()
                    pager.loadNext { items, error in
                        print(items ?? [], error as Any)
                    }
                }
            }

            """
        let result = SourceMigrator.migrate(source: input, fileName: "Pager.swift", options: MigrationOptions(target: .async, stage: .all))
        XCTAssertFalse(result.output.contains("let items: [Item]?"), result.output)
        XCTAssertNil(try TestSupport.typecheck(result.output, as: "Pager.swift", self))
    }

    /// Two overloads whose alternatives differ: a split `success:`/`failure:` pair (its alternative
    /// drops both) beside one taking a delegate-style `challengeHandler:` and a `completion:` (its
    /// alternative keeps the challenge handler). Read as dropping two closures each, they looked
    /// the same and neither got one.
    func testADelegateStyleCallbackIsNotTakenForADroppedHandlerWhenOverloadsAreCompared() throws {
        let input = """
            import Dispatch

            public final class Auth: @unchecked Sendable {
                public init() {}

                public func signIn(email: String, password: String,
                                   success: @escaping @Sendable (String) -> Void, failure: @escaping @Sendable (Error) -> Void) {
                    DispatchQueue.main.async { success(email) }
                }

                public func signIn(email: String, password: String,
                                   challengeHandler: @escaping @Sendable (Int, @escaping @Sendable (Bool) -> Void) -> Void,
                                   completion: @escaping @Sendable (Result<String, Error>) -> Void) {
                    challengeHandler(6) { ok in completion(ok ? .success(email) : .failure(CancellationError())) }
                }
            }

            """
        let result = SourceMigrator.migrate(source: input, fileName: "Auth.swift", options: MigrationOptions(target: .async))
        XCTAssertEqual(result.findings.filter { $0.kind == .added }.count, 2, "\(result.findings)")
        XCTAssertNil(try TestSupport.typecheck(result.output, as: "Auth.swift", self))
    }

    /// An optional handler without a default must be passed: no call can leave it out, so a
    /// call passing a closure converts (it was refused as if the handler had a default).
    func testACallOfAnOptionalHandlerWithoutADefaultConverts() throws {
        let input = """
            import Dispatch

            final class Legacy: @unchecked Sendable {
                func warmUp(completion: (@Sendable (Error?) -> Void)?) {
                    DispatchQueue.global().async { completion?(nil) }
                }
            }

            final class Screen: @unchecked Sendable {
                let legacy = Legacy()

                func start() {
                    legacy.warmUp { error in
                        print("warmed up: \\(error == nil)")
                    }
                }
            }

            """
        let result = SourceMigrator.migrate(source: input, fileName: "Legacy.swift", options: MigrationOptions(target: .async, stage: .all))
        XCTAssertEqual(result.findings.filter { $0.kind == .callSiteConverted }.count, 1, "\(result.findings)")
        XCTAssertNil(try TestSupport.typecheck(result.output, as: "Legacy.swift", self))
    }

    /// A typealias the type declares for a closure answering a value (a route handler) is
    /// declared: the function is not a completion-handler function, listed as such under
    /// `--verbose`, not skipped as if the alias were nowhere in the run.
    func testAClosureAliasAnsweringAValueIsNoHandlerRatherThanUndeclared() {
        let input = """
            import Foundation

            public final class Server {
                public typealias RouteHandler = (String) -> (status: Int, body: Data?)
                private var routes: [String: RouteHandler] = [:]

                public func register(_ path: String, handler: @escaping RouteHandler) {
                    routes[path] = handler
                }
            }

            """
        let result = SourceMigrator.migrate(source: input, fileName: "Server.swift", options: MigrationOptions(target: .async))
        XCTAssertEqual(result.findings.filter { $0.kind == .skipped }.map(\.message), [])
        XCTAssertEqual(result.output, input)
    }
}
