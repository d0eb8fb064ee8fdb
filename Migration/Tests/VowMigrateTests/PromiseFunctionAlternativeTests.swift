import Foundation
import VowMigrate
import XCTest

/// Async alternatives of promise-returning functions (README, "Async alternatives of
/// promise-returning functions"): the migrated program behaves as before, each existing call in
/// async code keeps its callee, and the alternative gives what the promise gave.
final class PromiseFunctionAlternativeTests: XCTestCase {
    /// A store of promises as a PromiseKit app has them, and async code that already uses them in
    /// every way the capture check reads.
    private static let store = #"""
        import Dispatch
        import Vow

        struct Item: Sendable, Equatable {
            var name: String
            var value: Int
        }

        enum StoreError: Error {
            case missing(Int)
        }

        final class Store: @unchecked Sendable {
            let queue = DispatchQueue(label: "store")

            func item(_ id: Int) -> Promise<Item> {
                Promise { seal in
                    queue.async {
                        id > 0 ? seal.fulfill(Item(name: "item \(id)", value: id * 10)) : seal.reject(StoreError.missing(id))
                    }
                }
            }

            func names() -> Guarantee<[String]> {
                Guarantee { seal in queue.async { seal(["a", "b"]) } }
            }

            func passing(_ promise: Promise<Item>) -> Promise<Item> {
                promise
            }

            @discardableResult
            func save(_ item: Item) -> Promise<Void> {
                item.value >= 0 ? Promise.value(()) : Promise(error: StoreError.missing(item.value))
            }
        }

        func useInAsyncCode(_ store: Store) async {
            let pending = store.item(1)
            print("pending is a promise:", type(of: pending))
            do {
                let item = try await store.item(2).value
                print("value:", item.name, item.value)
                let both = try await when(fulfilled: store.item(3), store.item(4)).value
                print("when:", both.0.name, both.1.name)
                let typed: Promise<Item> = store.item(5)
                print("typed:", try await typed.value.value)
                print("names:", await store.names().value)
                _ = store.save(item)
                _ = try await store.item(-1).value
            } catch {
                print("caught:", error)
            }
            await withCheckedContinuation { continuation in
                store.item(6).done { print("done:", $0.name) }.ensure { continuation.resume() }.cauterize()
            }
        }

        func startTask(_ store: Store) -> Task<Void, Never> {
            Task {
                let saved = store.save(Item(name: "x", value: 1))
                print("task holds:", type(of: saved))
            }
        }
        """#

    private static let driver = #"""
        let store = Store()
        await useInAsyncCode(store)
        await startTask(store).value
        """#

    /// What only the migrated program can run: the alternatives themselves (in a function: in
    /// top-level code Swift picks the synchronous overload).
    private static let alternativesDriver = #"""
        import Vow

        func alternatives(_ store: Store) async throws {
            print("alternative:", try await store.item(7).name)
            do {
                _ = try await store.item(-2)
            } catch {
                print("alternative threw:", error)
            }
            print("guarantee alternative:", await store.names())
            try await store.save(Item(name: "y", value: 2))
            // A cancelled task stops waiting; the promise goes on for its other observers.
            let shared = Promise<Item>.pending()
            let waiting = Task { try await store.passing(shared.promise) }
            waiting.cancel()
            do {
                _ = try await waiting.value
            } catch {
                print("cancelled:", error is CancellationError)
            }
            shared.resolver.fulfill(Item(name: "late", value: 0))
            print("shared still fulfils:", try await shared.promise.value.name)
        }

        let store = Store()
        await useInAsyncCode(store)
        await startTask(store).value
        try await alternatives(store)
        """#

    func testMigratedProgramsBehaveAsTheOriginalAndTheAlternativesAnswerAsThePromises() throws {
        let root = try TestSupport.temporaryDirectory(self)
        let original = root.appendingPathComponent("original")
        try FileManager.default.createDirectory(at: original, withIntermediateDirectories: true)
        try Self.store.write(to: original.appendingPathComponent("Store.swift"), atomically: true, encoding: .utf8)
        let main = root.appendingPathComponent("main.swift")
        try Self.driver.write(to: main, atomically: true, encoding: .utf8)
        let expected = try ProgramBuilding.buildAndRun([original.appendingPathComponent("Store.swift"), main],
                                                       binary: root.appendingPathComponent("original-program"))
        XCTAssertEqual(expected, """
            pending is a promise: Promise<Item>
            value: item 2 20
            when: item 3 item 4
            typed: 50
            names: ["a", "b"]
            caught: missing(-1)
            done: item 6
            task holds: Promise<()>

