import Foundation
import VowMigrate
import XCTest

/// Chains a function returns (`return store.load().map { ... }.ensure { ... }`): the function
/// keeps its promise type, its first call is still made at once, and the links become
/// straight-line code in Vow's `Promise { @MainActor @Sendable in }` bridge. The program prints
/// what it printed before, each step succeeding, failing and cancelled, callers chaining on
/// the returned promises as before.
final class ReturnedChainTests: XCTestCase {
    private static let screen = #"""
        import Dispatch
        import Vow

        enum StoreError: Error {
            case failed(String)
        }

        /// Answers on its own queue: each operation fails or is cancelled where `plan` says.
        final class Store: @unchecked Sendable {
            var plan: [String: String] = [:]
            let queue = DispatchQueue(label: "store")

            func answer<T: Sendable>(_ operation: String, _ value: T) -> Promise<T> {
                print("start:", operation)
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
        }

        /// The repository: every function returns a chain.
        final class Repository: @unchecked Sendable {
            let store: Store
            var cached: [String] = []

            init(store: Store) {
                self.store = store
            }

            func show(_ text: String) {
                print("repository:", text)
            }

            /// `then`, `map`, `get` and `ensure`.
            func basket() -> Promise<Int> {
                return store.answer("items", ["milk", "eggs"]).then { items -> Promise<[Int]> in
                    self.show("\(items.count) items")
                    return self.store.answer("prices", items.map { $0.count * 10 })
                }.map { prices in
                    prices.reduce(0, +)
                }.get { total in
                    self.show("total \(total)")
                }.ensure {
                    self.show("basket done")
                }
            }

            /// `recover` with a fallback, then a `map`: the value the function returns.
            func suggestions() -> Promise<[String]> {
                firstly {
                    store.answer("suggestions", ["tea"])
                }.recover { error -> Promise<[String]> in
                    self.show("no suggestions: \(error)")
                    return .value(["bread"])
                }.map { list in
                    list.map { $0.uppercased() }
                }
            }

            /// `recover` rethrowing what it does not handle, as the last link.
            func coupon(_ code: String) -> Promise<String> {
                return store.answer("coupon", code).recover { error -> Promise<String> in
                    switch error {
                    case StoreError.failed: throw StoreError.failed("coupon \(code)")
                    default: throw error
                    }
                }
            }

            /// A guarantee, from a `recover` that handles every error.
            func points() -> Guarantee<Int> {
                return store.answer("points", 120).recover { _ in
                    Guarantee.value(0)
                }
            }

            /// An array's `map` in a function returning a promise: not a chain.
            func names() -> Promise<[String]> {
                return Promise.value(cached.map { $0.uppercased() })
            }
        }

        nonisolated(unsafe) var finished: () -> Void = {}

        final class Screen: @unchecked Sendable {
            let repository: Repository

            init(repository: Repository) {
                self.repository = repository
            }

            func show(_ text: String) {
                print("show:", text)
            }

            func loadBasket() {
                repository.basket().done { total in
                    self.show("basket \(total)")
                }.catch(policy: .allErrors) { error in
                    self.show("basket failed: \(error)")
                }.finally {
                    finished()
                }
                show("loading")
            }

            func loadEverything() {
                when(fulfilled: repository.suggestions(), repository.coupon("SAVE")).done { suggestions, coupon in
                    self.show("\(suggestions) with \(coupon)")
                }.catch(policy: .allErrors) { error in
                    self.show("failed: \(error)")
                }.finally {
                    finished()
                }
            }

