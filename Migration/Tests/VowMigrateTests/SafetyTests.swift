import SwiftParser
import VowMigrate
import VowMigrateDriver
import XCTest

/// The promises the tool makes about the files it touches, each shown on an example.
final class SafetyTests: XCTestCase {
    func testAFileThatDoesNotParseIsReportedWithItsLocationAndLeftAlone() {
        let source = "import Foundation\n\nfunc load(completion: @escaping (Error?) -> Void) {\n    let x = (1, \n}\n"
        let result = SourceMigrator.migrate(source: source, fileName: "Broken.swift", options: .init(target: .promise))
        XCTAssertFalse(result.changed)
        XCTAssertEqual(result.output, source)
        let finding = try? XCTUnwrap(result.findings.first)
        XCTAssertEqual(finding?.kind, .parseError)
        XCTAssertEqual(finding?.line, 4)
        XCTAssertGreaterThan(finding?.column ?? 0, 0)
    }

    func testCommentsAndTriviaAroundTheFunctionAreKeptByteForByte() {
        let source = """
        import Foundation

        final class Service: Sendable {
            // MARK: - Loading

            /// Loads.   (two spaces kept)
            func load(completion: @escaping @Sendable (Error?) -> Void) {   // trailing comment
                completion(nil) /* inline */
            }
        }

        """
        let output = SourceMigrator.migrate(source: source, fileName: "S.swift", options: .init(target: .promise)).output
        for line in source.split(separator: "\n") {
            XCTAssertTrue(output.contains(line), "lost: \(line)")
        }
        XCTAssertTrue(output.contains("completion(nil) /* inline */\n    }\n\n    /// Promise-based alternative"), output)
    }

    func testIndentationFollowsTheFile() {
        let twoSpaces = "import Foundation\n\nstruct S {\n  func f(completion: @escaping @Sendable (Error?) -> Void) {\n    completion(nil)\n  }\n}\n"
        let output = SourceMigrator.migrate(source: twoSpaces, fileName: "S.swift", options: .init(target: .async)).output
        XCTAssertTrue(output.contains("\n  nonisolated(nonsending) func f() async throws {\n    try await withCheckedThrowingContinuation"), output)
        let tabs = twoSpaces.replacingOccurrences(of: "    ", with: "\t\t").replacingOccurrences(of: "  ", with: "\t")
        let tabbed = SourceMigrator.migrate(source: tabs, fileName: "S.swift", options: .init(target: .async)).output
        XCTAssertTrue(tabbed.contains("\n\tnonisolated(nonsending) func f() async throws {\n\t\ttry await"), tabbed)
    }

    func testImportVowIsAddedOnceAfterTheLastImport() {
        let source = "import Foundation\nimport Dispatch\n\nfunc f(completion: @escaping @Sendable (Int) -> Void) {\n    completion(1)\n}\n\nfunc g(completion: @escaping @Sendable (Int) -> Void) {\n    completion(2)\n}\n"
        let output = SourceMigrator.migrate(source: source, fileName: "S.swift", options: .init(target: .promise)).output
        XCTAssertTrue(output.hasPrefix("import Foundation\nimport Dispatch\nimport Vow\n\n"), output)
        XCTAssertEqual(output.components(separatedBy: "import Vow").count, 2)
    }

    func testAsyncOutputNeedsNoVowWhenNoErrorConventionRequiresIt() {
        let source = "func f(completion: @escaping @Sendable (Result<Int, Error>) -> Void) {\n    completion(.success(1))\n}\n"
        let output = SourceMigrator.migrate(source: source, fileName: "S.swift", options: .init(target: .async)).output
        XCTAssertFalse(output.contains("import Vow"))
        XCTAssertTrue(output.contains("func f() async throws -> Int"))
    }

