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
}
