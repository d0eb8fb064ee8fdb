import Foundation
import XCTest

/// Real apps' callback functions often end without calling their handler on some path
/// (`guard let client = httpClient else { return }`): the callback simply never runs there. An
/// alternative answers nothing there either (the awaiting task stays suspended, the promise
/// pending), so callers moved to it in a new `Task` behave as before; only an async function
/// awaiting it would change (it would stop there instead of returning), and such a call site is
/// left alone. And a callback handing its answer on to its function's own handler becomes a
/// `Task` where no caller in the tree runs code after calling that function.
final class SilentPathTests: XCTestCase {
    private static let client = """
        import Foundation

        typealias FetchHandler = (String?, Error?) -> Void

        struct FetchError: Error, CustomStringConvertible {
            let id: Int
            var description: String { "FetchError(\\(id))" }
        }

        final class Client: @unchecked Sendable {
            private let configured: Bool
            private let failing: Set<Int>

            init(configured: Bool, failing: Set<Int> = []) {
                self.configured = configured
                self.failing = failing
            }

            /// Answers nothing when it is not configured.
            func fetch(_ id: Int, completion: @escaping FetchHandler) {
                guard configured else {
                    print("fetch \\(id): not configured")
                    return
                }
                let fails = failing.contains(id)
                DispatchQueue.global().async {
                    if fails {
                        completion(nil, FetchError(id: id))
                    } else {
                        completion("item \\(id)", nil)
                    }
                }
            }
        }

        /// Hands its handler on to the client, so it answers nothing where the client does.
        final class Repository: @unchecked Sendable {
            let client: Client

            init(client: Client) {
                self.client = client
            }

            func fetch(_ id: Int, completion: @escaping FetchHandler) {
                client.fetch(id, completion: completion)
            }
        }
        """

    private static let loader = """
        import Foundation

        final class Loader: @unchecked Sendable {
            let client: Client
            var onShow: (String) -> Void = { _ in }

            init(client: Client) {
                self.client = client
            }

            func show(_ id: Int) {
                client.fetch(id) { value, error in
                    if let error = error {
                        self.onShow("failed: \\(error)")
                        return
                    }
                    self.onShow(value ?? "nothing")
                }
            }

            func showPair() {
                client.fetch(1) { first, error in
                    guard let first = first, error == nil else {
                        self.onShow("first failed")
                        return
                    }
                    self.client.fetch(2) { second, error in
                        guard let second = second, error == nil else {
                            self.onShow("second failed")
                            return
                        }
                        self.onShow(first + ", " + second)
                    }
                }
            }

            func refresh() async {
                client.fetch(3) { value, _ in
                    print("refreshed \\(value ?? "-")")
                }
            }

            func showCached(_ id: Int) {
                Repository(client: client).fetch(id) { value, error in
                    guard let value = value, error == nil else {
                        self.onShow("cached failed")
                        return
                    }
                    self.onShow("cached " + value)
                }
            }
        }
        """

    /// Outside the migrated tree, as an app's framework or another module would call it.
    private static let driver = """
        import Foundation

        func run(_ name: String, _ loader: Loader, _ start: (Loader) -> Void) {
            let answered = DispatchSemaphore(value: 0)
            loader.onShow = { answer in
                print("\\(name): \\(answer)")
                answered.signal()
            }
            start(loader)
            if answered.wait(timeout: .now() + 1) == .timedOut { print("\\(name): no answer") }
        }

        let working = Loader(client: Client(configured: true, failing: [2]))
        let idle = Loader(client: Client(configured: false))
        run("show 1", working) { $0.show(1) }
        run("show 2", working) { $0.show(2) }
        run("show, not configured", idle) { $0.show(1) }
        run("pair", working) { $0.showPair() }
        run("pair, not configured", idle) { $0.showPair() }
        run("cached 1", working) { $0.showCached(1) }
        run("cached, not configured", idle) { $0.showCached(1) }
        print("done")
        """

    private static let expected = """
        show 1: item 1
        show 2: failed: FetchError(2)
        fetch 1: not configured
        show, not configured: no answer
        pair: second failed
        fetch 1: not configured
        pair, not configured: no answer
        cached 1: cached item 1
        fetch 1: not configured
        cached, not configured: no answer
        done

        """