    func testBareResultIsQualifiedOnceVowIsImported() {
        let source = "import Foundation\n\nfunc f(completion: @escaping @Sendable (Result<Int, Error>) -> Void) {\n    completion(Result { 1 })\n}\n"
        let output = SourceMigrator.migrate(source: source, fileName: "S.swift", options: .init(target: .promise)).output
        XCTAssertTrue(output.contains("(Swift.Result<Int, Error>) -> Void"))
        XCTAssertTrue(output.contains("completion(Swift.Result { 1 })"))
        XCTAssertFalse(Parser.parse(source: output).hasError)
    }

    func testAnAlternativeThatWouldClashWithAnExistingFunctionIsSkipped() {
        let source = "func load() -> Int { 1 }\n\nfunc load(completion: @escaping @Sendable (Int) -> Void) {\n    completion(1)\n}\n"
        let result = SourceMigrator.migrate(source: source, fileName: "S.swift", options: .init(target: .promise))
        XCTAssertFalse(result.changed)
        XCTAssertEqual(result.findings.first?.kind, .skipped)
        XCTAssertEqual(result.findings.first?.line, 3)
    }

    func testAtomicWriteReplacesTheFileWholeAndKeepsItsPermissions() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let file = directory.appendingPathComponent("A.swift").path
        try "old".write(toFile: file, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file)
        try AtomicFile.write("new contents", to: file)
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "new contents")
        let permissions = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        XCTAssertEqual(permissions, 0o640)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["A.swift"])
    }

    func testAWriteThatFailsBeforeTheRenameLeavesTheOriginalAndNoTemporaryFile() throws {
        struct Interrupted: Error {}
        let directory = try TestSupport.temporaryDirectory(self)
        let file = directory.appendingPathComponent("A.swift").path
        try "original".write(toFile: file, atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try AtomicFile.write("half", to: file, beforeRename: { throw Interrupted() }))
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "original")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["A.swift"])
    }

    func testUnifiedDiffHasHunkHeadersAndContext() {
        let old = (1...10).map { "line \($0)" }.joined(separator: "\n") + "\n"
        let new = old.replacingOccurrences(of: "line 5\n", with: "line 5\ninserted\n")
        let diff = UnifiedDiff.make(old: old, new: new, oldName: "a/x", newName: "b/x")
        XCTAssertEqual(diff, "--- a/x\n+++ b/x\n@@ -3,6 +3,7 @@\n line 3\n line 4\n line 5\n+inserted\n line 6\n line 7\n line 8\n")
    }
}

extension SafetyTests {
    func testWindowsLineEndingsAreKeptInGeneratedCode() {
        let source = "import Foundation\r\n\r\nfunc f(completion: @escaping @Sendable (Error?) -> Void) {\r\n    completion(nil)\r\n}\r\n"
        let output = SourceMigrator.migrate(source: source, fileName: "S.swift", options: .init(target: .promise)).output
        XCTAssertNotEqual(output, source)
        XCTAssertFalse(output.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "a bare \\n slipped in")
        XCTAssertFalse(output.contains("\r\r"))
    }

    func testAFileDeclaringItsOwnResultKeepsItsSpelling() {
        let source = "enum Result<Value> { case ok(Value) }\n\nfunc f(completion: @escaping @Sendable (Result<Int>?, Error?) -> Void) {}\n"
        let output = SourceMigrator.migrate(source: source, fileName: "S.swift", options: .init(target: .promise)).output
        XCTAssertFalse(output.contains("Swift.Result"), output)
    }
}

extension SafetyTests {
    func testAHandlerTypealiasFromAnotherFileIsReported() {
        let source = "func load(completion: @escaping LoadCompletion) {}\n"
        let result = SourceMigrator.migrate(source: source, fileName: "S.swift", options: .init(target: .async))
        XCTAssertFalse(result.changed)
        XCTAssertEqual(result.findings.map(\.kind), [.skipped])
        XCTAssertTrue(result.findings[0].message.contains("`LoadCompletion` is not declared in any file of the run"), result.findings[0].message)
        XCTAssertTrue(result.findings[0].message.contains("--context"), result.findings[0].message)
    }

