import VowMigrate
import XCTest

/// Chains whose first promise other chains may wait on too are left alone (README, "Also left
/// alone"): two chains on one pending promise take turns link by link on the main queue, which
/// one task's straight-line code would not. A promise made just above and read only by the chain
/// is its own.
final class ChainSharingTests: XCTestCase {
    private static let input = """
        import Vow

        final class Feed: @unchecked Sendable {
            var loading: Promise<[String]>?
            var shown: [String] = []

            func load() -> Promise<[String]> {
                if let loading { return loading }
                let promise = Promise.value(["a"])
                loading = promise
                return promise
            }

            func fresh() -> Promise<[String]> {
                Promise.value(["b"])
            }

            func fromALocal() {
                let (promise, seal) = Promise<[String]>.pending()
                promise.done { items in
                    self.shown = items
                }.catch { _ in }
                seal.fulfill(["c"])
            }

            func fromALocalReadTwice() {
                let promise = fresh()
                promise.done { items in
                    self.shown = items
                }.catch { _ in }
                promise.done { items in
                    self.shown += items
                }.catch { _ in }
            }

            func fromAProperty() {
                loading?.done { self.shown = $0 }.catch { _ in }
            }

            func fromAFunctionThatKeepsIt() {
                load().done { self.shown = $0 }.catch { _ in }
            }

            func fromAFreshCall() {
                fresh().done { self.shown = $0 }.catch { _ in }
            }
        }

        """

    func testOnlyChainsWhoseFirstPromiseIsTheirOwnConvert() {
        let result = SourceMigrator.migrate(source: Self.input, fileName: "Feed.swift",
                                            options: MigrationOptions(target: .async, stage: .callSites))
        let converted = result.findings.filter { $0.kind == .callSiteConverted }.map(\.function)
        XCTAssertEqual(converted, ["fromALocal()", "fromAFreshCall()"])
        let refused = result.findings.filter { $0.kind == .callSiteRefused }.map { "\($0.function): \($0.message)" }
        XCTAssertEqual(refused, [
            "fromALocalReadTwice(): its first promise, `promise`, is a stored one, which other chains may wait on too: "
                + "their links take turns on the main queue, which one task's straight-line code would not",
            "fromALocalReadTwice(): its first promise, `promise`, is a stored one, which other chains may wait on too: "
                + "their links take turns on the main queue, which one task's straight-line code would not",
            "fromAProperty(): the chain starts through `?.` (`loading?`), so it may not run at all; unwrap it first (`guard let` or `if let`)",
            "fromAFunctionThatKeepsIt(): its first promise comes from `load`, which may return one it kept (other chains may wait "
                + "on it too): their links take turns on the main queue, which one task's straight-line code would not",
        ])
        XCTAssertTrue(result.output.contains("        let itemsPromise = promise\n        Task { @MainActor in\n"), result.output)
    }
}
