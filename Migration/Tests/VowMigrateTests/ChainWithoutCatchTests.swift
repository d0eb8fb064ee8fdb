import Foundation
import VowMigrate
import XCTest

/// Promise chains without a `catch` (`_ = load().done { }`, `.done { }.ensure { }`, a guarantee's
/// `done`, such a chain nested in another's last `done`) become straight-line code in a task whose
/// `catch` makes the report Vow made of the rejection nothing handled, and skips cancellations as
/// Vow did: the program prints what it printed before, each step succeeding, failing and cancelled.
final class ChainWithoutCatchTests: XCTestCase {
    private static let screen = #"""
        import Dispatch
        import Vow

        enum StoreError: Error {
            case failed(String)
        }

        /// Answers on its own queue, once the main queue's current work is over (so that a rejection
        /// nothing handles, reported on that queue, comes after the code that follows the call):
        /// each operation fails or is cancelled where `plan` says.
        final class Store: @unchecked Sendable {
            var plan: [String: String] = [:]
            let queue = DispatchQueue(label: "store")

            private func later(_ body: @escaping @Sendable () -> Void) {
                DispatchQueue.main.async { self.queue.async(execute: body) }
            }

            private func answer<T: Sendable>(_ operation: String, _ value: T) -> Promise<T> {
                let outcome = plan[operation]
                return Promise { seal in
                    later {
                        switch outcome {
                        case "fail": seal.reject(StoreError.failed(operation))
                        case "cancel": seal.reject(PMKError.cancelled)
                        default: seal.fulfill(value)
                        }
                    }
                }
            }

            func load() -> Promise<[String]> { answer("load", ["milk", "eggs"]) }
            func save() -> Promise<Void> { answer("save", ()) }
            func count() -> Guarantee<Int> { Guarantee { seal in later { seal(3) } } }
        }

        nonisolated(unsafe) var finished: () -> Void = {}

        final class Screen: @unchecked Sendable {
            let store: Store

            init(store: Store) {
                self.store = store
            }

            func show(_ text: String) {
                print("show:", text)
            }

            func saving() {
                _ = store.save().done {
                    self.show("saved")
                    finished()
                }
                show("saving")
            }

            func loadingWithSpinner() {
                show("spinner on")
                _ = store.load().map { items in
                    items.count
                }.done { count in
                    self.show("\(count) items")
                }.ensure {
                    self.show("spinner off")
                    finished()
                }
            }

            func counting() {
                store.count().done { count in
                    self.show("count \(count)")
                    finished()
                }
            }

            func loadingThenSaving() {
                firstly {
                    store.load()
                }.done { items in
                    self.show(items.joined(separator: ","))
                    _ = self.store.save().done {
                        self.show("saved after loading")
                        finished()
                    }
                }.catch { error in
                    self.show("load failed: \(error)")
                    finished()
                }
            }
        }
        """#

    private static let driver = #"""
        import Dispatch
        import Foundation
        import Vow

        // A scenario ends with its screen's last effect, or with the report of a rejection nothing handled.
        let steps: [(String, [String: String], @Sendable (Screen) -> Void)] = [
            ("saving", [:], { $0.saving() }),
            ("saving fails", ["save": "fail"], { $0.saving() }),
            ("loading", [:], { $0.loadingWithSpinner() }),
            ("loading fails", ["load": "fail"], { $0.loadingWithSpinner() }),
            ("loading cancelled", ["load": "cancel"], { $0.loadingWithSpinner() }),
            ("counting", [:], { $0.counting() }),
            ("loading then saving", [:], { $0.loadingThenSaving() }),
            ("loading fails before saving", ["load": "fail"], { $0.loadingThenSaving() }),
            ("saving fails after loading", ["save": "fail"], { $0.loadingThenSaving() }),
        ]
        nonisolated(unsafe) var next = 0

        func runNext() {
            guard next < steps.count else { exit(0) }
            let (title, plan, body) = steps[next]
            next += 1
            print("==", title)
            let store = Store()
            store.plan = plan
            // The failing `loading` prints "spinner off", then the report: only the last goes on.
            let waitsForReport = title == "loading fails"
            finished = waitsForReport ? {} : { DispatchQueue.main.async { runNext() } }
            body(Screen(store: store))
        }