    /// Notificare's `fetch(group:_:)` reports a failed precondition from a `do`/`catch`: --replace
    /// leaves it, and says which statement stopped it.
    func testReplaceNamesTheStatementItCannotRewrite() {
        let source = """
            final class Assets: Sendable {
                func check() throws {}
                func fetch(group: String, _ completion: @escaping @Sendable (Result<[String], Error>) -> Void) {
                    do {
                        try check()
                    } catch {
                        completion(.failure(error))
                        return
                    }
                    completion(.success([group]))
                }
            }

            """
        let result = SourceMigrator.migrate(source: source, fileName: "S.swift", options: .init(target: .async, replace: true))
        XCTAssertFalse(result.changed)
        XCTAssertEqual(result.findings.map(\.kind), [.skipped])
        XCTAssertEqual(result.findings.first?.message,
                       "it uses the handler inside a `do`/`catch` statement, which --replace does not rewrite; convert this function by hand, "
                       + "or add an alternative beside it (without --replace) (line 4)")
    }

    /// Parse-Swift's `runFunctionCommand()` + newline + `.executeAsync(...) { result in completion(result) }`:
    /// the reason names the call on one line, as every finding is one line.
    func testReplaceNamesAChainedCallOnOneLine() {
        let source = """
            final class Cloud: Sendable {
                func command() -> Command { Command() }
                func run(completion: @escaping @Sendable (Result<Int, Error>) -> Void) {
                    command()
                        .execute { result in
                            completion(result)
                        }
                }
            }

            """
        let result = SourceMigrator.migrate(source: source, fileName: "S.swift", options: .init(target: .async, replace: true))
        XCTAssertEqual(result.findings.map(\.kind), [.skipped])
        XCTAssertEqual(result.findings.first?.message,
                       "it calls the handler from a closure passed to `command().execute`, which has no async alternative (line 4)")
    }

    /// Moya's `sendRequest(...) -> CancellableToken` with `CancellableToken` in a file the run did
    /// not read: the skip says how to let the tool see its `cancel()`.
    func testAHandleTypeDeclaredInNoFileOfTheRunPointsAtContext() {
        let source = """
            final class Client {
                func send(completion: @escaping @Sendable (Error?) -> Void) -> CancellableToken { fatalError() }
                func count(completion: @escaping @Sendable (Error?) -> Void) -> Int { 0 }
                func local(completion: @escaping @Sendable (Error?) -> Void) -> Local { Local() }
            }
            struct Local {}

            """
        let result = SourceMigrator.migrate(source: source, fileName: "S.swift", options: .init(target: .async))
        XCTAssertEqual(result.findings.map(\.kind), [.skipped, .skipped, .skipped])
        XCTAssertEqual(result.findings.map { $0.message.contains("--context") }, [true, false, false],
                       result.findings.map(\.message).joined(separator: "\n"))
        XCTAssertTrue(result.findings[0].message.contains("`CancellableToken` is declared in no file of the run"), result.findings[0].message)
    }

    /// Moya's `convertResponseToResult(_ response: HTTPURLResponse?, request:data:error:)` takes
    /// no closure: an optional value named `response` or `result` is a value, not a handler whose
    /// typealias is missing. An optional alias named like a handler is still reported.
    func testAnOptionalValueNamedResponseIsNotAMissingHandlerAlias() {
        let source = """
            func convert(_ response: HTTPURLResponse?, request: URLRequest?, data: Data?, error: Error?) -> Int { 0 }
            func store(result: StoreResult?, then: Int) {}
            func load(completion: LoadCompletion?) {}
            func fetch(_ id: Int, resultHandler: ResultHandler?) {}

            """
        let result = SourceMigrator.migrate(source: source, fileName: "S.swift", options: .init(target: .async))
        XCTAssertFalse(result.changed)
        XCTAssertEqual(result.findings.map(\.function), ["load(completion:)", "fetch(_:resultHandler:)"])
        XCTAssertEqual(result.findings.map(\.kind), [.skipped, .skipped])
    }
}

