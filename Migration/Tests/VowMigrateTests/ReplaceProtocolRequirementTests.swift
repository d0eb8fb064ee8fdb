import Foundation
import XCTest

/// Issue 18, `--replace --to async` on a protocol requirement returning a promise: it becomes
/// async together with every implementation of it in the tree, or none of them does.
final class ReplaceProtocolRequirementTests: XCTestCase {
    private static let loading = """
        import Vow

        enum ListError: Error { case empty }

        /// Anything that fills a list.
        protocol RowLoading {
            func rows(limit: Int) -> Promise<[String]>
        }

        final class Recent: RowLoading {
            func rows(limit: Int) -> Promise<[String]> {
                Promise.value(["milk", "eggs", "bread"]).map { rows in
                    Array(rows.prefix(limit))
                }
            }
        }

        struct Empty {}

        extension Empty: RowLoading {
            func rows(limit: Int) -> Promise<[String]> {
                guard limit > 0 else {
                    return Promise(error: ListError.empty)
                }
                return .value([])
            }
        }

        """

    private static let screen = """
        import Vow

        @MainActor final class ListScreen {
            let source: RowLoading
            var text = ""

            init(source: RowLoading) {
                self.source = source
            }

            func show() {
                source.rows(limit: 2).done { rows in
                    self.text = rows.joined(separator: ", ")
                }.catch { error in
                    self.text = "\\(error)"
                }
            }

            func first() async throws -> String? {
                let rows = try await Recent().rows(limit: 1).value
                return rows.first
            }
        }

        """

