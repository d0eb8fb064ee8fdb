import Foundation
import VowMigrate
import XCTest

/// Where a callee answers decides where converted code must run. A callee that answers on the
/// main queue (`DispatchQueue.main.async { completion(x) }`, directly or through the functions it
/// hands its handler to) ran its callers' callbacks there; in code no actor owns, a plain
/// `Task { }` would run them on the thread pool (UI code off the main thread), so the task is
/// `Task { @MainActor in }`. The same knowledge lets a callback hand its answer on to its own
/// function's handler: it stays on the main queue.
final class MainQueueAnswerTests: XCTestCase {
    private static let screen = #"""
        import Dispatch
        import Foundation

        let mainKey = DispatchSpecificKey<Bool>()

        /// Whether the code runs on the main queue (`dispatchMain()` serves it from a thread that
        /// is not the process's first, which `Thread.isMainThread` would not count).
        func onMain() -> Bool { DispatchQueue.getSpecific(key: mainKey) == true }

        final class Service: @unchecked Sendable {
            /// Works in the background, answers on the main queue.
            func load(completion: @escaping @Sendable (Int) -> Void) {
                DispatchQueue.global().async {
                    let value = 21
                    DispatchQueue.main.async { completion(value) }
                }
            }

            /// Answers on the main queue through the function it hands its handler to.
            func reload(completion: @escaping @Sendable (Int) -> Void) {
                load(completion: completion)
            }
        }

        final class Model: @unchecked Sendable {
            let service = Service()

            func refresh(then done: @escaping @Sendable () -> Void) {
                service.load { value in
                    print("loaded \(value), on main: \(onMain())")
                    done()
                }
            }

            func fetch(completion: @escaping @Sendable (Int) -> Void) {
                service.reload { value in
                    completion(value * 2)
                }
            }

            func forward(then done: @escaping @Sendable () -> Void) {
                fetch { doubled in
                    print("fetched \(doubled), on main: \(onMain())")
                    done()
                }
            }
        }

        """#

    private static let driver = #"""
        import Dispatch
        import Foundation

        DispatchQueue.main.setSpecific(key: mainKey, value: true)
        let model = Model()
        DispatchQueue.global().async {
            model.refresh {
                model.forward {
                    print("done, on main: \(onMain())")
                    exit(0)
                }
            }
        }
        dispatchMain()

        """#

    func testCallbacksOfACalleeAnsweringOnTheMainQueueStayThereInATaskOnTheMainActor() throws {
        let program = try ProgramBuilding.ScreenProgram(screen: Self.screen, driver: Self.driver, in: try TestSupport.temporaryDirectory(self),
                                                        arguments: ["--to", "async", "--stage", "all"])
        let expected = try program.runOriginal()
        XCTAssertEqual(expected, """
            loaded 21, on main: true
            fetched 42, on main: true
            done, on main: true

            """)
        let (result, code) = try program.migrate()
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertFalse(result.standardError.contains("call site left alone"), result.standardError)
        // Each of the three: a callback of a callee answering on the main queue (`forward`'s
        // through `fetch`, which answers where `reload` does, which answers where `load` does).
        XCTAssertEqual(code.components(separatedBy: "Task { @MainActor in").count - 1, 3, code)
        XCTAssertFalse(code.contains("Task {\n"), code)
        XCTAssertEqual(try program.runMigrated(), expected)
        XCTAssertEqual(try program.checkAgain().status, 0)
    }

    /// A callee answering on a queue of its own keeps a plain task, and a callback handing the
    /// answer on to its function's handler from there is still left alone.
    func testACalleeAnsweringOnItsOwnQueueKeepsAPlainTaskAndForwardingIsLeftAlone() {
        let input = """
            import Dispatch

            final class Store: @unchecked Sendable {
                private let queue = DispatchQueue(label: "store")

                func count(completion: @escaping @Sendable (Int) -> Void) {
                    queue.async { completion(3) }
                }
            }

            final class Model: @unchecked Sendable {
                let store = Store()

                func show() {
                    store.count { value in
                        print(value)
                    }
                }

                func total(completion: @escaping @Sendable (Int) -> Void) {
                    store.count { value in
                        completion(value + 1)
                    }
                }
            }

