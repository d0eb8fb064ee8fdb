import Foundation
import VowMigrate
import XCTest

/// A `map` or `then` in the middle of a chain whose handler leaves early with its value, as app
/// code does around a weakly held screen (`guard let self else { return [] }`, `if offline {
/// return [] }`, `return .value(x)` before the last line): its code becomes a closure called at
/// once, whose `return`s give the value as the handler's did, so the rest of the chain still runs.
final class ChainEarlyReturnTests: XCTestCase {
    private static let screen = #"""
        import Dispatch
        import Vow

        enum StoreError: Error {
            case failed(String)
        }

        /// Answers on its own queue: each operation fails where `plan` says.
        final class Store: @unchecked Sendable {
            var plan: [String: String] = [:]
            private let queue = DispatchQueue(label: "store")

            private func answer<T: Sendable>(_ operation: String, _ value: T) -> Promise<T> {
                let outcome = plan[operation]
                return Promise { seal in
                    queue.async {
                        if outcome == "fail" { seal.reject(StoreError.failed(operation)) } else { seal.fulfill(value) }
                    }
                }
            }

            func events() -> Promise<[Int]> { answer("events", [3, 1, 2]) }
            func cached() -> Promise<[String]> { answer("cached", ["cached"]) }
            func rows(for events: [Int]) -> Promise<[String]> { answer("rows", events.map { "row\($0)" }) }
        }

        nonisolated(unsafe) var finished: () -> Void = {}

        final class Screen: @unchecked Sendable {
            let store: Store
            var offline = false
            var limit = 5

            init(store: Store) {
                self.store = store
            }

            func show(_ text: String) {
                print("show: \(text)")
            }

