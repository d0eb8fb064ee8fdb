import SwiftParser
import SwiftSyntax
@testable import VowMigrate
import XCTest

/// Chain handlers with capture lists real apps write (`[request]`, `[self]`, `[weak self, api]`):
/// a constant captured holds the value straight-line code reads later, so the list goes; `self`
/// is the task's to capture (a bridge's closure says `[self]`, since its handler may use `self`
/// implicitly); a `var` or an expression could have changed by then, and is refused.
final class ChainCaptureListTests: XCTestCase {
    private static let input = """
        import Vow

        final class Sensors: @unchecked Sendable {
            let request: String
            var attempt = 0
            var shown: [String] = []

            init(request: String) {
                self.request = request
            }

            func read(_ name: String) -> Promise<String> {
                Promise.value(name)
            }

            func show(_ text: String) {
                shown.append(text)
            }

            func property() {
                read("a").done { [request] value in
                    self.show(request + value)
                }.catch { _ in }
            }

            func parameterAndWeakSelf(api: String) {
                let prefix = "p"
                read("b").map { [weak self, api, prefix] value in
                    (self?.request ?? "") + api + prefix + value
                }.done { [weak self] text in
                    self?.show(text)
                }.catch { _ in }
            }

            func implicitSelf() {
                read("c").done { [self] value in
                    show(value)
                }.catch { _ in }
            }

            func variable() {
                read("d").done { [attempt] value in
                    self.show("\\(attempt) \\(value)")
                }.catch { _ in }
            }

            func expression() {
                read("e").done { [count = shown.count] value in
                    self.show("\\(count) \\(value)")
                }.catch { _ in }
            }

            func describe(_ value: String) -> String {
                "<" + value + ">"
            }

            func label() -> Promise<String> {
                read("g").map { [self] value in
                    describe(value)
                }
            }

            func localVariable() {
                var mark = "m"
                mark += "!"
                read("f").done { [mark] value in
                    self.show(mark + value)
                }.catch { _ in }
            }
        }

        """

    func testConstantsAndSelfConvertAndVariablesStay() {
        let result = SourceMigrator.migrate(source: Self.input, fileName: "Sensors.swift",
                                            options: MigrationOptions(target: .async, stage: .callSites))
        let converted = result.findings.filter { $0.kind == .callSiteConverted }.map(\.function)
        XCTAssertEqual(converted, ["property()", "parameterAndWeakSelf(api:)", "implicitSelf()", "label()"])
        let refused = result.findings.filter { $0.kind == .callSiteRefused }.map { "\($0.function): \($0.message)" }
        let tail = ", which may not hold the same value once the code runs later in straight-line code "
            + "(only `weak self`, `unowned self`, `self` and constants are)"
        XCTAssertEqual(refused, [
            "variable(): a chain handler capturing `attempt`" + tail,
            "expression(): a chain handler capturing `count = shown.count`" + tail,
            "localVariable(): a chain handler capturing `mark`" + tail,
        ])
        XCTAssertTrue(result.output.contains("""
                    Task { @MainActor in
                        do {
                            let value = try await valuePromise.value
                            self.show(request + value)
            """), result.output)
        XCTAssertTrue(result.output.contains("""
                    Task { @MainActor [weak self] in
                        do {
                            let value = try await valuePromise.value
                            let text = (self?.request ?? "") + api + prefix + value
                            self?.show(text)
            """), result.output)
        XCTAssertTrue(result.output.contains("""
                    Task { @MainActor in
                        do {
                            let value = try await valuePromise.value
                            show(value)
            """), result.output)
        // A bridge's closure does not take `self` implicitly: it says so.
        XCTAssertTrue(result.output.contains("return Promise { @MainActor @Sendable [self] in"), result.output)
    }

    /// A converted program builds in Swift 6 mode (the task takes `self` implicitly, as the
    /// handler's `[self]` let it).
    func testTheConvertedCodeTypechecks() throws {
        let result = SourceMigrator.migrate(source: Self.input, fileName: "Sensors.swift",
                                            options: MigrationOptions(target: .async, stage: .callSites))
        XCTAssertNil(try TestSupport.typecheck(result.output, as: "Sensors.swift", self), result.output)
    }

    /// Where a name is a constant, nearest declaration first.
    func testConstantNamesAreFoundAsSwiftLooksThemUp() throws {
        let source = """
            struct S {
                let stored = 1
                var changing = 2
                func f(a: Int, b: inout Int) {
                    let c = 3
                    var d = 4
                    guard let e = Optional(5) else { return }
                    if let g = Optional(6) {
                        for h in [7] {
                            _ = { (i: Int) in
                                MARK
                            }
                        }
                    }
                    let stored = 8
                    _ = (c, d, e, g, stored)
                }
            }
            """
        let tree = Parser.parse(source: source)
        let mark = try XCTUnwrap(tree.tokens(viewMode: .sourceAccurate).first { $0.text == "MARK" })
        let expected: [String: Bool] = ["a": true, "b": false, "c": true, "d": false, "e": true, "g": true, "h": true, "i": true,
                                        "stored": true, "changing": false, "unknown": false]
        for (name, constant) in expected {
            XCTAssertEqual(ConstantNames.isConstant(name, at: Syntax(mark)), constant, name)
        }
    }
}
