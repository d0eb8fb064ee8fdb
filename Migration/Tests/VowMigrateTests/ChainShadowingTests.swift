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
}