            func refresh() {
                store.events().map { [weak self] events -> [Int] in
                    guard let self = self else { return [] }
                    if self.offline { return [] }
                    return events.sorted()
                }.then { [weak self] sorted -> Promise<[String]> in
                    guard let self else { return .value(["gone"]) }
                    if sorted.isEmpty {
                        return .value([])
                    }
                    if sorted.count > self.limit { return self.store.cached() }
                    return self.store.rows(for: sorted)
                }.done { [weak self] rows in
                    print("rows: \(rows.joined(separator: ","))")
                    self?.show("\(rows.count) rows")
                    finished()
                }.catch { error in
                    print("failed \(error)")
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
            ("refresh", [:], { $0.refresh() }),
            ("offline", [:], { $0.offline = true; $0.refresh() }),
            ("too many", [:], { $0.limit = 1; $0.refresh() }),
            ("events fail", ["events": "fail"], { $0.refresh() }),
            ("rows fail", ["rows": "fail"], { $0.refresh() }),
            ("cached fails", ["cached": "fail"], { $0.limit = 1; $0.refresh() }),
            ("screen gone", [:], { $0.refresh(); screen = nil }),
        ]

        """# + ProgramBuilding.stepRunner(makeScreen: "Screen(store: store)")

    func testHandlersLeavingEarlyInTheMiddleKeepTheirAnswersAndTheProgramPrintsTheSame() throws {
        let program = try ProgramBuilding.ScreenProgram(screen: Self.screen, driver: Self.driver, in: try TestSupport.temporaryDirectory(self))
        let expected = try program.runOriginal()
        XCTAssertEqual(expected, """
            == refresh
            rows: row1,row2,row3
            show: 3 rows
            == offline
            rows: 
            show: 0 rows
            == too many
            rows: cached
            show: 1 rows
            == events fail
            failed failed("events")
            == rows fail
            failed failed("rows")
            == cached fails
            failed failed("cached")
            == screen gone
            rows: gone

            """)

        let (result, code) = try program.migrate()
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertFalse(result.standardError.contains("call site left alone"), result.standardError)
        XCTAssertTrue(code.contains("""
                            let sorted = { () -> [Int] in
                                guard let self = self else { return [] }
                                if self.offline { return [] }
                                return events.sorted()
                            }()
            """), code)
        XCTAssertTrue(code.contains("""
                            let rows = try await { () async throws -> [String] in
                                guard let self else { return ["gone"] }
                                if sorted.isEmpty {
                                    return []
                                }
                                if sorted.count > self.limit { return try await self.store.cached().value }
                                return try await self.store.rows(for: sorted).value
                            }()
            """), code)
        XCTAssertEqual(try program.runMigrated(), expected)
        XCTAssertEqual(try program.checkAgain().status, 0)
    }

    /// A value nothing after it reads is evaluated and discarded (`_ = { ... }()`), not named (an
    /// unused-value warning); the output typechecks without one.
    func testAnEarlyLeavingHandlersValueNothingReadsIsDiscarded() throws {
        let input = """
            import Vow

            final class Screen: @unchecked Sendable {
                var offline = false
                var shown = 0

                func events() -> Promise<[Int]> { .value([3, 1]) }

                func refresh() {
                    events().map { [weak self] events -> [Int] in
                        guard let self else { return [] }
                        if self.offline { return [] }
                        return events.sorted()
                    }.done { [weak self] _ in
                        self?.shown += 1
                    }.catch { _ in }
                }
            }

            """
        let result = SourceMigrator.migrate(source: input, fileName: "Screen.swift", options: MigrationOptions(target: .async, stage: .callSites))
        XCTAssertEqual(result.findings.filter { $0.kind == .callSiteConverted }.count, 1, "\(result.findings)")
        XCTAssertTrue(result.output.contains("_ = { () -> [Int] in"), result.output)
        XCTAssertNil(try TestSupport.typecheck(result.output, as: "Screen.swift", self))
    }

    /// A store answering the size of a key later on its own queue (or failing, as `plan` says),
    /// and the opening of a screen holding it: the tests below add the screen's methods and `}`.
    static let storeAndScreen = #"""
            import Dispatch
            import Vow

            enum StoreError: Error {
                case failed(String)
            }

            final class Store: @unchecked Sendable {
                var plan: [String: String] = [:]
                private let queue = DispatchQueue(label: "store")

                func size(of key: String) -> Promise<Int> {
                    let outcome = plan[key]
                    return Promise { seal in
                        queue.async {
                            if outcome == "fail" { seal.reject(StoreError.failed(key)) } else { seal.fulfill(key.count) }
                        }
                    }
                }
            }

            nonisolated(unsafe) var finished: () -> Void = {}

            final class Screen: @unchecked Sendable {
                let store: Store
                var key = "abcd"

                init(store: Store) {
                    self.store = store
                }


            """#

    /// A `map` that leaves early and declares no type, in a chain a function returns: every link
    /// after it keeps its value, so its type is the `T` of the function's `Promise<T>`, and its
    /// code becomes a closure called at once of that type, both where `--replace` makes the
    /// function async and where the function keeps its promise (public: the chain runs in Vow's
    /// bridge). The program prints the same.
    func testAnUntypedMapLeavingEarlyTakesTheTypeOfThePromiseTheFunctionReturns() throws {
        let screen = Self.storeAndScreen + #"""
                func count() -> Promise<Int> {
                    store.size(of: key).map { size in
                        guard size > 2 else { return 0 }
                        print("long \(size)")
                        return size * 10
                    }.get { value in
                        print("count \(value)")
                    }
                }

                public func label(_ count: Int) -> Promise<String> {
                    store.size(of: "label").map { size in
                        if count == 0 { return "none" }
                        return "\(count)/\(size)"
                    }.ensure {
                        print("label done")
                    }
                }

                func refresh() {
                    count().then { count in
                        self.label(count)
                    }.done { text in
                        print("shown \(text)")
                        finished()
                    }.catch { error in
                        print("failed \(error)")
                        finished()
                    }
                }
            }

            """#
        let driver = #"""
            import Dispatch
            import Foundation
            import Vow

            let steps: [(String, [String: String], @Sendable (Screen) -> Void)] = [
                ("long", [:], { $0.refresh() }),
                ("short", [:], { $0.key = "ab"; $0.refresh() }),
                ("count fails", ["abcd": "fail"], { $0.refresh() }),
                ("label fails", ["label": "fail"], { $0.refresh() }),
            ]

            """# + ProgramBuilding.stepRunner(makeScreen: "Screen(store: store)")
        let program = try ProgramBuilding.ScreenProgram(screen: screen, driver: driver, in: try TestSupport.temporaryDirectory(self),
                                                        arguments: ["--to", "async", "--stage", "all", "--replace"])
        let expected = try program.runOriginal()
        XCTAssertEqual(expected, """
            == long
            long 4
            count 40
            label done
            shown 40/5
            == short
            count 0
            label done
            shown none
            == count fails
            failed failed("abcd")
            == label fails
            long 4
            count 40
            label done
            failed failed("label")

            """)
        let (result, code) = try program.migrate()
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertFalse(result.standardError.contains("leaves early"), result.standardError)
        XCTAssertTrue(code.contains("func count() async throws -> Int {"), code)
        XCTAssertTrue(code.contains("""
                    let value = { () -> Int in
                        guard size > 2 else { return 0 }
            """), code)
        XCTAssertTrue(code.contains("public func label(_ count: Int) -> Promise<String> {"), code)
        XCTAssertTrue(code.contains("""
                        return { () -> String in
                            if count == 0 { return "none" }
            """), code)
        XCTAssertEqual(try program.runMigrated(), expected)
        XCTAssertEqual(try program.checkAgain().status, 0)
    }

    /// home-assistant's webhook handler: a `map` declaring no type leaves early with `nil`, and
    /// the `recover` right after it says the type (`_ -> Guarantee<UNNotificationRequest?>`): its
    /// code becomes a closure called at once of that type. The program prints the same.
    func testAnUntypedMapLeavingEarlyTakesTheTypeTheRecoverAfterItDeclares() throws {
        let screen = Self.storeAndScreen + #"""
                func note() -> Guarantee<String> {
                    store.size(of: key).map { size in
                        guard size > 2 else {
                            return nil
                        }
                        print("long \(size)")
                        return "n\(size)"
                    }.recover { _ -> Guarantee<String?> in
                        // nothing to note for a failure
                        .value(nil)
                    }.map { text in
                        "note \(text ?? "none")"
                    }
                }

                func refresh() {
                    note().done { text in
                        print("shown \(text)")
                        finished()
                    }
                }
            }

            """#
        let driver = #"""
            import Dispatch
            import Foundation
            import Vow

            let steps: [(String, [String: String], @Sendable (Screen) -> Void)] = [
                ("long", [:], { $0.refresh() }),
                ("short", [:], { $0.key = "ab"; $0.refresh() }),
                ("fails", ["abcd": "fail"], { $0.refresh() }),
            ]

            """# + ProgramBuilding.stepRunner(makeScreen: "Screen(store: store)")
        let program = try ProgramBuilding.ScreenProgram(screen: screen, driver: driver, in: try TestSupport.temporaryDirectory(self),
                                                        arguments: ["--to", "async", "--stage", "all", "--replace"])
        let expected = try program.runOriginal()
        XCTAssertEqual(expected, """
            == long
            long 4
            shown note n4
            == short
            shown note none
            == fails
            shown note none

            """)
        let (result, code) = try program.migrate()
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertFalse(result.standardError.contains("leaves early"), result.standardError)
        XCTAssertTrue(code.contains("{ () -> String? in"), code)
        XCTAssertEqual(try program.runMigrated(), expected)
        XCTAssertEqual(try program.checkAgain().status, 0)
    }

    /// home-assistant's attachment download: a `recover` whose last statement is an `if` (and an
    /// `#if` inside it) leaving on every path, by `throw` or by `return try .value(x)`. Each
    /// `return` answers as the handler did (`return try x`) in the function made async; the
    /// program prints the same.
    func testARecoverLeavingOnEveryPathOfItsLastIfAnswersWithItsReturns() throws {
        let screen = Self.storeAndScreen + #"""
                func fallback(for error: Error) throws -> String {
                    guard case StoreError.failed(let key) = error, key != "none" else { throw error }
                    return "fallback \(key)"
                }

                func image() -> Promise<String> {
                    store.size(of: key).map { size in
                        "image \(size)"
                    }.recover { error throws -> Promise<String> in
                        if case StoreError.failed("label") = error {
                            throw error
                        } else {
                            #if compiler(>=5.9)
                            return try .value(self.fallback(for: error))
                            #else
                            throw error
                            #endif
                        }
                    }
                }

                func refresh() {
                    image().done { text in
                        print("shown \(text)")
                        finished()
                    }.catch { error in
                        print("failed \(error)")
                        finished()
                    }
                }
            }

            """#
        let driver = #"""
            import Dispatch
            import Foundation
            import Vow

            let steps: [(String, [String: String], @Sendable (Screen) -> Void)] = [
                ("found", [:], { $0.refresh() }),
                ("recovered", ["abcd": "fail"], { $0.refresh() }),
                ("passed on", ["label": "fail"], { $0.key = "label"; $0.refresh() }),
                ("fallback fails", ["none": "fail"], { $0.key = "none"; $0.refresh() }),
            ]

            """# + ProgramBuilding.stepRunner(makeScreen: "Screen(store: store)")
        let program = try ProgramBuilding.ScreenProgram(screen: screen, driver: driver, in: try TestSupport.temporaryDirectory(self),
                                                        arguments: ["--to", "async", "--stage", "all", "--replace"])
        let expected = try program.runOriginal()
        XCTAssertEqual(expected, """
            == found
            shown image 4
            == recovered
            shown fallback abcd
            == passed on
            failed failed("label")
            == fallback fails
            failed failed("none")

            """)
        let (result, code) = try program.migrate()
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertFalse(result.standardError.contains("does not end with its value"), result.standardError)
        XCTAssertTrue(code.contains("func image() async throws -> String {"), code)
        XCTAssertTrue(code.contains("                return try self.fallback(for: error)\n"), code)
        XCTAssertEqual(try program.runMigrated(), expected)
        XCTAssertEqual(try program.checkAgain().status, 0)
    }
}
