import Foundation
import XCTest

/// Promise chains with Vow's sequence helpers (`mapValues`, `filterValues`, `thenMap`...) become
/// straight-line code over the `Sequence` methods Vow calls with the same closures, and the
/// program prints what it printed before, each step succeeding and failing.
final class ChainSequenceHelperTests: XCTestCase {
    private static let screen = #"""
        import Dispatch
        import Vow

        struct Profile: Sendable {
            var name: String
            var age: Int
        }

        enum CatalogError: Error {
            case missing(String)
            case tooYoung(String)
        }

        /// Fails where `failing` says, on its own queue.
        final class Catalog: @unchecked Sendable {
            var failing: Set<String> = []
            let queue = DispatchQueue(label: "catalog")

            func names() -> Promise<[String]> {
                let failing = self.failing
                return Promise { seal in
                    queue.async {
                        failing.contains("names") ? seal.reject(CatalogError.missing("names")) : seal.fulfill(["cy", "ada", "bo", ""])
                    }
                }
            }

            func profile(_ name: String) -> Promise<Profile> {
                let failing = self.failing
                return Promise { seal in
                    queue.async {
                        failing.contains(name) ? seal.reject(CatalogError.missing(name)) : seal.fulfill(Profile(name: name, age: name.count * 20))
                    }
                }
            }

            func friends(_ name: String) -> Promise<[String]> {
                .value([name + "'s friend", name + "'s cousin"])
            }
        }

        nonisolated(unsafe) var finished: () -> Void = {}

        final class Screen: @unchecked Sendable {
            let catalog: Catalog

            init(catalog: Catalog) {
                self.catalog = catalog
            }

            func show(_ text: String) {
                print("show:", text)
            }

            func transforming() {
                catalog.names().filterValues { !$0.isEmpty }.mapValues { name in
                    name.uppercased()
                }.sortedValues().done { names in
                    self.show(names.joined(separator: ","))
                    finished()
                }.catch { error in
                    self.show("failed: \(error)")
                    finished()
                }
            }

            func checking() {
                catalog.names().compactMapValues { name -> Int? in
                    name.isEmpty ? nil : name.count
                }.mapValues { count in
                    guard count < 3 else { throw CatalogError.tooYoung("\(count)") }
                    return count * 2
                }.done { counts in
                    self.show("\(counts)")
                    finished()
                }.catch { error in
                    self.show("failed: \(error)")
                    finished()
                }
            }

            func fanningOut() {
                catalog.names().filterValues { !$0.isEmpty }.thenMap { name in
                    self.catalog.profile(name)
                }.mapValues { "\($0.name) \($0.age)" }.done { lines in
                    self.show(lines.joined(separator: "; "))
                    finished()
                }.catch { error in
                    self.show("failed: \(error)")
                    finished()
                }
            }

            func flattening() {
                catalog.names().filterValues { $0.count == 2 }.thenFlatMap { name in
                    self.catalog.friends(name)
                }.flatMapValues { [$0, $0.uppercased()] }.done { all in
                    self.show(all.joined(separator: ","))
                    finished()
                }.catch { error in
                    self.show("failed: \(error)")
                    finished()
                }
            }
        }
        """#

    private static let driver = #"""
        import Dispatch
        import Foundation

        let steps: [(String, Set<String>, @Sendable (Screen) -> Void)] = [
            ("transforming", [], { $0.transforming() }),
            ("transforming, names fail", ["names"], { $0.transforming() }),
            ("checking", [], { $0.checking() }),
            ("checking, names fail", ["names"], { $0.checking() }),
            ("fanning out", [], { $0.fanningOut() }),
            ("fanning out, one profile fails", ["bo"], { $0.fanningOut() }),
            ("fanning out, names fail", ["names"], { $0.fanningOut() }),
            ("flattening", [], { $0.flattening() }),
            ("flattening, names fail", ["names"], { $0.flattening() }),
        ]
        nonisolated(unsafe) var next = 0

        func runNext() {
            guard next < steps.count else { exit(0) }
            let (title, failing, body) = steps[next]
            next += 1
            print("==", title)
            let catalog = Catalog()
            catalog.failing = failing
            finished = { DispatchQueue.main.async { runNext() } }
            body(Screen(catalog: catalog))
        }

        DispatchQueue.main.async { runNext() }
        dispatchMain()
        """#

    func testSequenceHelpersBecomeSequenceMethodsAndTheProgramPrintsTheSame() throws {
        let program = try ProgramBuilding.ScreenProgram(screen: Self.screen, driver: Self.driver, in: try TestSupport.temporaryDirectory(self))
        let expected = try program.runOriginal()
        XCTAssertEqual(expected, """
            == transforming
            show: ADA,BO,CY
            == transforming, names fail
            show: failed: missing("names")
            == checking
            show: failed: tooYoung("3")
            == checking, names fail
            show: failed: missing("names")
            == fanning out
            show: cy 40; ada 60; bo 40
            == fanning out, one profile fails
            show: failed: missing("bo")
            == fanning out, names fail
            show: failed: missing("names")
            == flattening
            show: cy's friend,CY'S FRIEND,cy's cousin,CY'S COUSIN,bo's friend,BO'S FRIEND,bo's cousin,BO'S COUSIN
            == flattening, names fail
            show: failed: missing("names")

            """)

        let (result, code) = try program.migrate()
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(result.standardError.contains("4 call sites converted, 0 left alone"), result.standardError)
        XCTAssertTrue(code.contains("""
                        let values = try await namesPromise.value
                        let names = values.filter { !$0.isEmpty }.map { name in
            """) || code.contains("values.filter { !$0.isEmpty }"), code)
        XCTAssertTrue(code.contains("try await when(fulfilled: "), code)
        XCTAssertFalse(code.contains("mapValues"), code)
        XCTAssertEqual(try program.runMigrated(), expected)
        let again = try program.checkAgain()
        XCTAssertEqual(again.status, 0, again.standardOutput)
    }
}