    private func tree(_ files: [String: String]) throws -> URL {
        let root = try TestSupport.temporaryDirectory(self)
        for (name, text) in files {
            try text.write(to: root.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return root
    }

    func testARequirementBecomesAsyncWithEveryImplementationAndTheCallsThroughIt() throws {
        let root = try tree(["Loading.swift": Self.loading, "Screen.swift": Self.screen])
        let result = try TestSupport.migrate([root.path, "--to", "async", "--stage", "all", "--replace", "--in-place"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let loadingFile = root.appendingPathComponent("Loading.swift"), screenFile = root.appendingPathComponent("Screen.swift")
        XCTAssertTrue(result.standardError.contains("""
            \(loadingFile.path):7:10: note: converted a protocol requirement returning a promise to `async throws -> [String]`, \
            on the main actor, with the 2 implementations of it in the tree
            """), result.standardError)
        let loading = try String(contentsOf: loadingFile, encoding: .utf8)
        let screen = try String(contentsOf: screenFile, encoding: .utf8)
        for line in [
            "    @MainActor func rows(limit: Int) async throws -> [String]\n",
            "    @MainActor func rows(limit: Int) async throws -> [String] {\n        let rows = [\"milk\", \"eggs\", \"bread\"]\n"
                + "        return Array(rows.prefix(limit))\n",
            "            throw ListError.empty\n",
            "        return []\n",
        ] {
            XCTAssertTrue(loading.contains(line), line + "\n" + loading)
        }
        // The call through the protocol keeps its promise (wrapped); the awaited one awaits the call.
        XCTAssertTrue(screen.contains("let rowsPromise = Promise.immediate { @MainActor @Sendable [self] in try await source.rows(limit: 2) }"), screen)
        XCTAssertTrue(screen.contains("let rows = try await Recent().rows(limit: 1)\n"), screen)
        XCTAssertNil(try TestSupport.typecheckTogether([loadingFile, screenFile]))
        // A second run has nothing left to do.
        let again = try TestSupport.migrate([root.path, "--to", "async", "--stage", "all", "--replace", "--check"])
        XCTAssertEqual(again.status, 0, again.standardError)
    }

    func testOneImplementationThatCannotChangeKeepsTheRequirementAndEveryOther() throws {
        // A handler leaving early: that body does not convert, so none of them does.
        let other = """
            import Vow

            final class Flaky: RowLoading {
                func rows(limit: Int) -> Promise<[String]> {
                    Promise.value(limit).map { limit in
                        guard limit > 1 else { return [] }
                        return ["a"]
                    }.get { rows in
                        guard rows.isEmpty else { return }
                        print("empty")
                    }
                }
            }

            """
        let root = try tree(["Loading.swift": Self.loading, "Screen.swift": Self.screen, "Flaky.swift": other])
        let result = try TestSupport.migrate([root.path, "--to", "async", "--stage", "all", "--replace", "--diff"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertFalse(result.standardOutput.contains("async throws -> [String]"), result.standardOutput)
        XCTAssertTrue(result.standardError.contains("`rows(limit:)`: a protocol requirement of the same name would have to change with it"),
                      result.standardError)
    }

    func testAConformingTypeWithoutItsOwnImplementationKeepsThemAll() throws {
        // `Cached` gets `rows(limit:)` from its superclass, which does not conform itself.
        let inherited = """
            import Vow

            class Base {
                func rows(limit: Int) -> Promise<[String]> {
                    .value(["base"])
                }
            }

            final class Cached: Base, RowLoading {}

            """
        let root = try tree(["Loading.swift": Self.loading, "Screen.swift": Self.screen, "Base.swift": inherited])
        let result = try TestSupport.migrate([root.path, "--to", "async", "--stage", "all", "--replace", "--diff"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertFalse(result.standardOutput.contains("async throws -> [String]"), result.standardOutput)
    }

    func testAPublicProtocolKeepsItsRequirement() throws {
        let root = try tree(["Loading.swift": Self.loading.replacingOccurrences(of: "protocol RowLoading", with: "public protocol RowLoading"),
                             "Screen.swift": Self.screen])
        let result = try TestSupport.migrate([root.path, "--to", "async", "--stage", "all", "--replace", "--diff"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertFalse(result.standardOutput.contains("async throws -> [String]"), result.standardOutput)
    }

    /// home-assistant's notification commands: handlers registered in a dictionary by command
    /// name, and a manager whose own `handle(_:)` (another parameter type, the same name) picks
    /// one with `if let handler = commands[command]`. The call's receiver is typed by the
    /// dictionary's values, so it reaches only the requirement: the requirement, its three
    /// implementations (one answering from an `#if`), the manager's function and the chain on it
    /// all become async, and the program prints the same.
    func testHandlersPickedFromADictionaryChangeWithTheirRequirementAndTheProgramPrintsTheSame() throws {
        let commands = #"""
            import Dispatch
            import Vow

            enum CommandError: Error {
                case notCommand
                case unknownCommand
                case refused(String)
            }

            protocol CommandHandler {
                func handle(_ payload: [String: String]) -> Promise<String>
            }

            struct EchoHandler: CommandHandler {
                func handle(_ payload: [String: String]) -> Promise<String> {
                    Promise.value(payload["text"] ?? "").map { text in
                        print("echo \(text)")
                        return text.uppercased()
                    }
                }
            }

            struct GreetHandler: CommandHandler {
                let queue: DispatchQueue

                func handle(_ payload: [String: String]) -> Promise<String> {
                    guard let name = payload["name"] else {
                        return Promise(error: CommandError.refused("no name"))
                    }
                    return Promise { seal in
                        queue.async {
                            print("greeting \(name)")
                            seal.fulfill("hello \(name)")
                        }
                    }
                }
            }

            struct VersionHandler: CommandHandler {
                func handle(_ payload: [String: String]) -> Promise<String> {
                    #if compiler(>=5.9)
                    Promise.value("new")
                    #else
                    return .value("old")
                    #endif
                }
            }

            final class CommandManager: @unchecked Sendable {
                private var commands = [String: CommandHandler]()

                init(queue: DispatchQueue) {
                    commands["echo"] = EchoHandler()
                    commands["greet"] = GreetHandler(queue: queue)
                    commands["version"] = VersionHandler()
                }

                func handle(_ payload: [String: String]?) -> Promise<String> {
                    guard let payload, let command = payload["command"] else {
                        return Promise(error: CommandError.notCommand)
                    }
                    if let handler = commands[command] {
                        return handler.handle(payload)
                    } else {
                        return Promise(error: CommandError.unknownCommand)
                    }
                }
            }

            """#
        let screen = #"""
            import Vow

            nonisolated(unsafe) var finished: () -> Void = {}

            final class Screen: @unchecked Sendable {
                let manager: CommandManager

                init(manager: CommandManager) {
                    self.manager = manager
                }

                func run(_ payload: [String: String]?) {
                    manager.handle(payload).done { text in
                        print("shown \(text)")
                        finished()
                    }.catch { error in
                        print("failed \(error)")
                        finished()
                    }
                }
            }

            """#
        let main = #"""
            import Dispatch
            import Foundation

            let payloads: [[String: String]?] = [
                ["command": "echo", "text": "hi"], ["command": "greet", "name": "ada"], ["command": "greet"],
                ["command": "version"], ["command": "nope"], nil,
            ]
            let screen = Screen(manager: CommandManager(queue: DispatchQueue(label: "work")))
            nonisolated(unsafe) var next = 0

            func runNext() {
                guard next < payloads.count else { exit(0) }
                let payload = payloads[next]
                next += 1
                print("==", payload.map { payload in payload.keys.sorted().map { "\($0)=\(payload[$0]!)" }.joined(separator: " ") } ?? "nil")
                finished = { DispatchQueue.main.async { runNext() } }
                screen.run(payload)
            }

            DispatchQueue.main.async { runNext() }
            dispatchMain()

            """#
        let directory = try TestSupport.temporaryDirectory(self)
        let expected = try ProgramBuilding.buildAndRun([("Commands.swift", commands), ("Screen.swift", screen), ("main.swift", main)],
                                                       as: "original", in: directory)
        XCTAssertEqual(expected, """
            == command=echo text=hi
            echo hi
            shown HI
            == command=greet name=ada
            greeting ada
            shown hello ada
            == command=greet
            failed refused("no name")
            == command=version
            shown new
            == command=nope
            failed unknownCommand
            == nil
            failed notCommand

            """)
        let root = try tree(["Commands.swift": commands, "Screen.swift": screen])
        let result = try TestSupport.migrate([root.path, "--to", "async", "--stage", "all", "--replace", "--in-place"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(result.standardError.contains("converted a protocol requirement returning a promise to `async throws -> String`, "
                                                    + "on the main actor, with the 3 implementations of it in the tree"), result.standardError)
        XCTAssertTrue(result.standardError.contains("6 call sites converted, 0 left alone"), result.standardError)
        let migrated = try String(contentsOf: root.appendingPathComponent("Commands.swift"), encoding: .utf8)
        for line in [
            "    @MainActor func handle(_ payload: [String: String]) async throws -> String\n",
            "        return try await handler.handle(payload)\n",
            "        #if compiler(>=5.9)\n        return \"new\"\n        #else\n        return \"old\"\n",
        ] {
            XCTAssertTrue(migrated.contains(line), line + "\n" + migrated)
        }
        let output = try ProgramBuilding.buildAndRun([
            ("Commands.swift", migrated), ("Screen.swift", try String(contentsOf: root.appendingPathComponent("Screen.swift"), encoding: .utf8)),
            ("main.swift", main),
        ], as: "migrated", in: directory)
        XCTAssertEqual(output, expected)
        let again = try TestSupport.migrate([root.path, "--to", "async", "--stage", "all", "--replace", "--check"])
        XCTAssertEqual(again.status, 0, again.standardError)
    }

    /// A run over one target of a multi-module app: `SensorProvider` is declared in another
    /// module, and may require `sensors()`, which made async would no longer meet it. Kept, with
    /// the reason; a conformance declared on an extension (`extension TokenManager:
    /// Authenticator`) says nothing of the type body's functions, a superclass (`override` shows
    /// there is one) requires nothing of functions that are no override, and raw types and
    /// standard protocols require no promise.
    func testAConformanceToAProtocolNoFileOfTheRunDeclaresKeepsTheFunctionsImplementingIt() throws {
        let source = """
            import Vow

            final class PedometerSensor: SensorProvider {
                func sensors() -> Promise<[String]> {
                    Promise.value(["steps"])
                }
            }

            final class TokenManager {
                func token() -> Promise<String> {
                    Promise.value("token")
                }
            }

            extension TokenManager: Authenticator {
                func apply(_ token: String) {}
            }

            class Screen: ViewController {
                override func viewDidLoad() {}

                func reload() -> Promise<Int> {
                    Promise.value(1)
                }
            }

            protocol Refreshing: RemoteRefreshing {}

            final class Feed: Refreshing, Equatable {
                static func == (lhs: Feed, rhs: Feed) -> Bool { true }
                func refresh() -> Promise<Int> {
                    Promise.value(2)
                }
            }

            enum Kind: String, CaseIterable {
                case a
                func load() -> Promise<Int> { Promise.value(3) }
            }

            @MainActor func use(_ sensor: PedometerSensor, _ tokens: TokenManager, _ screen: Screen, _ feed: Feed) async throws {
                print(try await sensor.sensors().value, try await tokens.token().value, try await screen.reload().value,
                      try await feed.refresh().value, try await Kind.a.load().value)
            }

            """
        let root = try tree(["Sensors.swift": source])
        let result = try TestSupport.migrate([root.path, "--to", "async", "--stage", "all", "--replace", "--diff"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let kept = result.standardError.split(separator: "\n").filter { $0.contains("call site left alone in ") }.map { line in
            String(line[line.range(of: "left alone in ")!.upperBound...])
        }
        XCTAssertEqual(kept, [
            "`sensors()`: its type conforms to `SensorProvider`, which no file of the run declares: a requirement of it this function "
                + "may implement would no longer be met; name the file declaring it with --context",
            "`refresh()`: its type conforms to `RemoteRefreshing`, which no file of the run declares: a requirement of it this function "
                + "may implement would no longer be met; name the file declaring it with --context",
        ])
        for converted in ["func token() async throws -> String", "func reload() async throws -> Int", "func load() async throws -> Int"] {
            XCTAssertTrue(result.standardOutput.contains(converted), converted + "\n" + result.standardOutput)
        }
    }

    /// The same for a completion-handler function `--replace` would make async.
    func testACompletionHandlerFunctionOfSuchATypeKeepsItsHandler() throws {
        let source = """
            import Foundation

            final class Store: Sendable {
                func load(completion: @escaping @Sendable (Result<Int, Error>) -> Void) {
                    completion(.success(1))
                }
            }

            final class FeedSync: RemoteSyncing {
                let store = Store()
                func sync(completion: @escaping @Sendable (Result<Int, Error>) -> Void) {
                    store.load { result in
                        switch result {
                        case .success(let value): completion(.success(value + 1))
                        case .failure(let error): completion(.failure(error))
                        }
                    }
                }
            }

            """
        let root = try tree(["Sync.swift": source])
        let result = try TestSupport.migrate([root.path, "--to", "async", "--stage", "all", "--replace", "--diff"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(result.standardError.contains(
            "skipped `sync(completion:)`: its type conforms to `RemoteSyncing`, which no file of the run declares"), result.standardError)
        XCTAssertFalse(result.standardOutput.contains("func sync() async throws -> Int"), result.standardOutput)
        let unrelated = source.replacingOccurrences(of: "final class FeedSync: RemoteSyncing {", with: "final class FeedSync {")
        let plain = try tree(["Sync.swift": unrelated])
        let converted = try TestSupport.migrate([plain.path, "--to", "async", "--stage", "all", "--replace", "--diff"])
        XCTAssertTrue(converted.standardOutput.contains("func sync() async throws -> Int"), converted.standardOutput)
    }
}