extension SafetyTests {
    func testAShebangLineStaysFirst() {
        let source = "#!/usr/bin/env swift\nfunc f(completion: @escaping @Sendable (Error?) -> Void) { completion(nil) }\n"
        let result = SourceMigrator.migrate(source: source, fileName: "script.swift", options: .init(target: .promise))
        XCTAssertTrue(result.changed)
        XCTAssertTrue(result.output.hasPrefix("#!/usr/bin/env swift\n\nimport Vow\n"), result.output)
    }
}

extension SafetyTests {
    func testCallsLeavingADefaultedHandlerOutAreSpelledOutSoTheyKeepCallingTheOriginal() {
        let source = "final class S {\n    func f(completion: ((Error?) -> Void)? = nil) { completion?(nil) }\n    func g() { f() }\n}\n"
        for target in MigrationTarget.allCases {
            let result = SourceMigrator.migrate(source: source, fileName: "S.swift", options: .init(target: target))
            XCTAssertEqual(result.findings.map(\.kind), [.added], "\(target)")
            XCTAssertTrue(result.output.contains("    func g() { f(completion: nil) }\n"), result.output)
            XCTAssertTrue(result.findings[0].message.hasSuffix("; 1 existing call leaving the handler out spelled out so it keeps calling the original"),
                          result.findings[0].message)
            // The alternative is no longer marked discardable: no existing call is meant to reach it.
            XCTAssertFalse(result.output.contains("@discardableResult"), result.output)
            let again = SourceMigrator.migrate(source: result.output, fileName: "S.swift", options: .init(target: target))
            XCTAssertFalse(again.changed, again.output)
        }
    }
}

extension SafetyTests {
    /// Applies a unified diff the way `patch` does, for checking the diffs the tool prints.
    private func apply(_ diff: String, to old: String) -> String {
        var oldLines = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if oldLines.last == "" { oldLines.removeLast() }
        var result: [String] = []
        var position = 0
        for line in diff.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2) where !line.isEmpty {
            if line.hasPrefix("@@") {
                let start = Int(line.dropFirst(4).prefix { $0.isNumber })!
                let count = Int(line.split(separator: " ")[1].split(separator: ",")[1])!
                let first = count == 0 ? start : start - 1
                result += oldLines[position..<first]
                position = first
            } else if line.hasPrefix("+") {
                result.append(String(line.dropFirst()))
            } else {
                position += 1
                if line.hasPrefix(" ") { result.append(String(line.dropFirst())) }
            }
        }
        result += oldLines[position...]
        return result.joined(separator: "\n") + "\n"
    }

    func testDiffsApplyBackToTheOutputForSmallAndVeryLargeChanges() {
        for count in [3, 3_000] {
            let old = (0..<count).map { "func f\($0)() {}" }.joined(separator: "\n") + "\n"
            let new = (0..<count).map { $0 % 3 == 0 ? "func f\($0)() {}\n// added \($0)\n// more" : ($0 % 7 == 0 ? "func g\($0)() {}" : "func f\($0)() {}") }
                .joined(separator: "\n") + "\n"
            let diff = UnifiedDiff.make(old: old, new: new, oldName: "a", newName: "b")
            XCTAssertEqual(apply(diff, to: old), new, "\(count) lines")
        }
    }
}