            """
        let result = SourceMigrator.migrate(source: input, fileName: "Model.swift", options: MigrationOptions(target: .async, stage: .all))
        XCTAssertTrue(result.output.contains("        Task {\n            let value = await store.count()"), result.output)
        XCTAssertFalse(result.output.contains("@MainActor in"), result.output)
        XCTAssertEqual(result.findings.filter { $0.kind == .callSiteRefused }.map(\.line), [22])
    }

    /// A function declared inside a callback that makes a call of its own is a place of its own:
    /// the callback around it is left alone (in both forms), the call inside converts by itself,
    /// the output parses, and a second run changes nothing. Handing on the outer function's
    /// handler from such a local function, off the main queue, is left alone in async form.
    func testAFunctionDeclaredInACallbackIsAPlaceOfItsOwn() throws {
        let input = """
            import Dispatch

            final class Rooms: @unchecked Sendable {
                func create(_ name: String, completion: @escaping @Sendable (Result<String, Error>) -> Void) {
                    DispatchQueue.main.async { completion(.success(name)) }
                }

                func move(_ id: String, completion: @escaping @Sendable (Error?) -> Void) {
                    DispatchQueue.global().async { completion(nil) }
                }
            }

            final class Mover: @unchecked Sendable {
                let rooms = Rooms()

                func run(_ ids: [String], completion: @escaping @Sendable (Error?) -> Void) {
                    rooms.create("hall") { result in
                        switch result {
                        case .failure(let error):
                            completion(error)
                        case .success(let room):
                            var remaining = ids
                            func moveNext() {
                                guard !remaining.isEmpty else {
                                    completion(nil)
                                    return
                                }
                                let id = remaining.removeFirst()
                                self.rooms.move(id) { error in
                                    if let error = error {
                                        completion(error)
                                        return
                                    }
                                    print("moved \\(id) to \\(room)")
                                    moveNext()
                                }
                            }
                            moveNext()
                        }
                    }
                }
            }

            """
        for target in [MigrationTarget.promise, .async] {
            let options = MigrationOptions(target: target, stage: .all)
            let first = SourceMigrator.migrate(source: input, fileName: "Mover.swift", options: options)
            XCTAssertFalse(first.findings.contains { $0.message.contains("does not parse") }, "\(target): \(first.findings)")
            let refused = first.findings.filter { $0.kind == .callSiteRefused }.map { "\($0.line) \($0.message)" }
            if target == .async {
                // The outer callback hands `completion` on (inside the local function) off the main queue.
                XCTAssertTrue(refused.contains { $0.hasPrefix("31 ") && $0.contains("this function's own handler") }, "\(refused)")
                XCTAssertTrue(refused.contains { $0.hasPrefix("31 ") && $0.contains("the handler of the function around this local function") },
                              "\(refused)")
            } else {
                XCTAssertEqual(refused, ["23 a function declared inside a callback calls a completion-handler function (its own call site, converted on its own)"])
                XCTAssertTrue(first.output.contains("self.rooms.move(id).done(on: nil)"), first.output)
            }
            let second = SourceMigrator.migrate(source: first.output, fileName: "Mover.swift", options: options)
            XCTAssertEqual(second.output, first.output, "\(target): a second run changes the output")
        }
    }

    /// A callee answering on the queue a parameter names (`queue.async { completion(x) }`): a call
    /// naming the main queue, or leaving out a parameter whose default is it, answers there (a task
    /// on the main actor); a call naming another queue is left alone in async form, where the code
    /// after `await` would not run on it.
    func testACalleeAnsweringOnTheQueueItsCallNamesIsFollowedToThatArgument() {
        let input = """
            import Dispatch

            final class Engine: @unchecked Sendable {
                static func ping(completion: @escaping @Sendable (Bool) -> Void, on queue: DispatchQueue = .main) {
                    queue.async { completion(true) }
                }
            }

            final class Monitor: @unchecked Sendable {
                let queue = DispatchQueue(label: "monitor")

                func check() {
                    Engine.ping(completion: { ok in
                        print("default \\(ok)")
                    })
                }

                func checkOnMain() {
                    Engine.ping(completion: { ok in
                        print("main \\(ok)")
                    }, on: .main)
                }

                func checkOnOwnQueue() {
                    Engine.ping(completion: { ok in
                        print("own \\(ok)")
                    }, on: queue)
                }
            }

            """
        let result = SourceMigrator.migrate(source: input, fileName: "Monitor.swift", options: MigrationOptions(target: .async, stage: .all))
        XCTAssertEqual(result.output.components(separatedBy: "Task { @MainActor in").count - 1, 2, result.output)
        XCTAssertEqual(result.findings.filter { $0.kind == .callSiteRefused }.map { "\($0.line) \($0.message)" }, [
            "25 `ping` answers on the queue its call names (`queue`), where the callback's code ran; after `await` it would run on the "
                + "task's executor instead; `--to promise` keeps it (its handlers run `on: nil`)",
        ])
    }
}
