import Foundation
import VowMigrate
import XCTest

/// The whole-tree index: what one file learns from the others, and the counts that say no
/// completion-handler function went unmentioned.
final class IndexTests: XCTestCase {
    private var tree: URL { TestSupport.fixturesDirectory.appendingPathComponent("tree-index") }

    private func index(_ files: [(String, String)], context: [(String, String)] = []) -> MigrationIndex {
        MigrationIndex(summaries: files.map { MigrationIndex.summarize(source: $1, fileName: $0) }
                       + context.map { MigrationIndex.summarize(source: $1, fileName: $0, isContext: true) })
    }

    // MARK: - The multi-file fixture

    func testTheTreeMigratesWithKnowledgeFromEveryFileInBothForms() throws {
        for target in ["promise", "async"] {
            let directory = try TestSupport.temporaryDirectory(self)
            let sources = directory.appendingPathComponent("Sources")
            try FileManager.default.copyItem(at: tree.appendingPathComponent("Sources"), to: sources)
            let result = try TestSupport.migrate([sources.path, "--context", tree.appendingPathComponent("Context").path,
                                                  "--to", target, "--in-place", "--report", "json"])
            XCTAssertEqual(result.status, 0, result.standardError)
            for expected in TestSupport.swiftFiles(in: tree.appendingPathComponent(target)) {
                let actual = try String(contentsOf: sources.appendingPathComponent(expected.lastPathComponent), encoding: .utf8)
                let wanted = try String(contentsOf: expected, encoding: .utf8)
                XCTAssertEqual(actual, wanted, "\(target)/\(expected.lastPathComponent):\n"
                               + UnifiedDiff.make(old: wanted, new: actual, oldName: "expected", newName: "actual"))
            }
            let summary = try jsonSummary(result.standardOutput)
            XCTAssertEqual(summary["candidates"], 3, target)
            XCTAssertEqual(summary["added"], target == "promise" ? 3 : 2, target)
            XCTAssertEqual(summary["alreadyMigrated"], target == "promise" ? 0 : 1, target)
            XCTAssertEqual(summary["skipped"], 0, target)
            // The context file is read, never rewritten or reported.
            XCTAssertFalse(result.standardOutput.contains("Vendor.swift"), result.standardOutput)
        }
    }

    func testTheTreeTypechecksBeforeAndAfterInBothForms() throws {
        let context = TestSupport.swiftFiles(in: tree.appendingPathComponent("Context"))
        for folder in ["Sources", "promise", "async"] {
            if let diagnostics = try TestSupport.typecheckTogether(TestSupport.swiftFiles(in: tree.appendingPathComponent(folder)) + context) {
                XCTFail("tree-index/\(folder) does not typecheck against Vow:\n\(diagnostics)")
            }
        }
    }

    func testTheIndexKnowsTheCounterpartInAnotherFile() throws {
        var files: [(String, String)] = []
        for file in TestSupport.swiftFiles(in: tree.appendingPathComponent("Sources")) {
            files.append((file.lastPathComponent, try String(contentsOf: file, encoding: .utf8)))
        }
        let list = index(files).completionFunctions(baseName: "list", argumentLabels: ["completion"])
        XCTAssertEqual(list.count, 1)
        XCTAssertEqual(list.first?.alternative(for: .async), .existing(.init(kind: .async, swiftName: "list()",
                                                                            location: .init(file: "ItemService+Async.swift", line: 4, column: 5))))
        XCTAssertEqual(list.first?.alternative(for: .promise), .generated(swiftName: "list()"))
        let fetch = index(files).completionFunctions(baseName: "fetch").first
        XCTAssertEqual(fetch?.cancellableHandle, "DataRequest")
        XCTAssertEqual(fetch?.alternative(for: .promise), .generated(swiftName: "fetch(id:cancellation:)"))
    }