        conf.unhandledRejectionHandler = { rejection in
            print("unhandled:", rejection.error)
            DispatchQueue.main.async { runNext() }
        }
        DispatchQueue.main.async { runNext() }
        dispatchMain()
        """#

    func testChainsWithoutCatchReportTheirRejectionAsVowDidAndTheProgramPrintsTheSame() throws {
        let program = try ProgramBuilding.ScreenProgram(screen: Self.screen, driver: Self.driver, in: try TestSupport.temporaryDirectory(self))
        let expected = try program.runOriginal()
        XCTAssertEqual(expected, """
            == saving
            show: saving
            show: saved
            == saving fails
            show: saving
            unhandled: failed("save")
            == loading
            show: spinner on
            show: 2 items
            show: spinner off
            == loading fails
            show: spinner on
            show: spinner off
            unhandled: failed("load")
            == loading cancelled
            show: spinner on
            show: spinner off
            == counting
            show: count 3
            == loading then saving
            show: milk,eggs
            show: saved after loading
            == loading fails before saving
            show: load failed: failed("load")
            == saving fails after loading
            show: milk,eggs
            unhandled: failed("save")

            """)

        let (result, code) = try program.migrate()
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(result.standardError.contains("4 call sites converted, 0 left alone"), result.standardError)
        XCTAssertEqual(code.components(separatedBy: "conf.unhandledRejectionHandler(UnhandledRejection(error: error, creationSite: nil))").count - 1,
                       3, code)
        XCTAssertFalse(code.contains(".done"), code)
        XCTAssertTrue(code.contains("""
                    Task { @MainActor in
                        let count = await countPromise.value
                        self.show("count \\(count)")
            """), code)
        XCTAssertEqual(try program.runMigrated(), expected)
        let again = try program.checkAgain()
        XCTAssertEqual(again.status, 0, again.standardOutput)
    }

    /// A closure of one statement returns its value: `ensureThen { load().done { } }` hands the
    /// chain's promise to `ensureThen`, so that chain is not a statement and stays. A bare
    /// `x.done { }` of a type that is no promise is no chain at all.
    func testAChainAClosureReturnsAndADoneOfAnotherTypeStayAsTheyAre() {
        let input = """
            import Vow

            final class Progress {
                func done(_ body: @escaping () -> Void) {}
                func step() -> Progress { self }
            }

            final class Screen: @unchecked Sendable {
                let progress = Progress()
                var text = ""

                func suggestion() -> Guarantee<String> { .value("try eggs") }
                func load() -> Promise<Int> { .value(1) }

                func refresh() {
                    load().done { count in
                        self.text = "\\(count)"
                    }.ensureThen {
                        self.suggestion().done { suggestion in
                            self.text += suggestion
                        }
                    }.catch { _ in }
                }

                func finish() {
                    progress.step().done {
                        self.text = "done"
                    }
                }
            }

            """
        let result = SourceMigrator.migrate(source: input, fileName: "Screen.swift", options: MigrationOptions(target: .async, stage: .callSites))
        let converted = result.findings.filter { $0.kind == .callSiteConverted }.map(\.function)
        XCTAssertEqual(converted, ["refresh()"])
        XCTAssertEqual(result.findings.filter { $0.kind == .callSiteRefused }.map(\.message), [])
        XCTAssertTrue(result.output.contains("""
                    }.ensureThen {
                        self.suggestion().done { suggestion in
            """), result.output)
        XCTAssertTrue(result.output.contains("progress.step().done {"), result.output)

        // Run again over its own output, the chain inside `ensureThen` is found, and left alone.
        let again = SourceMigrator.migrate(source: result.output, fileName: "Screen.swift", options: MigrationOptions(target: .async, stage: .callSites))
        XCTAssertEqual(again.output, result.output)
        XCTAssertEqual(again.findings.filter { $0.kind == .callSiteRefused }.map(\.message), [
            "the chain is the only statement of a closure, which returns its promise (`ensureThen { }`, `then { }` use it); "
                + "write `_ = ` before it where the closure returns nothing",
        ])
    }
}