    func testAlternativesAnswerNothingWhereTheOriginalDoesAndCallSitesKeepTheirTrace() throws {
        let root = try TestSupport.temporaryDirectory(self)
        for form in ["async", "promise"] {
            let tree = root.appendingPathComponent(form).appendingPathComponent("App")
            let sources = try TestSupport.writeTree([("Client.swift", Self.client), ("Loader.swift", Self.loader)], at: tree)
                + TestSupport.writeTree([("main.swift", Self.driver)], at: root.appendingPathComponent(form))

            func run(_ name: String) throws -> String {
                let binary = root.appendingPathComponent(form).appendingPathComponent(name)
                let built = try ProgramBuilding.compile(sources, flags: ["-swift-version", "5"], binary: binary)
                XCTAssertEqual(built.status, 0, built.standardError)
                let result = try TestSupport.run(binary, [])
                // A checked continuation left unresumed would report itself as leaked here.
                XCTAssertEqual(result.standardError, "", "\(form) \(name)")
                return result.standardOutput
            }
            if form == "async" { XCTAssertEqual(try run("original"), Self.expected) }

            let migration = try TestSupport.migrate([tree.path, "--to", form, "--stage", "all", "--swift-version", "5", "--in-place"])
            XCTAssertEqual(migration.status, 0, migration.standardError)
            let client = try String(contentsOf: tree.appendingPathComponent("Client.swift"), encoding: .utf8)
            if form == "async" {
                XCTAssertTrue(client.contains("/// Like the original, which ends without calling its handler on some path, it answers nothing there: "
                                              + "the awaiting task stays suspended."), client)
                XCTAssertTrue(client.contains("await withUnsafeThrowingContinuation { continuation in"), client)
                XCTAssertFalse(client.contains("Checked"), client)
                XCTAssertTrue(migration.standardError.contains(
                    "Loader.swift:38:9: call site left alone in `refresh()`: the callee ends without calling its handler on a path (Client.swift:23): "
                    + "awaited in this async function, the function would stop there instead of returning as it did"), migration.standardError)
                XCTAssertTrue(migration.standardError.contains("3 call sites converted, 1 left alone"), migration.standardError)
            } else {
                // Pending and silent where the original answers nothing: no `VowError.abandoned`
                // reaches the converted chains' failure handlers, and nothing is printed.
                XCTAssertTrue(client.contains("/// Like the original, which ends without calling its handler on some path, it answers nothing there: "
                                              + "the promise stays pending."), client)
                XCTAssertEqual(client.components(separatedBy: "Promise(ifAbandoned: .stayPending) { seal in").count, 3, client)
                XCTAssertTrue(migration.standardError.contains("2 call sites converted, 2 left alone"), migration.standardError)
                XCTAssertTrue(client.contains("func fetch(_ id: Int) -> Promise<String> {"), client)
            }
            XCTAssertEqual(try run("migrated"), Self.expected, form)
            let again = try TestSupport.migrate([tree.path, "--to", form, "--stage", "all", "--swift-version", "5", "--check"])
            XCTAssertEqual(again.status, 0, again.standardError)
        }
    }