            """)

        for stage in ["declarations", "all"] {
            let copy = root.appendingPathComponent("migrated-\(stage)")
            try FileManager.default.copyItem(at: original, to: copy)
            let result = try TestSupport.migrate([copy.path, "--to", "async", "--stage", stage, "--in-place"])
            XCTAssertEqual(result.status, 0, result.standardError)
            XCTAssertTrue(result.standardError.contains("4 alternatives added"), result.standardError)
            let migrated = try String(contentsOf: copy.appendingPathComponent("Store.swift"), encoding: .utf8)
            // The calls only a promise fits are left as they are; the others keep their callee.
            XCTAssertTrue(migrated.contains("let pending = (store.item(1) as Promise)"), migrated)
            XCTAssertTrue(migrated.contains("let both = try await when(fulfilled: store.item(3), store.item(4)).value"), migrated)
            XCTAssertTrue(migrated.contains("let typed: Promise<Item> = store.item(5)"), migrated)
            XCTAssertTrue(migrated.contains("_ = (store.save(item) as Promise)"), migrated)
            XCTAssertTrue(migrated.contains("let saved = (store.save(Item(name: \"x\", value: 1)) as Promise)"), migrated)
            XCTAssertTrue(migrated.contains("store.item(6).done {"), migrated)
            if stage == "all" {
                // The awaited promises are the alternatives' now: the same value, the same error.
                XCTAssertTrue(migrated.contains("let item = try await store.item(2)\n"), migrated)
                XCTAssertTrue(migrated.contains("print(\"names:\", await store.names())"), migrated)
                XCTAssertTrue(migrated.contains("_ = try await store.item(-1)\n"), migrated)
            } else {
                XCTAssertTrue(migrated.contains("let item = try await (store.item(2) as Promise).value"), migrated)
                XCTAssertTrue(migrated.contains("print(\"names:\", await store.names().value)"), migrated)
            }
            let actual = try ProgramBuilding.buildAndRun([copy.appendingPathComponent("Store.swift"), main],
                                                         binary: root.appendingPathComponent("program-\(stage)"))
            XCTAssertEqual(actual, expected, "--stage \(stage)")
            let again = try TestSupport.migrate([copy.path, "--to", "async", "--stage", stage, "--check"])
            XCTAssertEqual(again.status, 0, "a second run would change:\n\(again.standardOutput)")
        }

        let alternatives = root.appendingPathComponent("alternatives.swift")
        try Self.alternativesDriver.write(to: alternatives, atomically: true, encoding: .utf8)
        let direct = root.appendingPathComponent("direct")
        try FileManager.default.createDirectory(at: direct, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: root.appendingPathComponent("migrated-declarations/Store.swift"),
                                         to: direct.appendingPathComponent("Store.swift"))
        try FileManager.default.moveItem(at: alternatives, to: direct.appendingPathComponent("main.swift"))
        let output = try ProgramBuilding.buildAndRun([direct.appendingPathComponent("Store.swift"), direct.appendingPathComponent("main.swift")],
                                                     binary: root.appendingPathComponent("alternatives-program"))
        XCTAssertEqual(output, expected + """
            alternative: item 7
            alternative threw: missing(-2)
            guarantee alternative: ["a", "b"]
            cancelled: true
            shared still fulfils: late

            """)
    }

    /// In a file's top-level code Swift picks the synchronous overload even where an async one
    /// fits (checked with Swift 6.3): there `try await f().value` keeps its `.value`, or `f()`
    /// would be the promise, dropped unawaited.
    func testAwaitedValueInTopLevelCodeKeepsReadingThePromise() {
        let source = """
            import Vow

            final class Store: Sendable {
                func count() -> Promise<Int> { .value(1) }
            }

            func inAFunction(_ store: Store) async throws {
                print(try await store.count().value)
            }

            let store = Store()
            print(try await store.count().value)

            """
        let output = SourceMigrator.migrate(source: source, fileName: "main.swift", options: MigrationOptions(target: .async, stage: .all)).output
        XCTAssertTrue(output.contains("    print(try await store.count())\n"), output)
        XCTAssertTrue(output.contains("\nprint(try await store.count().value)\n"), output)
    }

    func testACallInAsyncCodeOfAContextFileKeepsTheFunctionWithoutAnAlternative() throws {
        let root = try TestSupport.temporaryDirectory(self)
        let sources = root.appendingPathComponent("Sources")
        let context = root.appendingPathComponent("Context")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: context, withIntermediateDirectories: true)
        try """
            import Vow

            final class Feed: Sendable {
                func latest() -> Promise<[String]> { .value([]) }
                func oldest() -> Promise<[String]> { .value([]) }
            }

            """.write(to: sources.appendingPathComponent("Feed.swift"), atomically: true, encoding: .utf8)
        try """
            import Vow

            func refresh(_ feed: Feed) async {
                let promise = feed.latest()
                _ = try? await promise.value
                feed.oldest().done { _ in }.cauterize()
            }

            """.write(to: context.appendingPathComponent("Screen.swift"), atomically: true, encoding: .utf8)
        let result = try TestSupport.migrate([sources.path, "--context", context.path, "--to", "async"])
        XCTAssertTrue(result.standardError.contains(
            "skipped `latest()`: the call `latest()` at \(context.path)/Screen.swift:4:19 is in async code in a --context file"),
                      result.standardError)
        XCTAssertTrue(result.standardOutput.contains("func oldest() async throws -> [String]"), result.standardOutput)
        XCTAssertFalse(result.standardOutput.contains("func latest() async"), result.standardOutput)
    }
}
