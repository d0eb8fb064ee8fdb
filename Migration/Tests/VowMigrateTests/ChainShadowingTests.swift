import VowMigrate
import XCTest

/// A handler declaring its own parameter again (`{ json in guard let json = json as? T ... }`,
/// `{ raw, _ in guard let raw = raw as? T ... }`), as Swift code does everywhere: in straight-line
/// code the value is bound under another name, read by that name up to the declaration, and the
/// new declaration keeps the name after it.
final class ChainShadowingTests: XCTestCase {
    private static let input = #"""
        import Dispatch
        import Vow

        enum ParseError: Error {
            case missing
        }

        final class Screen: @unchecked Sendable {
            var shown: [String] = []

            func load() -> Promise<[String: Int]> {
                Promise.value(["count": 2])
            }

            func pair() -> Promise<(any Sendable, Int)> {
                Promise.value((["a": 1] as any Sendable, 3))
            }

            func optional() -> Promise<String?> {
                Promise.value(nil)
            }

            func count() {
                load().map { json -> Int in
                    guard let json = json["count"] else { throw ParseError.missing }
                    return json * 10
                }.done { count in
                    self.shown.append("\(count)")
                }.catch { _ in }
            }

            func tuple() {
                pair().map { raw, extra in
                    guard let raw = raw as? [String: Int] else { throw ParseError.missing }
                    return raw.count + extra
                }.done { total in
                    self.shown.append("\(total)")
                }.catch { _ in }
            }

            func onAQueue() {
                pair().map(on: .global()) { raw, extra in
                    guard let raw = raw as? [String: Int] else { throw ParseError.missing }
                    return raw.count * extra
                }.done { total in
                    self.shown.append("\(total)")
                }.catch { _ in }
            }

            func lastDone() {
                optional().done { text in
                    guard let text = text else {
                        self.shown.append("none")
                        return
                    }
                    self.shown.append(text)
                }.catch { _ in }
            }
        }

        """#

    func testAParameterDeclaredAgainIsBoundUnderAnotherNameUpToItsDeclaration() throws {
        let result = SourceMigrator.migrate(source: Self.input, fileName: "Screen.swift", options: MigrationOptions(target: .async, stage: .callSites))
        XCTAssertEqual(result.findings.filter { $0.kind == .callSiteConverted }.map(\.function), ["count()", "tuple()", "onAQueue()", "lastDone()"],
                       "\(result.findings.map(\.message))")
        XCTAssertTrue(result.output.contains("""
                            let json2 = try await jsonPromise.value
                            guard let json = json2["count"] else { throw ParseError.missing }
                            let count = (json * 10) as Int
            """), result.output)
        XCTAssertTrue(result.output.contains("""
                            let (raw2, extra) = try await rawPromise.value
                            guard let raw = raw2 as? [String: Int] else { throw ParseError.missing }
                            let total = raw.count + extra
            """), result.output)
        // On another queue the handler's code is a closure of its own: its `raw` shadows the value's.
        XCTAssertTrue(result.output.contains("""
                            let (raw, extra) = try await rawPromise.value
                            let total = try await DispatchQueue.global().async(.promise) {
                                guard let raw = raw as? [String: Int] else { throw ParseError.missing }
            """), result.output)
        XCTAssertTrue(result.output.contains("""
                            let text2 = try await textPromise.value
                            guard let text = text2 else {
            """), result.output)
        XCTAssertNil(try TestSupport.typecheck(result.output, as: "Screen.swift", self), result.output)
    }

    /// A wallet app logs through a global `error(value:)`, and its handlers name the error `e`:
    /// `.catch { e in error(value: e) }`. In a `catch` block the implicit `error` would hide the
    /// logger, so the block binds the handler's own name instead (`catch let e`), which binds no
    /// `error`: the logger is called as before, for a failure, a recovered failure and a
    /// recovery that fails again.
    func testAHandlerNamingItsErrorKeepsTheNameWhereItCallsAGlobalError() throws {
        let screen = #"""
            import Dispatch
            import Vow

            struct Failure: Error, CustomStringConvertible {
                let step: String
                var description: String { "Failure(\(step))" }
            }

            /// The app's logger, a global function named `error`.
            func error(value: Error, note: String = "") {
                print("logged \(value)\(note.isEmpty ? "" : " " + note)")
            }

            final class Screen: @unchecked Sendable {
                let failing: Set<String>
                let finished: @Sendable () -> Void

                init(failing: Set<String>, finished: @escaping @Sendable () -> Void) {
                    self.failing = failing
                    self.finished = finished
                }

                func answer(_ step: String, _ value: Int) -> Promise<Int> {
                    failing.contains(step) ? Promise(error: Failure(step: step)) : .value(value)
                }

                func estimate() {
                    firstly {
                        answer("estimate", 1)
                    }.done { value in
                        print("estimated \(value)")
                        self.finished()
                    }.catch { e in
                        print("failed \(e)")
                        error(value: e, note: "estimate")
                        self.finished()
                    }
                }

                func recovered() {
                    answer("price", 2).recover { e -> Promise<Int> in
                        error(value: e)
                        return self.answer("fallback", 3)
                    }.done { value in
                        print("price \(value)")
                        self.finished()
                    }.catch { e in
                        error(value: e, note: "price")
                        self.finished()
                    }
                }
            }

            """#
        let driver = #"""
            import Dispatch
            import Foundation

            let plans: [(String, Set<String>)] = [
                ("all answer", []), ("estimate fails", ["estimate"]), ("price fails", ["price"]),
                ("price and fallback fail", ["price", "fallback"]),
            ]
            nonisolated(unsafe) var next = 0
            nonisolated(unsafe) var screen: Screen?
            func runNext() {
                guard next < plans.count * 2 else { print("== done"); exit(0) }
                let (title, failing) = plans[next / 2]
                let estimate = next % 2 == 0
                next += 1
                print("==", title, estimate ? "estimate" : "price")
                screen = Screen(failing: failing, finished: { DispatchQueue.main.async { runNext() } })
                if estimate { screen!.estimate() } else { screen!.recovered() }
            }
            DispatchQueue.main.async { runNext() }
            dispatchMain()

            """#
        let program = try ProgramBuilding.ScreenProgram(screen: screen, driver: driver, in: try TestSupport.temporaryDirectory(self))
        let expected = try program.runOriginal()
        XCTAssertTrue(expected.contains("logged Failure(price)\nlogged Failure(fallback) price\n"), expected)
        let (result, code) = try program.migrate()
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(result.standardError.contains("2 call sites converted, 0 left alone"), result.standardError)
        XCTAssertTrue(code.contains("""
                        } catch let e {
                            // The chain's `catch` skipped cancellations (its default policy).
                            if e.isCancelled { return }
                            print("failed \\(e)")
                            error(value: e, note: "estimate")
            """), code)
        XCTAssertTrue(code.contains("""
                                } catch let e {
                                    // `recover` passed cancellations on (its default policy).
                                    if e.isCancelled { throw e }
                                    error(value: e)
            """), code)
        XCTAssertEqual(try program.runMigrated(), expected)
        XCTAssertEqual(try program.checkAgain().status, 0)
    }
}
