import Foundation
import SwiftParser
import SwiftSyntax
@testable import VowMigrate
import XCTest

/// Issue 18, `--replace --to async` where one name answers more than one way: a function written
/// once in each clause of an `#if` changes in every clause; overloads by return type change
/// together where every call spells the type it wants, and a chain on one of them spells the type
/// its first handler took (the hoisted promise's, or the value's in a function made async);
/// overloads with a call that does not spell it stay promise functions.
final class ReplaceOverloadTests: XCTestCase {
    private static let client = #"""
        import Dispatch
        import Vow

        enum FetchError: Error {
            case missing(String)
        }

        final class Store: @unchecked Sendable {
            var plan: [String: String] = [:]
            private let queue = DispatchQueue(label: "client")

            func load(_ key: String) -> Promise<String> {
                let plan = self.plan
                return Promise { seal in
                    queue.async {
                        if let value = plan[key] { seal.fulfill(value) } else { seal.reject(FetchError.missing(key)) }
                    }
                }
            }

            func load(_ key: String) -> Promise<[String]> {
                let plan = self.plan
                return Promise { seal in
                    queue.async {
                        if let value = plan[key] {
                            seal.fulfill(value.split(separator: ",").map(String.init))
                        } else {
                            seal.reject(FetchError.missing(key))
                        }
                    }
                }
            }

            func size(_ key: String) -> Promise<Int> {
                let plan = self.plan
                return Promise { seal in
                    queue.async {
                        if let value = plan[key] { seal.fulfill(value.split(separator: ",").count) } else { seal.reject(FetchError.missing(key)) }
                    }
                }
            }

            func size(_ key: String) -> Promise<String> {
                size(key).map { (count: Int) in "\(count) items" }
            }

            #if DEBUG
            func label() -> Guarantee<String> {
                Guarantee.value("debug")
            }
            #else
            func label() -> Guarantee<String> {
                Guarantee.value("release")
            }
            #endif
        }
        """#

    private static let screen = #"""
        import Vow

        nonisolated(unsafe) var finished: () -> Void = {}

        final class Screen: @unchecked Sendable {
            let client: Store

            init(client: Store) {
                self.client = client
            }

            func showName() {
                client.load("name").done { (name: String) in
                    print("name \(name)")
                    finished()
                }.catch { error in
                    print("failed \(error)")
                    finished()
                }
            }

            func showTags() {
                client.load("tags").done { (tags: [String]) in
                    print("tags \(tags.count): \(tags.joined(separator: "+"))")
                    finished()
                }.catch { error in
                    print("failed \(error)")
                    finished()
                }
            }

            func tagCount() -> Promise<Int> {
                client.load("tags").map { (tags: [String]) in
                    tags.count
                }
            }

            func showCount() {
                tagCount().done { count in
                    print("count \(count)")
                    finished()
                }.catch { error in
                    print("failed \(error)")
                    finished()
                }
            }

            func showSize() {
                report(client.size("tags"))
            }

            private func report(_ size: Promise<Int>) {
                size.done { count in
                    print("size \(count)")
                    finished()
                }.catch { error in
                    print("failed \(error)")
                    finished()
                }
            }

            func showLabel() {
                client.label().done { label in
                    print("label \(label)")
                    finished()
                }
            }
        }
        """#

    private static let main = #"""
        import Dispatch
        import Foundation

        let steps: [(String, [String: String], @Sendable (Screen) -> Void)] = [
            ("name", ["name": "ada"], { $0.showName() }),
            ("no name", [:], { $0.showName() }),
            ("tags", ["tags": "a,b,c"], { $0.showTags() }),
            ("count", ["tags": "a,b"], { $0.showCount() }),
            ("label", [:], { $0.showLabel() }),
            ("size", ["tags": "a,b,c"], { $0.showSize() }),
        ]