            func loadPoints() {
                repository.points().done { points in
                    self.show("\(points) points")
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
            ("basket", [:], { $0.loadBasket() }),
            ("basket, items fail", ["items": "fail"], { $0.loadBasket() }),
            ("basket, prices fail", ["prices": "fail"], { $0.loadBasket() }),
            ("basket, prices cancelled", ["prices": "cancel"], { $0.loadBasket() }),
            ("everything", [:], { $0.loadEverything() }),
            ("everything, suggestions fail", ["suggestions": "fail"], { $0.loadEverything() }),
            ("everything, suggestions cancelled", ["suggestions": "cancel"], { $0.loadEverything() }),
            ("everything, coupon fails", ["coupon": "fail"], { $0.loadEverything() }),
            ("everything, coupon cancelled", ["coupon": "cancel"], { $0.loadEverything() }),
            ("points", [:], { $0.loadPoints() }),
            ("points fail", ["points": "fail"], { $0.loadPoints() }),
        ]
        nonisolated(unsafe) var next = 0

        func runNext() {
            guard next < steps.count else { exit(0) }
            let (title, plan, body) = steps[next]
            next += 1
            print("==", title)
            let store = Store()
            store.plan = plan
            // The step is over once the main queue is quiet after its last effect.
            finished = { DispatchQueue.main.async { DispatchQueue.main.async { DispatchQueue.main.async { runNext() } } } }
            body(Screen(repository: Repository(store: store)))
        }

        DispatchQueue.main.async { runNext() }
        dispatchMain()
        """#

    func testReturnedChainsBecomeStraightLineCodeInThePromiseBridgeAndTheProgramPrintsTheSame() throws {
        let program = try ProgramBuilding.ScreenProgram(screen: Self.screen, driver: Self.driver, in: try TestSupport.temporaryDirectory(self))
        let expected = try program.runOriginal()
        XCTAssertTrue(expected.hasPrefix("""
            == basket
            start: items
            show: loading
            repository: 2 items
            start: prices
            repository: total 80
            repository: basket done
            show: basket 80
            == basket, items fail
            start: items
            show: loading
            repository: basket done
            show: basket failed: failed("items")

            """), expected)
        XCTAssertTrue(expected.contains("repository: no suggestions: failed(\"suggestions\")\nshow: [\"BREAD\"] with SAVE\n"), expected)
        XCTAssertTrue(expected.contains("== everything, coupon fails\nstart: suggestions\nstart: coupon\nshow: failed: failed(\"coupon SAVE\")\n"), expected)
        XCTAssertTrue(expected.hasSuffix("== points fail\nstart: points\nshow: 0 points\n"), expected)

        let (result, code) = try program.migrate()
        XCTAssertEqual(result.status, 0, result.standardError)
        for written in ["""
                    let itemsPromise = store.answer("items", ["milk", "eggs"])
                    return Promise { @MainActor @Sendable in
                        defer {
                            self.show("basket done")
                        }
                        let items = try await itemsPromise.value
            """, """
                    let firstPromise = store.answer("points", 120)
                    return Guarantee { @MainActor @Sendable in
            """, "return Promise.value(cached.map { $0.uppercased() })"] {
            XCTAssertTrue(code.contains(written), written + "\n---\n" + code)
        }
        XCTAssertTrue(result.standardError.contains("converted a promise chain the function returns"), result.standardError)
        XCTAssertEqual(try program.runMigrated(), expected)
        let again = try program.checkAgain()
        XCTAssertEqual(again.status, 0, again.standardOutput)
    }
}

extension ReturnedChainTests {
    /// Returned chains the bridge would not keep, each left alone with its reason; and what is
    /// no chain at all.
    func testReturnedChainsTheBridgeWouldNotKeepAreLeftAloneWithTheirReasons() {
        let input = """
            import Dispatch
            import Vow

            final class Store: Sendable {
                func load() -> Promise<[Int]> { .value([1, 2]) }
                func count() -> Guarantee<Int> { .value(2) }
            }

            extension Promise {
                // Starts on the promise it is called on, which callers may share.
                func logged() -> Promise<T> {
                    map { $0 }.ensure { print("settled") }
                }
            }

            final class Repository: @unchecked Sendable {
                let store = Store()
                var numbers: [Int] = []

                func inBackground() -> Promise<Int> {
                    return store.load().map { $0.count }.ensure(on: DispatchQueue.global()) { print("counted") }
                }

                func doubledCount() -> Guarantee<Int> {
                    return store.count().map { $0 * 2 }
                }

                func doubled() -> Promise<[Int]> {
                    return Promise.value(numbers.map { $0 * 2 })
                }

                func mapped() -> Promise<[Int]> {
                    return store.load().map { numbers in numbers.map { $0 * 2 } }
                }
            }

            """
        let migration = SourceMigrator.migrate(source: input, fileName: "Repository.swift", options: MigrationOptions(target: .async, stage: .callSites))
        let findings = migration.findings.filter { $0.kind == .callSiteRefused || $0.kind == .callSiteConverted }.map {
            "\($0.line) \($0.function): " + ($0.kind == .callSiteConverted ? "converted" : $0.message)
        }
        XCTAssertEqual(findings, [
            "12 logged(): its first promise is `self`, the promise this method is called on, which other chains may wait on too: "
                + "their links take turns on the main queue, which one task's straight-line code would not",
            "21 inBackground(): a chain link with `on: DispatchQueue.global()`: only the default queue (main) is converted",
            "25 doubledCount(): converted",
            "33 mapped(): converted",
        ])
        XCTAssertTrue(migration.output.contains("return Guarantee { @MainActor @Sendable in\n            let value = await firstPromise.value"), migration.output)
        XCTAssertTrue(migration.output.contains("return Promise.value(numbers.map { $0 * 2 })"), migration.output)
    }
}