extension SafetyTests {
    func testEventRegistrationsAndScopedBodiesAreNotCompletions() {
        let source = """
        final class Pool {
            func onConnectionDidOpen(_ callback: @escaping () -> Void) {}
            func observeChanges(completion: @escaping (Int) -> Void) {}
            func asyncRead(_ value: @escaping (Result<Int, Error>) -> Void) {}
        }

        """
        let result = SourceMigrator.migrate(source: source, fileName: "Pool.swift", options: .init(target: .async))
        XCTAssertFalse(result.changed)
        // Not candidates; listed with --verbose, each with its reason.
        XCTAssertEqual(result.findings.map(\.kind), [.rejected, .rejected, .rejected])
        XCTAssertEqual(result.findings.map(\.function), ["onConnectionDidOpen(_:)", "observeChanges(completion:)", "asyncRead(_:)"])
        XCTAssertTrue(result.findings[0].message.contains("registers for events"), result.findings[0].message)
        XCTAssertTrue(result.findings[2].message.contains("`value`"), result.findings[2].message)
    }

    /// A `block` answering `(value, error)` after the work is the completion Objective-C era
    /// APIs (and PromiseKit's own tests) write; the GRDB-style body above stays none.
    func testABlockAnsweringAnOptionalErrorIsACompletion() {
        let source = """
        import Dispatch

        final class Fetcher: Sendable {
            func fetchWithCompletionBlock(block: @escaping @Sendable (Int?, Error?) -> Void) {
                DispatchQueue.main.async { block(1, nil) }
            }
        }

        """
        let result = SourceMigrator.migrate(source: source, fileName: "Fetcher.swift", options: .init(target: .async))
        XCTAssertEqual(result.findings.map(\.kind), [.added])
        XCTAssertTrue(result.output.contains("func fetchWithCompletionBlock() async throws -> Int {"), result.output)
    }

    /// A file declaring a type named `Error` of its own (PromiseKit's tests: `private enum Error:
    /// Swift.Error`): the async alternatives and their support name the protocol `Swift.Error`.
    func testAnErrorTypeOfTheTreesOwnIsNotTakenForTheProtocol() throws {
        let source = """
        import Dispatch

        final class Fetcher: Sendable {
            func save(block: @escaping @Sendable (Swift.Error?) -> Void) {
                DispatchQueue.main.async { block(nil) }
            }

            func load(completion: @escaping @Sendable (Int?, Swift.Error?) -> Void) {
                DispatchQueue.main.async { completion(nil, nil) }
            }
        }

        private enum Error: Swift.Error {
            case dummy
        }

        """
        let result = SourceMigrator.migrate(source: source, fileName: "Fetcher.swift", options: .init(target: .async))
        XCTAssertEqual(result.findings.map(\.kind), [.added, .added])
        XCTAssertTrue(result.output.contains("CheckedContinuation<Void, any Swift.Error>"), result.output)
        XCTAssertTrue(result.output.contains("fileprivate struct NeitherValueNorError: Swift.Error {"), result.output)
        XCTAssertNil(try TestSupport.typecheck(result.output, as: "Fetcher.swift", self))
    }

    /// What the tool writes at the top of a file goes below all of its imports, those in a `#if`
    /// too (`#if canImport(FoundationNetworking)`, as every Linux-ready networking file has).
    func testDeclarationsAtTheTopGoBelowImportsInsideIfBlocks() {
        let source = """
        import Foundation
        #if canImport(FoundationNetworking)
        import FoundationNetworking
        #endif

        final class Client: Sendable {
            func load(completion: @escaping @Sendable (Data?, Error?) -> Void) {
                DispatchQueue.main.async { completion(nil, nil) }
            }
        }

        """
        let async = SourceMigrator.migrate(source: source, fileName: "Client.swift", options: .init(target: .async))
        XCTAssertTrue(async.output.hasPrefix("""
            import Foundation
            #if canImport(FoundationNetworking)
            import FoundationNetworking
            #endif

            /// Thrown by an async alternative
            """), async.output)
        let promise = SourceMigrator.migrate(source: source, fileName: "Client.swift", options: .init(target: .promise))
        XCTAssertTrue(promise.output.hasPrefix("import Foundation\n#if canImport(FoundationNetworking)\nimport FoundationNetworking\n#endif\nimport Vow\n"),
                      promise.output)
    }
}
