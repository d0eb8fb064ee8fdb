import Foundation
import VowMigrate
import XCTest

/// Links `on:` a queue other than main, as apps write them around their own worker queue: a
/// `catch(on: queue)` or `recover(on: queue)` runs its code on that queue (a block the
/// straight-line code awaits), and a queue named by a bare name (`on: queue`, a property or a
/// local) is taken in the task's capture list where the chain read it.
final class ChainQueueLinkTests: XCTestCase {
    private static let screen = #"""
        import Dispatch
        import Vow

        enum StoreError: Error {
            case failed(String)
        }

        let workKey = DispatchSpecificKey<String>()

        /// Where the code runs: the screen's worker queue, main, or elsewhere.
        func place() -> String {
            DispatchQueue.getSpecific(key: workKey) ?? "elsewhere"
        }

        /// Answers on its own queue: each operation fails or is cancelled where `plan` says.
        final class Store: @unchecked Sendable {
            var plan: [String: String] = [:]
            private let queue = DispatchQueue(label: "store")

            private func answer<T: Sendable>(_ operation: String, _ value: T) -> Promise<T> {
                let outcome = plan[operation]
                return Promise { seal in
                    queue.async {
                        switch outcome {
                        case "fail": seal.reject(StoreError.failed(operation))
                        case "cancel": seal.reject(PMKError.cancelled)
                        default: seal.fulfill(value)
                        }
                    }
                }
            }

            func load() -> Promise<[String]> { answer("load", ["milk", "eggs"]) }
        }

        nonisolated(unsafe) var finished: () -> Void = {}

        final class Screen: @unchecked Sendable {
            let store: Store
            let queue: DispatchQueue
            var failures = 0

            init(store: Store, queue: DispatchQueue) {
                self.store = store
                self.queue = queue
            }

            func show(_ text: String) {
                print("show: \(text) [\(place())]")
            }

            func counting() {
                store.load().map(on: queue) { [weak self] items in
                    self?.show("counting")
                    return items.count
                }.done { [weak self] count in
                    self?.show("\(count) items")
                    finished()
                }.catch(on: queue) { [weak self] error in
                    guard let self = self else { return }
                    self.failures += 1
                    self.show("failed \(error), \(self.failures) so far")
                    finished()
                }
            }

            func cached() {
                store.load().recover(on: queue) { error -> Promise<[String]> in
                    self.show("recovering from \(error)")
                    if case StoreError.failed = error { return .value(["cached"]) }
                    throw error
                }.done { items in
                    self.show(items.joined(separator: ","))
                    finished()
                }.catch(policy: .allErrors) { error in
                    self.show("gave up: \(error)")
                    finished()
                }
            }

            func listing() {
                store.load().done { items in
                    self.show(items.joined(separator: ","))
                }.catch { error in
                    self.show("failed \(error)")
                }.finally(on: queue) {
                    self.show("spinner off")
                    finished()
                }
            }

            func countingOrNone() {
                store.load().map { items in
                    items.count
                }.recover(on: queue) { _ -> Guarantee<Int> in
                    self.show("no count")
                    return .value(0)
                }.done { count in
                    self.show("count \(count)")
                    finished()
                }
            }
        }

        """#

    private static let driver = #"""
        import Dispatch
        import Foundation
        import Vow

        let steps: [(String, [String: String], @Sendable (Screen) -> Void)] = [
            ("counting", [:], { $0.counting() }),
            ("counting fails", ["load": "fail"], { $0.counting() }),
            ("cached", [:], { $0.cached() }),
            ("cached after a failure", ["load": "fail"], { $0.cached() }),
            ("cached after a cancellation", ["load": "cancel"], { $0.cached() }),
            ("listing", [:], { $0.listing() }),
            ("listing fails", ["load": "fail"], { $0.listing() }),
            ("listing cancelled", ["load": "cancel"], { $0.listing() }),
            ("counting or none", [:], { $0.countingOrNone() }),
            ("counting or none after a failure", ["load": "fail"], { $0.countingOrNone() }),
            ("counting or none after a cancellation", ["load": "cancel"], { $0.countingOrNone() }),
        ]

