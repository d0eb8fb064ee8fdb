import Foundation
import VowMigrate
import XCTest

/// A callback handing its answer on to its own function's handler (`api.get { r in completion(r) }`)
/// off the main queue: in a new `Task` the handler would run on the task's thread, and so would
/// every caller's callback code. The async form converts it where every call of the function in
/// the tree is converted by the same run (each then awaits the alternative, which resumes
/// wherever it is called from), deciding across files and through chains of such functions, and
/// a second run agrees; otherwise it is left alone, with the reason.
final class ForwardingCallersTests: XCTestCase {
    private static let api = #"""
        import Dispatch
        import Foundation

        enum LoadError: Error { case missing }

        final class API: @unchecked Sendable {
            private let queue = DispatchQueue(label: "api")

            func get(_ path: String, completion: @escaping @Sendable (Result<String, LoadError>) -> Void) {
                queue.async {
                    if path.hasSuffix("/0") { completion(.failure(.missing)) } else { completion(.success("item at " + path)) }
                }
            }
        }

        """#

    private static let layers = #"""
        import Foundation

        final class Repository: @unchecked Sendable {
            let api = API()

            func load(id: Int, completion: @escaping @Sendable (Result<String, LoadError>) -> Void) {
                api.get("/items/\(id)") { result in
                    completion(result)
                }
            }
        }

        final class Service: @unchecked Sendable {
            let repository = Repository()

            func fetch(id: Int, completion: @escaping @Sendable (String?, Error?) -> Void) {
                repository.load(id: id) { result in
                    switch result {
                    case .success(let item):
                        completion(item.uppercased(), nil)
                    case .failure(let error):
                        completion(nil, error)
                    }
                }
            }
        }

        """#

    private static let model = #"""
        import Foundation

        final class Model: @unchecked Sendable {
            let service = Service()

            func show(id: Int, then done: @escaping @Sendable () -> Void) {
                service.fetch(id: id) { item, error in
                    if let error {
                        print("\(id): failed with \(error)")
                        done()
                        return
                    }
                    print("\(id): \(item ?? "none")")
                    done()
                }
            }
        }

        """#

    private static let driver = #"""
        import Dispatch
        import Foundation

        let model = Model()
        model.show(id: 7) {
            model.show(id: 0) {
                exit(0)
            }
        }
        dispatchMain()

        """#

    func testForwardingCallbacksConvertWhenEveryCallOfTheirFunctionsIsConvertedThroughAChain() throws {
        let root = try TestSupport.temporaryDirectory(self)
        let original = root.appendingPathComponent("original")
        let files = try TestSupport.writeTree([("API.swift", Self.api), ("Layers.swift", Self.layers), ("Model.swift", Self.model)], at: original)
        let main = root.appendingPathComponent("main.swift")
        try Self.driver.write(to: main, atomically: true, encoding: .utf8)
        let expected = try ProgramBuilding.buildAndRun(files + [main], binary: root.appendingPathComponent("original-program"))
        XCTAssertEqual(expected, "7: ITEM AT /ITEMS/7\n0: failed with missing\n")

        let migrated = root.appendingPathComponent("migrated")
        try FileManager.default.copyItem(at: original, to: migrated)
        let result = try TestSupport.migrate([migrated.path, "--to", "async", "--stage", "all", "--in-place"])
        XCTAssertEqual(result.status, 0, result.standardError)
        // `Model.show` converts; then `Service.fetch`, whose one call that was; then
        // `Repository.load`, whose one call `Service.fetch`'s was.
        XCTAssertTrue(result.standardError.contains("3 call sites converted, 0 left alone"), result.standardError)
        let layers = try String(contentsOf: migrated.appendingPathComponent("Layers.swift"), encoding: .utf8)
        XCTAssertTrue(layers.contains("try await api.get(\"/items/\\(id)\")"), layers)
        XCTAssertTrue(layers.contains("try await repository.load(id: id)"), layers)
        let output = try ProgramBuilding.buildAndRun(["API.swift", "Layers.swift", "Model.swift"].map { migrated.appendingPathComponent($0) } + [main],
                                                    binary: root.appendingPathComponent("migrated-program"))
        XCTAssertEqual(output, expected)
        let second = try TestSupport.migrate([migrated.path, "--to", "async", "--stage", "all", "--check"])
        XCTAssertEqual(second.status, 0, second.standardOutput + second.standardError)
    }

    /// A call of `fetch` the run leaves alone (in a `map` closure) keeps `fetch`'s callback as it
    /// is, and so `load`'s, whose one call is that callback; the reason names the function.
    func testACallerLeftAloneKeepsEveryForwardingCallbackBelowIt() throws {
        let tree = try TestSupport.temporaryDirectory(self)
        let prefetcher = #"""
            final class Prefetcher: @unchecked Sendable {
                let service = Service()

                func prefetch(_ ids: [Int]) -> [Int] {
                    ids.map { id in
                        service.fetch(id: id) { _, _ in }
                        return id
                    }
                }
            }