        """# + ProgramBuilding.stepRunner(makeScreen: "Screen(client: store)")

    func testEachClausesFunctionAndSpelledOverloadsByReturnTypeChangeAndTheProgramPrintsTheSame() throws {
        let directory = try TestSupport.temporaryDirectory(self)
        let expected = try ProgramBuilding.buildAndRun([("Client.swift", Self.client), ("Screen.swift", Self.screen), ("main.swift", Self.main)],
                                                       as: "original", in: directory)
        XCTAssertEqual(expected, """
            == name
            name ada
            == no name
            failed missing("name")
            == tags
            tags 3: a+b+c
            == count
            count 2
            == label
            label release
            == size
            size 3

            """)
        let root = directory.appendingPathComponent("tree")
        try TestSupport.writeTree([("Client.swift", Self.client), ("Screen.swift", Self.screen)], at: root)
        let result = try TestSupport.migrate([root.path, "--to", "async", "--stage", "all", "--replace", "--in-place"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(result.standardError.contains("""
            Client.swift:34:10: call site left alone in `size(_:)`: an overload by the type it answers, and a call of it does not \
            spell that type, which the awaited call would need (`let p: Promise<User> = ...`, `.done { (user: User) in }`)
            """), result.standardError)
        let client = try String(contentsOf: root.appendingPathComponent("Client.swift"), encoding: .utf8)
        let screen = try String(contentsOf: root.appendingPathComponent("Screen.swift"), encoding: .utf8)
        XCTAssertEqual(client.components(separatedBy: "@MainActor func label() async -> String {").count, 3, client)
        XCTAssertEqual(client.components(separatedBy: "@MainActor func load(_ key: String) async throws -> ").count, 3, client)
        XCTAssertEqual(client.components(separatedBy: "func size(_ key: String) -> Promise<").count, 3, client)
        for line in [
            "let namePromise: Promise<String> = Promise.immediate { @MainActor @Sendable [self] in try await client.load(\"name\") }\n",
            "let tagsPromise: Promise<[String]> = Promise.immediate { @MainActor @Sendable [self] in try await client.load(\"tags\") }\n",
            "    @MainActor func tagCount() async throws -> Int {\n        let tags: [String] = try await client.load(\"tags\")\n",
            "report(client.size(\"tags\"))",
        ] {
            XCTAssertTrue(screen.contains(line), line + "\n" + screen)
        }
        let output = try ProgramBuilding.buildAndRun([("Client.swift", client), ("Screen.swift", screen), ("main.swift", Self.main)],
                                                     as: "migrated", in: directory)
        XCTAssertEqual(output, expected)
        let again = try TestSupport.migrate([root.path, "--to", "async", "--stage", "all", "--replace", "--check"])
        XCTAssertEqual(again.status, 0, again.standardError)
    }

    /// The places whose code spells the promise type a call of `load` answers, which stay typed
    /// once the call is wrapped or awaited; and places that do not.
    func testTheContextsThatSpellACallsPromiseType() {
        let source = """
        final class Screen {
            func places() -> Promise<User> {
                let typed: Promise<User> = load()
                _ = load() as Promise<User>
                load().done { (user: User) in print(user) }
                load().map { (user: User) -> String in user.name }.cauterize()
                Task { let user: User = try await load().value }
                if flag {
                    return load()
                }
                return load()
            }
            func single() -> Promise<User> { load() }
            func closures() {
                let make = { () -> Promise<User> in load() }
                let other = { () -> Promise<User> in return load() }
            }
            func not() async throws {
                let p = load()
                show(load())
                load().done { user in print(user) }
                load().done { (user: Any) in print(user) }
                let user = try await load().value
                _ = { load() }
                load().catch { _ in }
            }
            var computed: Promise<User> { load() }
        }
        """
        let tree = Parser.parse(source: source)
        let collector = ExistingCallCollector(fileName: "input.swift", converter: SourceLocationConverter(fileName: "input.swift", tree: tree),
                                              names: ["load"])
        collector.walk(tree)
        XCTAssertEqual(collector.calls.filter(\.spellsPromiseType).map(\.location.line), [3, 4, 5, 6, 7, 9, 11, 13, 15, 16])
        XCTAssertEqual(collector.calls.filter { !$0.spellsPromiseType }.map(\.location.line), [19, 20, 21, 22, 23, 24, 25, 27])
    }
}