    /// The callback handing its answer on moves into a `Task` only from the main queue (its
    /// callers' code runs there, as before), where no caller runs code after calling its
    /// function, and never in a public function, whose callers are elsewhere.
    func testACallbackHandingItsAnswerOnFromTheMainQueueWaitsForCallersWithoutCodeAfter() throws {
        let source = """
            import Foundation

            final class Store: @unchecked Sendable {
                var calls: [String] = []

                func fetch(completion: @escaping (Result<Int, Error>) -> Void) {
                    calls.append("fetch")
                    DispatchQueue.global().async { completion(.success(1)) }
                }

                func sync(completion: @escaping (Int) -> Void) {
                    fetch { result in
                        DispatchQueue.main.async { completion((try? result.get()) ?? 0) }
                    }
                }

                func refresh(completion: @escaping (Int) -> Void) {
                    fetch { result in
                        DispatchQueue.main.async { completion((try? result.get()) ?? 0) }
                    }
                }

                public func publish(completion: @escaping (Int) -> Void) {
                    fetch { result in
                        DispatchQueue.main.async { completion((try? result.get()) ?? 0) }
                    }
                }

                func count(completion: @escaping (Int) -> Void) {
                    fetch { result in
                        completion((try? result.get()) ?? 0)
                    }
                }

                func start() {
                    sync { _ in }
                }

                func reload() {
                    refresh { _ in }
                    print(calls)
                }
            }
            """
        let tree = try TestSupport.temporaryDirectory(self).appendingPathComponent("App")
        try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: true)
        try source.write(to: tree.appendingPathComponent("Store.swift"), atomically: true, encoding: .utf8)
        let migration = try TestSupport.migrate([tree.path, "--to", "async", "--stage", "all", "--swift-version", "5"])
        XCTAssertEqual(migration.status, 0, migration.standardError)
        let result = migration.standardError
        XCTAssertTrue(result.contains("Store.swift:12:9: note: converted 1 callback"), result)
        let start = "call site left alone in `%@`: the callback hands its answer on to `completion`, this function's own handler"
        XCTAssertTrue(result.contains(
            "Store.swift:19:40: " + String(format: start, "refresh(completion:)") + ", on the main queue: a `Task` would make the call after "
            + "this function returns, but `refresh(completion:)` is called at Store.swift:40 with code after it, which would run first; "
            + "`--to promise` keeps the order"), result)
        XCTAssertTrue(result.contains(
            "Store.swift:25:40: " + String(format: start, "publish(completion:)") + ", on the main queue: a `Task` would make the call after "
            + "this function returns, and callers outside the tree may run code after calling it (it is public); "
            + "its async alternative is there for them, or `--to promise` keeps the order"), result)
        // Off the main queue, where no call of it is left in the tree (none at all here).
        XCTAssertTrue(result.contains("Store.swift:30:9: note: converted 1 callback"), result)
    }

    /// `Service.load(_:completion:)` hands its answer on off the main queue; its one call is in
    /// an action closure inside a callback the stage keeps (a nested place). That call converted
    /// counts for the run's decision, so one run converts the forwarder too, and a second run
    /// changes nothing (it converted it before). Also a run over one small file decides.
    func testACallConvertedInANestedPlaceCountsForItsForwardingFunction() throws {
        let source = """
            import Dispatch

            enum LoadError: Error { case offline }

            final class Client: Sendable {
                private let queue = DispatchQueue(label: "client")
                func fetch(_ id: Int, completion: @escaping @Sendable (Result<String, LoadError>) -> Void) {
                    queue.async { completion(id > 0 ? .success("item \\(id)") : .failure(.offline)) }
                }
            }

            final class Service: Sendable {
                let client = Client()
                func load(_ id: Int, completion: @escaping @Sendable (Result<String, LoadError>) -> Void) {
                    client.fetch(id) { result in
                        completion(result)
                    }
                }
            }

            final class Sessions: Sendable {
                func current(completion: @escaping @Sendable (Int?, Error?) -> Void) {
                    DispatchQueue.main.async { completion(7, nil) }
                }
            }

            final class Action: Sendable {
                let handler: @Sendable (Action) -> Void
                init(handler: @escaping @Sendable (Action) -> Void) { self.handler = handler }
            }

            final class Screen: @unchecked Sendable {
                let service = Service()
                let sessions = Sessions()
                var actions: [Action] = []

                func start() {
                    sessions.current { id, error in
                        print("session answered")
                        guard let id else { return }
                        self.actions.append(Action { _ in
                            self.service.load(id) { result in
                                print(result)
                            }
                        })
                    }
                }
            }

            """
        let tree = try TestSupport.temporaryDirectory(self).appendingPathComponent("App")
        try TestSupport.writeTree([("App.swift", source)], at: tree)
        let first = try TestSupport.migrate([tree.path, "--to", "async", "--stage", "all", "--in-place"])
        XCTAssertEqual(first.status, 0, first.standardError)
        for place in ["App.swift:15:9: note: converted 1 callback", "App.swift:38:9: note: converted 1 callback",
                      "App.swift:42:17: note: converted 1 callback"] {
            XCTAssertTrue(first.standardError.contains(place), place + "\n" + first.standardError)
        }
        XCTAssertTrue(first.standardError.contains("3 call sites converted, 0 left alone"), first.standardError)
        let second = try TestSupport.migrate([tree.path, "--to", "async", "--stage", "all", "--check"])
        XCTAssertEqual(second.status, 0, second.standardOutput + second.standardError)
        let output = try String(contentsOf: tree.appendingPathComponent("App.swift"), encoding: .utf8)
        if let diagnostics = try TestSupport.typecheckTogether([tree.appendingPathComponent("App.swift")]) {
            XCTFail("does not typecheck:\n\(diagnostics)\n\(output)")
        }
    }
}