        DispatchQueue.main.setSpecific(key: workKey, value: "main")
        let work = DispatchQueue(label: "work")
        work.setSpecific(key: workKey, value: "work")

        """# + ProgramBuilding.stepRunner(makeScreen: "Screen(store: store, queue: work)")

    func testLinksOnTheScreensQueueRunThereAndTheProgramPrintsTheSame() throws {
        let program = try ProgramBuilding.ScreenProgram(screen: Self.screen, driver: Self.driver, in: try TestSupport.temporaryDirectory(self))
        let expected = try program.runOriginal()
        // (`PMKError.cancelled` describes itself as PromiseKit's does.)
        XCTAssertEqual(expected, """
            == counting
            show: counting [work]
            show: 2 items [main]
            == counting fails
            show: failed failed("load"), 1 so far [work]
            == cached
            show: milk,eggs [main]
            == cached after a failure
            show: recovering from failed("load") [work]
            show: cached [main]
            == cached after a cancellation
            show: gave up: The asynchronous sequence was cancelled [main]
            == listing
            show: milk,eggs [main]
            show: spinner off [work]
            == listing fails
            show: failed failed("load") [main]
            show: spinner off [work]
            == listing cancelled
            show: spinner off [work]
            == counting or none
            show: count 2 [main]
            == counting or none after a failure
            show: no count [work]
            show: count 0 [main]
            == counting or none after a cancellation
            show: no count [work]
            show: count 0 [main]

