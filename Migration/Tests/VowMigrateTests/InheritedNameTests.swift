import Foundation
import VowMigrate
import XCTest

/// Names found as Swift finds them: a typealias, a handle type or a `Sendable` conformance
/// declared in a superclass (or its superclass), in an extension of it, or in a protocol the type
/// conforms to, in any file of the tree or of `--context`.
final class InheritedNameTests: XCTestCase {
    private var tree: URL { TestSupport.fixturesDirectory.appendingPathComponent("tree-inherited-names") }

    private func index(_ files: [(String, String)], context: [(String, String)] = []) -> MigrationIndex {
        MigrationIndex(summaries: files.map { MigrationIndex.summarize(source: $1, fileName: $0) }
                       + context.map { MigrationIndex.summarize(source: $1, fileName: $0, isContext: true) })
    }

    func testTheTreeMigratesEveryFunctionInBothForms() throws {
        for target in ["promise", "async"] {
            let directory = try TestSupport.temporaryDirectory(self)
            let sources = directory.appendingPathComponent("Sources")
            try FileManager.default.copyItem(at: tree.appendingPathComponent("Sources"), to: sources)
            let result = try TestSupport.migrate([sources.path, "--to", target, "--in-place"])
            XCTAssertEqual(result.status, 0, result.standardError)
            XCTAssertTrue(result.standardError.contains("6 candidates: 6 alternatives added, 0 replaced, 0 skipped"), result.standardError)
            for expected in TestSupport.swiftFiles(in: tree.appendingPathComponent(target)) {
                let actual = try String(contentsOf: sources.appendingPathComponent(expected.lastPathComponent), encoding: .utf8)
                let wanted = try String(contentsOf: expected, encoding: .utf8)
                XCTAssertEqual(actual, wanted, "\(target)/\(expected.lastPathComponent):\n"
                               + UnifiedDiff.make(old: wanted, new: actual, oldName: "expected", newName: "actual"))
            }
            let again = try TestSupport.migrate([sources.path, "--to", target, "--check"])
            XCTAssertEqual(again.status, 0, again.standardOutput + again.standardError)
        }
    }

    func testTheTreeTypechecksBeforeAndAfterInBothFormsAsOneModule() throws {
        for folder in ["Sources", "promise", "async"] {
            if let diagnostics = try TestSupport.typecheckTogether(TestSupport.swiftFiles(in: tree.appendingPathComponent(folder))) {
                XCTFail("tree-inherited-names/\(folder) does not typecheck against Vow:\n\(diagnostics)")
            }
        }
    }

    func testASuperclassDeclaredInAContextFileLendsItsTypealias() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let file = directory.appendingPathComponent("OAuth1Swift.swift")
        try FileManager.default.copyItem(at: tree.appendingPathComponent("Sources/OAuth1Swift.swift"), to: file)
        let context = tree.appendingPathComponent("Sources/OAuthSwift.swift").path
        let result = try TestSupport.migrate([file.path, "--context", context, "--to", "promise", "--check"])
        XCTAssertEqual(result.status, 1, result.standardError)
        XCTAssertTrue(result.standardError.contains("2 candidates: 2 alternatives added"), result.standardError)
        let alone = try TestSupport.migrate([file.path, "--to", "promise", "--check"])
        XCTAssertTrue(alone.standardError.contains("its handler type `TokenCompletionHandler` is not declared in any file of the run"), alone.standardError)
    }

    func testATypealiasIsFoundInTheSuperclassChainAndTheProtocolsNearestFirst() {
        let index = index([
            ("Base.swift", "class Base {}\nextension Base { typealias Handler = (Int) -> Void }\nprotocol Store { typealias Saved = (Error?) -> Void }\n"),
            ("Middle.swift", "class Middle: Base {}\nextension Store { typealias Loaded = (String?, Error?) -> Void }\n"),
            ("Leaf.swift", "final class Leaf: Middle, Store { typealias Handler = (String) -> Void }\nfinal class Other: Middle {}\n"),
        ])
        XCTAssertEqual(index.typeAlias(named: "Handler", from: "Other")?.qualifiedName, "Base.Handler")
        XCTAssertEqual(index.typeAlias(named: "Handler", from: "Leaf")?.qualifiedName, "Leaf.Handler")
        XCTAssertEqual(index.typeAlias(named: "Saved", from: "Leaf")?.qualifiedName, "Store.Saved")
        XCTAssertEqual(index.typeAlias(named: "Loaded", from: "Leaf")?.qualifiedName, "Store.Loaded")
        XCTAssertEqual(index.typeAlias(named: "Handler", qualifier: "Other")?.qualifiedName, "Base.Handler")
        XCTAssertNil(index.typeAlias(named: "Saved", from: "Other"))
        XCTAssertNil(index.typeAlias(named: "Handler"))
    }

    func testSendableReachesSubclassesOfAnIsolatedClassAndAcrossExtensions() {
        let index = index([
            ("Models.swift", "@MainActor open class Credential {}\nopen class OAuthCredential: Credential {}\nfinal class Refreshed: OAuthCredential {}\npublic struct Profile {}\npublic class Page {}\n"),
            ("Conformances.swift", "extension Profile: @unchecked Sendable {}\n"),
        ])
        XCTAssertTrue(index.isSendable("Refreshed"))
        XCTAssertTrue(index.isSendable("Profile"))
        XCTAssertNil(index.notSendableType(in: "Refreshed"))
        XCTAssertNil(index.notSendableType(in: "Profile"))
        XCTAssertEqual(index.notSendableType(in: "Page")?.kind, "a class")
    }

    func testAHandleNamedByATypealiasOfASuperclassIsCancellable() {
        let index = index([
            ("Base.swift", "protocol RequestHandle { func cancel() }\nclass Client {}\nextension Client { typealias Handle = RequestHandle }\n"),
            ("Sub.swift", "final class SubClient: Client {\n    func fetch(completion: @escaping (Result<Int, Error>) -> Void) -> Handle? {\n        completion(.success(1))\n        return nil\n    }\n}\n"),
        ])
        let fetch = index.completionFunctions(baseName: "fetch").first
        XCTAssertEqual(fetch?.cancellableHandle, "Handle")
        XCTAssertEqual(fetch?.alternative(for: .promise), .generated(swiftName: "fetch(cancellation:)"))
    }
}