            """#
        _ = try TestSupport.writeTree([("API.swift", Self.api), ("Layers.swift", Self.layers), ("Model.swift", Self.model),
                                       ("Prefetcher.swift", prefetcher)], at: tree)
        let result = try TestSupport.migrate([tree.path, "--to", "async", "--stage", "all"])
        XCTAssertEqual(result.status, 0, result.standardError)
        let refused = result.standardError.split(separator: "\n").filter { $0.contains("call site left alone") }.map(String.init)
        XCTAssertEqual(refused.count, 3, refused.joined(separator: "\n"))
        XCTAssertTrue(refused.contains { $0.contains("Layers.swift:8:") && $0.contains("converted when every call of the function in the tree is converted too") },
                      refused.joined(separator: "\n"))
        XCTAssertTrue(refused.contains { $0.contains("Layers.swift:20:") && $0.contains("converted when every call of the function in the tree is converted too") },
                      refused.joined(separator: "\n"))
        XCTAssertTrue(result.standardError.contains("1 call site converted, 3 left alone"), result.standardError)
    }

    /// A public function's callers outside the tree may rely on where its handler runs.
    func testAPublicFunctionKeepsItsForwardingCallback() throws {
        let tree = try TestSupport.temporaryDirectory(self)
        let layers = Self.layers.replacingOccurrences(of: "    func fetch(id:", with: "    public func fetch(id:")
        _ = try TestSupport.writeTree([("API.swift", Self.api), ("Layers.swift", layers), ("Model.swift", Self.model)], at: tree)
        let result = try TestSupport.migrate([tree.path, "--to", "async", "--stage", "all"])
        XCTAssertTrue(result.standardError.contains("Layers.swift:20:17: call site left alone in `fetch(id:completion:)`"), result.standardError)
        XCTAssertTrue(result.standardError.contains("it is public, so callers outside the tree may rely on that"), result.standardError)
        // `load`'s one call is that callback, left alone.
        XCTAssertTrue(result.standardError.contains("Layers.swift:8:13: call site left alone in `load(id:completion:)`"), result.standardError)
    }

    /// Alternatives added by an earlier run call the originals inside a continuation, whose
    /// callback only resumes it: not a caller that cares where the handler runs.
    func testAlternativesOfAnEarlierRunDoNotKeepTheCallbacks() throws {
        let tree = try TestSupport.temporaryDirectory(self)
        _ = try TestSupport.writeTree([("API.swift", Self.api), ("Layers.swift", Self.layers), ("Model.swift", Self.model)], at: tree)
        let declarations = try TestSupport.migrate([tree.path, "--to", "async", "--in-place"])
        XCTAssertEqual(declarations.status, 0, declarations.standardError)
        let callSites = try TestSupport.migrate([tree.path, "--to", "async", "--stage", "call-sites", "--in-place"])
        XCTAssertTrue(callSites.standardError.contains("3 call sites converted, 0 left alone"), callSites.standardError)
        let second = try TestSupport.migrate([tree.path, "--to", "async", "--stage", "all", "--check"])
        XCTAssertEqual(second.status, 0, second.standardOutput + second.standardError)
    }

    /// A bridge the app wrote, `Vow.Promise<String> { seal in ... }` spelled with its module, is a
    /// continuation too: its call resolves the promise, wherever the handler runs.
    func testACallInsideAModuleQualifiedPromiseIsNotACallerThatKeepsTheCallbacks() throws {
        let bridge = #"""
            import Vow

            extension Repository {
                func loadPromise(id: Int) -> Vow.Promise<String> {
                    Vow.Promise<String> { seal in
                        load(id: id) { result in
                            seal.resolve(result)
                        }
                    }
                }
            }

            """#
        let tree = try TestSupport.temporaryDirectory(self)
        _ = try TestSupport.writeTree([("API.swift", Self.api), ("Layers.swift", Self.layers), ("Model.swift", Self.model), ("Bridge.swift", bridge)], at: tree)
        let result = try TestSupport.migrate([tree.path, "--to", "async", "--stage", "all"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertFalse(result.standardError.contains("Layers.swift:8:13: call site left alone"), result.standardError)
        XCTAssertTrue(result.standardError.contains("Layers.swift:7:9: note: converted 1 callback"), result.standardError)
        XCTAssertTrue(result.standardError.contains("3 call sites converted, 0 left alone"), result.standardError)
        XCTAssertFalse(result.standardError.contains("Bridge.swift:"), result.standardError)
    }

    /// A callee that runs code of the tree before it returns that shows its thread (a log line
    /// naming it, a change to state only its caller's thread touches) would run it on the task's
    /// thread: the callback is left alone, whoever calls its function.
    func testACalleeRunningTreeCodeAtOnceKeepsTheCallback() throws {
        let tree = try TestSupport.temporaryDirectory(self)
        let api = Self.api.replacingOccurrences(of: "        queue.async {", with: "        record(path)\n        queue.async {")
            + "\nfunc record(_ path: String) { print(Thread.isMainThread ? \"[main] -> \\(path)\" : \"[background] -> \\(path)\") }\n"
        _ = try TestSupport.writeTree([("API.swift", api), ("Layers.swift", Self.layers), ("Model.swift", Self.model)], at: tree)
        let result = try TestSupport.migrate([tree.path, "--to", "async", "--stage", "all"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(result.standardError.contains("Layers.swift:8:13: call site left alone in `load(id:completion:)`: the callback hands its answer on to "
                                                    + "`completion`, this function's own handler, on the queue the callee answers on"), result.standardError)
        XCTAssertTrue(result.standardError.contains("returns); the callee runs code of the tree before it returns, which the task would run on its own thread "
                                                    + "instead of the caller's"), result.standardError)
        // And so through every level above: `fetch` calls `load`, which calls `api.get`, and
        // `Model.show` (its `then:` handler is handed on too) calls `fetch`.
        XCTAssertTrue(result.standardError.contains("0 call sites converted, 3 left alone"), result.standardError)
    }
}