            """)

        let (result, code) = try program.migrate()
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertFalse(result.standardError.contains("call site left alone"), result.standardError)
        XCTAssertFalse(code.contains(".catch"), code)
        // The queue the chain read, taken where it read it; the handler's weak capture on its block.
        XCTAssertTrue(code.contains("Task { @MainActor [weak self, queue] in"), code)
        XCTAssertTrue(code.contains("""
                            await queue.async(.promise) { [weak self] in
                                guard let self = self else { return }
            """), code)
        // The recover's code on the queue, typed as its handler was; cancellations passed on first.
        XCTAssertTrue(code.contains("""
                            if error.isCancelled { throw error }
                            _ = try await queue.async(.promise) { () throws -> Promise<[String]> in
            """) || code.contains("return try await queue.async(.promise) { () throws -> Promise<[String]> in"), code)
        XCTAssertTrue(code.contains("""
                        defer {
                            queue.async {
                                self.show("spinner off")
            """), code)
        XCTAssertEqual(try program.runMigrated(), expected)
        XCTAssertEqual(try program.checkAgain().status, 0)
    }

    func testReturnedChainsKeepTheirQueuesUnderReplace() throws {
        let input = #"""
            import Dispatch
            import Vow

            struct History: Sendable {
                static let empty = History(points: 0)
                var points: Int
            }

            enum Network {
                static func points() -> Promise<Int> { .value(3) }
            }

            final class Fetcher: @unchecked Sendable {
                static let queue = DispatchQueue(label: "tickers")
                let queue = DispatchQueue(label: "balances")

                func history() -> Promise<History> {
                    firstly {
                        Network.points()
                    }.map(on: Fetcher.queue, { points -> History in
                        History(points: points)
                    }).recover(on: Fetcher.queue, { _ -> Promise<History> in
                        .value(.empty)
                    })
                }

                func positive() -> Promise<Bool?> {
                    return Network.points().then(on: queue, { points -> Promise<Bool?> in
                        .value(points > 0)
                    }).recover(on: queue, { _ -> Guarantee<Bool?> in
                        return .value(nil)
                    })
                }

                func logged() -> Promise<Int> {
                    Network.points().recover(on: queue) { _ in
                        Network.points()
                    }
                }
            }

            """#
        let result = SourceMigrator.migrate(source: input, fileName: "Fetcher.swift",
                                            options: MigrationOptions(target: .async, replace: true, stage: .all))
        XCTAssertTrue(result.output.contains("""
                @MainActor func positive() async throws -> Bool? {
                    do {
                        let points = try await Network.points()
                        return try await queue.async(.promise) { () -> Promise<Bool?> in
                            .value(points > 0)
                        }.value.value
                    } catch {
                        return await queue.async(.promise) { () -> Guarantee<Bool?> in
                            return .value(nil)
                        }.value.value
                    }
                }
            """), result.output)
        XCTAssertTrue(result.output.contains("""
                    } catch {
                        // `recover` passed cancellations on (its default policy).
                        if error.isCancelled { throw error }
                        return try await Fetcher.queue.async(.promise) { () -> Promise<History> in
                            .value(.empty)
                        }.value.value
                    }
            """), result.output)
        // Without its return type, the form (and so the errors it sees) does not show.
        XCTAssertEqual(result.findings.filter { $0.kind == .callSiteRefused }.map(\.message), [
            "a `recover` on another queue without its return type: syntax cannot tell its form; write it (`-> Promise<T>`)",
        ])
        XCTAssertNil(try TestSupport.typecheck(result.output, as: "Fetcher.swift", self))
    }

    /// Without `--replace` a returned chain becomes the code of Vow's bridge, an escaping closure:
    /// a bare `on: queue` is taken in the bridge's capture list where the chain was built, a
    /// property or a local alike. A `recover` naming its error `e` and calling a global
    /// `error(value:)` logger converts to `catch let e`: the block's implicit `error` would hide
    /// the logger.
    func testReturnedChainsBridgedTakeTheirQueueInTheBridgesCaptureList() throws {
        let input = #"""
            import Dispatch
            import Vow

            func error(value: Error) {
                print("logged \(value)")
            }

            enum Network {
                static func points() -> Promise<Int> { .value(3) }
            }

            final class Fetcher: @unchecked Sendable {
                let queue = DispatchQueue(label: "balances")

                func positive() -> Promise<Bool?> {
                    return Network.points().then(on: queue, { points -> Promise<Bool?> in
                        .value(points > 0)
                    }).recover(on: queue, { _ -> Guarantee<Bool?> in
                        return .value(nil)
                    })
                }

                func scaled(by factor: Int) -> Promise<Int> {
                    let worker = DispatchQueue(label: "scaling")
                    return Network.points().map(on: worker) { points in
                        points * factor
                    }
                }

                func logged() -> Promise<Int> {
                    Network.points().recover(on: queue, { e -> Promise<Int> in
                        error(value: e)
                        throw e
                    })
                }
            }

            """#
        let result = SourceMigrator.migrate(source: input, fileName: "Fetcher.swift", options: MigrationOptions(target: .async, stage: .all))
        XCTAssertTrue(result.output.contains("""
                    return Promise { @MainActor @Sendable [queue] in
                        do {
                            let points = try await pointsPromise.value
                            return try await queue.async(.promise) { () -> Promise<Bool?> in
            """), result.output)
        XCTAssertTrue(result.output.contains("return Promise { @MainActor @Sendable [worker] in"), result.output)
        XCTAssertEqual(result.findings.filter { $0.kind == .callSiteRefused }.map(\.message), [])
        // The `catch` block binds the handler's own name: its implicit `error` would hide the logger.
        XCTAssertTrue(result.output.contains("""
                        } catch let e {
                            // `recover` passed cancellations on (its default policy).
                            if e.isCancelled { throw e }
                            return try await queue.async(.promise) { () throws -> Promise<Int> in
                                error(value: e)
                                throw e
            """), result.output)
        XCTAssertNil(try TestSupport.typecheck(result.output, as: "Fetcher.swift", self))
    }
}