    func testAnAsyncVersionInAnotherFileIsReportedAsAlreadyMigratedWithItsPlace() throws {
        let result = try TestSupport.migrate([tree.appendingPathComponent("Sources").path, "--context",
                                              tree.appendingPathComponent("Context").path, "--to", "async", "--report", "json"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(result.standardOutput.contains("already has the alternative `list()` at "), result.standardOutput)
        XCTAssertTrue(result.standardOutput.contains("ItemService+Async.swift:4:5"), result.standardOutput)
    }

    func testWithoutContextTheVendorTypealiasIsReportedAndNamesTheOption() throws {
        let result = try TestSupport.migrate([tree.appendingPathComponent("Sources").path, "--to", "promise", "--check"])
        XCTAssertEqual(result.status, 1, result.standardError)
        XCTAssertTrue(result.standardError.contains(
            "ItemService.swift:16:5: skipped `upload(_:completion:)`: its handler type `VendorCompletion` is not declared in any file of the run; name the file declaring it (`--context PATH`)"),
            result.standardError)
    }

    // MARK: - Lookups

    func testCompletionFunctionsAreFoundByBaseNameAndLabelsWithTheirShape() {
        let index = index([
            ("Aliases.swift", "typealias Completion<T> = (Result<T, Error>) -> Void\n"),
            ("Api.swift", """
            final class Api {
                func get(url: String, completion: @escaping (_ data: Data?, _ response: Response?, _ error: Error?) -> Void) {
                    completion(nil, nil, nil)
                }
                func user(id: Int, completion: @escaping Completion<User>) { completion(.failure(E.x)) }
            }
            """),
        ])
        let get = index.completionFunctions(baseName: "get", argumentLabels: ["url", "completion"])
        XCTAssertEqual(get.count, 1)
        XCTAssertEqual(get.first?.valueType, "(data: Data, response: Response)")
        XCTAssertEqual(get.first?.tupleLabels, ["data", "response"])
        XCTAssertEqual(get.first?.errorType, "any Error")
        XCTAssertEqual(get.first?.scope, "Api")
        XCTAssertEqual(get.first?.location, MigrationIndex.Location(file: "Api.swift", line: 2, column: 5))
        XCTAssertEqual(get.first?.alternativeLabels, ["url"])
        XCTAssertEqual(get.first?.handlerCalls, .once)

        XCTAssertEqual(get.first?.alternative(for: .async), .generated(swiftName: "get(url:)"))

        let user = index.completionFunctions(baseName: "user", argumentLabels: ["id", "completion"])
        XCTAssertEqual(user.first?.shape, .result(value: "User", failure: nil))
        XCTAssertTrue(index.completionFunctions(baseName: "user", argumentLabels: ["id"]).isEmpty)
    }

    func testTypealiasesAreFoundNestedQualifiedAndThroughAModuleName() {
        let index = index([("A.swift", """
        final class OAuthSwiftHTTPRequest {
            typealias CompletionHandler = (Result<String, Error>) -> Void
        }
        typealias Completion = (Error?) -> Void
        """)])
        XCTAssertEqual(index.typeAlias(named: "CompletionHandler", qualifier: "OAuthSwiftHTTPRequest")?.aliasedType,
                       "(Result<String, Error>) -> Void")
        XCTAssertEqual(index.typeAlias(named: "CompletionHandler", from: "OAuthSwiftHTTPRequest")?.qualifiedName,
                       "OAuthSwiftHTTPRequest.CompletionHandler")
        XCTAssertNil(index.typeAlias(named: "CompletionHandler"))
        // `Moya` is no type of the tree, so it is taken for a module.
        XCTAssertEqual(index.typeAlias(named: "Completion", qualifier: "Moya")?.qualifiedName, "Completion")
        XCTAssertEqual(index.typeAlias(named: "Completion")?.location, MigrationIndex.Location(file: "A.swift", line: 4, column: 1))
    }

    func testCancelAndSendableReachAcrossFilesThroughExtensionsAndInheritance() {
        let index = index([
            ("Protocols.swift", "protocol Cancellable { func cancel() }\nprotocol Handle: Sendable {}\n"),
            ("Task.swift", "final class DownloadTask {}\nstruct Token {}\nprotocol DataTaskProtocol: Cancellable {}\n"),
            ("Extensions.swift", "extension DownloadTask: Cancellable, @unchecked Sendable {}\nextension Token: Handle {}\n"),
        ])
        XCTAssertTrue(index.isCancellable("DownloadTask"))
        XCTAssertTrue(index.isCancellable("DataTaskProtocol?"))
        XCTAssertFalse(index.isCancellable("Token"))
        XCTAssertTrue(index.isSendable("DownloadTask"))
        XCTAssertTrue(index.isSendable("Token"))
    }

    func testAHandlerHandedToAFunctionThatCallsItTwiceMayRepeat() {
        let index = index([("S.swift", """
        final class S {
            func twice(completion: @escaping (Error?) -> Void) {
                completion(nil)
                completion(nil)
            }
            func forward(completion: @escaping (Error?) -> Void) {
                twice(completion: completion)
            }
            func never(completion: @escaping (Error?) -> Void) {}
            func sometimes(flag: Bool, completion: @escaping (Error?) -> Void) {
                if flag { completion(nil) }
            }
        }
        """)])
        XCTAssertEqual(index.completionFunctions(baseName: "twice").first?.handlerCalls,
                       .mayRepeat(.init(file: "S.swift", line: 4, column: 9)))
        XCTAssertEqual(index.completionFunctions(baseName: "forward").first?.handlerCalls,
                       .mayRepeat(.init(file: "S.swift", line: 7, column: 27)))
        XCTAssertEqual(index.completionFunctions(baseName: "never").first?.handlerCalls, .never)
        XCTAssertEqual(index.completionFunctions(baseName: "forward").first?.alternative(for: .promise),
                       .none(reason: "its handler can be called more than once"))
        XCTAssertEqual(index.completionFunctions(baseName: "sometimes").first?.handlerCalls,
                       .mayNotCall(.init(file: "S.swift", line: 12, column: 5)))
    }

    // MARK: - Nothing silent

    func testEveryCompletionHandlerFunctionOfEveryFixtureGetsExactlyOneFinding() throws {
        for name in TestSupport.alternativeFixtureNames {
            let input = try TestSupport.fixture(name, "input.swift")
            let fileIndex = index([("\(name)/input.swift", input)])
            let completionFunctions = fileIndex.allCompletionFunctions.filter { !$0.isContext }.map { ($0.swiftName, $0.location.line) }
            // With --to async, promise-returning functions are candidates for an alternative too.
            let promiseFunctions = fileIndex.promiseFunctionsByBaseName.values.joined().map { ($0.swiftName, $0.location.line) }
            for target in MigrationTarget.allCases {
                let replace = TestSupport.isReplaceFixture(name)
                let known = completionFunctions + (target == .async && !replace ? promiseFunctions : [])
                let options = MigrationOptions(target: target, replace: replace)
                let findings = SourceMigrator.migrate(source: input, fileName: "\(name)/input.swift", options: options).findings
                let candidates = findings.filter(\.isCandidate)
                XCTAssertEqual(candidates.count, known.count, "\(name) --to \(target): \(candidates.map(\.function)) vs \(known.map(\.0))")
                XCTAssertEqual(Set(candidates.map { "\($0.function)@\($0.line)" }),
                               Set(known.map { "\($0.0)@\($0.1)" }), "\(name) --to \(target)")
            }
        }
    }

    func testTheReportsCountsAddUpOverAllFixtures() throws {
        for target in ["promise", "async"] {
            let result = try TestSupport.migrate([TestSupport.fixturesDirectory.path, "--to", target, "--check", "--report", "json"])
            let summary = try jsonSummary(result.standardOutput)
            let candidates = try XCTUnwrap(summary["candidates"])
            XCTAssertGreaterThan(candidates, 100)
            XCTAssertEqual(candidates, summary["added"]! + summary["replaced"]! + summary["alreadyMigrated"]! + summary["skipped"]!, target)
            XCTAssertTrue(result.standardError.contains("\(candidates) candidates: "), result.standardError)
        }
    }

    func testVerboseListsTheFunctionsTheRuleRejectsAndWhy() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let file = directory.appendingPathComponent("Pool.swift")
        try """
        final class Pool {
            func observeChanges(completion: @escaping (Int) -> Void) {}
            func withConnection(_ body: @escaping (Result<Int, Error>) -> Void) {}
        }

        """.write(to: file, atomically: true, encoding: .utf8)
        let quiet = try TestSupport.migrate([file.path, "--to", "async"])
        XCTAssertFalse(quiet.standardError.contains("not a completion handler"), quiet.standardError)
        let verbose = try TestSupport.migrate([file.path, "--to", "async", "--verbose"])
        XCTAssertEqual(verbose.status, 0, verbose.standardError)
        XCTAssertTrue(verbose.standardError.contains("Pool.swift:2:5: not a completion handler `observeChanges(completion:)`: its name says it registers for events"),
                      verbose.standardError)
        XCTAssertTrue(verbose.standardError.contains("Pool.swift:3:5: not a completion handler `withConnection(_:)`: its closure `body` runs with something"),
                      verbose.standardError)
        XCTAssertTrue(verbose.standardError.contains("0 candidates: "), verbose.standardError)
        XCTAssertTrue(verbose.standardError.contains("2 not taken for completions"), verbose.standardError)
    }

    private func jsonSummary(_ output: String) throws -> [String: Int] {
        let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        let summary = try XCTUnwrap(object?["summary"] as? [String: Any])
        return summary.compactMapValues { $0 as? Int }
    }
}
