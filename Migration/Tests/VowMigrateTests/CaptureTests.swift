import Foundation
import XCTest

/// An added alternative never changes which function an existing call reaches: calls that leave
/// a defaulted handler out are spelled out in every file of the tree, and an alternative that
/// would capture a call that cannot be spelled out is not added. Each tree is migrated, then
/// typechecked as one module with every generated alternative marked deprecated, so any existing
/// call reaching one shows as a warning.
final class CaptureTests: XCTestCase {
    private let store = """
        import Foundation

        struct Item: Sendable { let id: Int }

        class Store: @unchecked Sendable {
            func save(_ item: Item, completion: (@Sendable (Error?) -> Void)? = nil) {
                completion?(nil)
            }

            func refresh(completion: @escaping @Sendable (Error?) -> Void) {
                completion(nil)
            }
        }

        """

    private let callers = """
        final class CachingStore: Store, @unchecked Sendable {
            func warm() {
                save(Item(id: 0))
                super.save(Item(id: 1))
            }
        }

        final class Screen {
            let store = Store()

            func tap() {
                store.save(Item(id: 2))
                store.save(Item(id: 3)) { _ in }
                store.refresh { _ in }
            }
        }

        typealias Storage = Store

        // A generic parameter says nothing of its own: the call may reach `Store.save`.
        func flushEach<S: Store>(_ stores: S) {
            stores.save(Item(id: 8))
        }

        func flushAll(into storage: Storage) {
            storage.save(Item(id: 7))
        }

        // An unrelated type whose own `save(_:)` an implicit call reaches: not spelled out.
        struct Draft {
            func save(_ item: Item) {}
            func keep() { save(Item(id: 4)) }
        }

        """

    private func tree(_ files: [String: String]) throws -> URL {
        let directory = try TestSupport.temporaryDirectory(self)
        for (name, text) in files {
            let url = directory.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return directory
    }

    private func typecheckMarked(_ directory: URL, _ names: [String]) throws {
        var files: [URL] = []
        for name in names {
            let url = directory.appendingPathComponent(name)
            let marked = directory.appendingPathComponent("marked-" + name.replacingOccurrences(of: "/", with: "-"))
            try TypecheckTests.markingAlternativesDeprecated(String(contentsOf: url, encoding: .utf8))
                .write(to: marked, atomically: true, encoding: .utf8)
            files.append(marked)
        }
        if let diagnostics = try TestSupport.typecheckTogether(files) {
            XCTFail("the migrated tree does not typecheck cleanly, or a call reaches an alternative:\n\(diagnostics)")
        }
    }

    func testCallsInOtherFilesAndSubclassesLeavingTheHandlerOutAreSpelledOutInBothForms() throws {
        for target in ["promise", "async"] {
            let directory = try tree(["Sources/Store.swift": store, "Sources/Callers.swift": callers])
            let result = try TestSupport.migrate([directory.appendingPathComponent("Sources").path, "--to", target, "--in-place"])
            XCTAssertEqual(result.status, 0, result.standardError)
            let output = try String(contentsOf: directory.appendingPathComponent("Sources/Callers.swift"), encoding: .utf8)
            XCTAssertTrue(output.contains("        save(Item(id: 0), completion: nil)\n"), output)
            XCTAssertTrue(output.contains("        super.save(Item(id: 1), completion: nil)\n"), output)
            XCTAssertTrue(output.contains("        store.save(Item(id: 2), completion: nil)\n"), output)
            XCTAssertTrue(output.contains("        store.save(Item(id: 3)) { _ in }\n"), output)
            XCTAssertTrue(output.contains("    func keep() { save(Item(id: 4)) }\n"), output)
            XCTAssertTrue(output.contains("    storage.save(Item(id: 7), completion: nil)\n"), output)
            XCTAssertTrue(output.contains("    stores.save(Item(id: 8), completion: nil)\n"), output)
            XCTAssertTrue(result.standardError.contains("2 candidates: 2 alternatives added"), result.standardError)
            try typecheckMarked(directory, ["Sources/Store.swift", "Sources/Callers.swift"])
            // A second run changes nothing.
            let again = try TestSupport.migrate([directory.appendingPathComponent("Sources").path, "--to", target, "--check"])
            XCTAssertEqual(again.status, 0, again.standardError)
        }
    }

    func testACallLeavingTheHandlerOutInAContextFileKeepsTheAlternativeOut() throws {
        let directory = try tree(["Sources/Store.swift": store, "Vendor/Callers.swift": callers])
        let result = try TestSupport.migrate([directory.appendingPathComponent("Sources").path, "--context",
                                              directory.appendingPathComponent("Vendor").path, "--to", "promise", "--report", "json"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(result.standardOutput.contains("leaves the handler out, and is in a --context file, which is never rewritten"),
                      result.standardOutput)
        XCTAssertTrue(result.standardOutput.contains("\"added\":1"), result.standardOutput)
    }

    func testACallOnAReceiverThatMayBeAnotherTypeWithoutTheHandlerIsNotGuessed() throws {
        let other = """
            final class Archive {
                func save(_ item: Item) {}
            }

            func flush(_ archives: [Archive]) {
                archives.first?.save(Item(id: 5))
            }

            // Its type shows, so this call reaches `Archive.save(_:)` alone.
            func flush(_ archive: Archive) {
                archive.save(Item(id: 6))
            }

            """
        let directory = try tree(["Sources/Store.swift": store, "Sources/Archive.swift": other])
        let result = try TestSupport.migrate([directory.appendingPathComponent("Sources").path, "--to", "async"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(result.standardError.contains("skipped `save(_:completion:)`: the existing call `save(_:)` at "), result.standardError)
        XCTAssertTrue(result.standardError.contains("may call `save(_:)`"), result.standardError)
    }

    func testACallThatMayBeOfASameTypeOverloadWithoutTheHandlerIsNotSpelledOut() throws {
        // `save(batch)` may be `save(_:atomically:)`: `completion: nil` there would not compile.
        let source = """
            struct Item: Sendable { let id: Int }

            final class Store {
                func save(_ item: Item, completion: (@Sendable (Error?) -> Void)? = nil) { completion?(nil) }
                func save(_ items: [Item], atomically: Bool = true) {}
                func flush(_ batch: [Item]) { save(batch) }
            }

            """
        let directory = try tree(["Store.swift": source])
        let result = try TestSupport.migrate([directory.appendingPathComponent("Store.swift").path, "--to", "promise"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(result.standardError.contains("leaves the handler out and may call `save(_:atomically:)`"), result.standardError)
    }

    func testAnOverloadThatAlreadyTakesTheCallKeepsItsCalls() throws {
        let source = """
            final class Feed {
                func reload(animated: Bool = false) {}
                func reload(completion: @escaping @Sendable (Error?) -> Void) { completion(nil) }
                func pull() { reload() }
            }

            """
        let directory = try tree(["Feed.swift": source])
        for target in ["promise", "async"] {
            let result = try TestSupport.migrate([directory.appendingPathComponent("Feed.swift").path, "--to", target])
            XCTAssertEqual(result.status, 0, result.standardError)
            XCTAssertTrue(result.standardError.contains("the existing call `reload()` at "), result.standardError)
            XCTAssertTrue(result.standardError.contains("would resolve to the alternative"), result.standardError)
        }
    }
}
