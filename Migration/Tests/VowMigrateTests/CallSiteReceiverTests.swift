import Foundation
import SwiftParser
import SwiftSyntax
@testable import VowMigrate
import XCTest

/// The call-site stage finds a call's callee as the compiler would, by what syntax shows: the
/// receiver's type (`self` and its hierarchy, `Type.shared`, a typed property, parameter or local,
/// a protocol it conforms to), then the labels, then the number of parameters the closure takes.
/// A call on a type the tree does not declare is not a call of a same-named function the tree
/// declares elsewhere. Fixture: `call-sites-receivers` (typechecked in both forms).
final class CallSiteReceiverTests: XCTestCase {
    private func migrate(_ source: String, _ target: MigrationTarget, stage: MigrationStage = .all) -> FileMigration {
        SourceMigrator.migrate(source: source, fileName: "input.swift", options: MigrationOptions(target: target, stage: stage))
    }

    private func refusals(_ migration: FileMigration) -> [String] {
        migration.findings.filter { $0.kind == .callSiteRefused }.map { "\($0.line):\($0.column) \($0.function): \($0.message)" }
    }

    private func converted(_ migration: FileMigration) -> [String] {
        migration.findings.filter { $0.kind == .callSiteConverted }.map(\.function)
    }

    /// Two `dismiss(animated:completion:)` functions the app declares for its own types, and
    /// screens that subclass UIKit's view controller (which the tree does not declare).
    private static let declarations = """
    final class Router: Sendable {
        func dismiss(animated: Bool, completion: @escaping @Sendable () -> Void) { completion() }
    }

    final class Sheet: Sendable {
        func dismiss(animated: Bool, completion: @escaping @Sendable (Error?) -> Void) { completion(nil) }
    }

    """

    func testACallOnAFrameworkTypeIsNotACallOfTheTreesSameNamedFunctions() {
        let input = Self.declarations + """
        final class SettingsViewController: UIViewController {
            func show(_ text: String) {}

            func close() {
                self.dismiss(animated: true) {
                    self.show("closed")
                }
            }

            func closeImplicitly() {
                dismiss(animated: true) {
                    self.show("closed")
                }
            }

            func closeAlert(_ alert: UIAlertController) {
                alert.dismiss(animated: true) {
                    self.show("closed")
                }
            }
        }

        """
        for target in MigrationTarget.allCases {
            let migration = migrate(input, target)
            XCTAssertEqual(refusals(migration), [], "\(target)")
            XCTAssertEqual(converted(migration), [], "\(target)")
        }
    }

    func testSelfReachesWhatItsOwnHierarchyDeclaresEvenBelowAFrameworkClass() {
        let input = Self.declarations + """
        class BaseViewController: UIViewController {
            func dismiss(animated: Bool, completion: @escaping @Sendable (Error?) -> Void) { completion(nil) }
        }

        final class ChatViewController: BaseViewController {
            func show(_ text: String) {}

            func close() {
                dismiss(animated: true) { error in
                    if let error {
                        self.show("\\(error)")
                        return
                    }
                    self.show("closed")
                }
            }
        }

        """
        for target in MigrationTarget.allCases {
            let migration = migrate(input, target)
            XCTAssertEqual(refusals(migration), [], "\(target)")
            XCTAssertEqual(converted(migration), ["close()"], "\(target)")
        }
    }

    func testTheReceiversSpelledTypePicksAmongSameNamedFunctions() {
        let input = Self.declarations + """
        final class Coordinator: @unchecked Sendable {
            static let shared = Coordinator()
            let router = Router()

            func show(_ text: String) {}

            func throughAProperty() {
                router.dismiss(animated: true) {
                    self.show("closed")
                }
            }

            func throughAParameter(_ sheet: Sheet) {
                sheet.dismiss(animated: true) { error in
                    if let error {
                        self.show("\\(error)")
                        return
                    }
                    self.show("closed")
                }
            }

            func throughALocal() {
                let sheet = Sheet()
                sheet.dismiss(animated: true) { error in
                    if let error {
                        self.show("\\(error)")
                        return
                    }
                    self.show("closed")
                }
            }
        }

        """
        for target in MigrationTarget.allCases {
            let migration = migrate(input, target)
            XCTAssertEqual(refusals(migration), [], "\(target)")
            XCTAssertEqual(converted(migration), ["throughAProperty()", "throughAParameter(_:)", "throughALocal()"], "\(target)")
        }
    }

    /// The receiver's type read from what a name is bound to: an element of a collection of known
    /// elements (`if let handler = commands[name]`, `for sheet in sheets`, `commands.values`), a
    /// cast (`as? Router`), another typed name; a closure's parameter or a binding whose value
    /// shows no type hides an outer name's type, and a closure's locals end with it. (WordPress's
    /// `guard let service = DomainsService(...)` called `refreshDomains(siteID:)`, which only an
    /// unrelated type of the tree declared: its call was converted, to a function it never reached.)
    func testBindingsOfCollectionsCastsAndClosureParametersTypeTheReceiver() {
        let source = """
        final class Coordinator {
            let router = Router()
            private var commands = [String: Router]()
            var sheets: [Sheet] = []
            var byName: [String: Sheet]?

            func run(_ name: String, object: Any, more: Set<Router>) {
                if let handler = commands[name] { handler.dismiss(animated: true) }
                guard let sheet = byName?[name] else { return }
                sheet.dismiss(animated: true)
                for each in sheets { each.dismiss(animated: true) }
                for each in self.commands.values { each.dismiss(animated: true) }
                for each in more { each.dismiss(animated: true) }
                if let cast = object as? Sheet { cast.dismiss(animated: true) }
                if let router = self.router as Router? { router.dismiss(animated: true) }
                [1].forEach { router in router.dismiss(animated: true) }
                let show: (Sheet) -> Void = { (router: Sheet) in router.dismiss(animated: true) }
                if let router = makeRouter() { router.dismiss(animated: true) }
                router.dismiss(animated: true)
                DispatchQueue.main.async { let local = Sheet(); local.dismiss(animated: true) }
                local.dismiss(animated: true)
                if let router = self.byName?["x"] {
                    router.dismiss(animated: true)
                } else {
                    router.dismiss(animated: true)
                }
                guard let service = Router(name: name) else { return }
                service.dismiss(animated: true)
                let forced = object as! Sheet
                forced.dismiss(animated: true)
                DispatchQueue.main.async { [weak self] in
                    guard let strongSelf = self else { return }
                    strongSelf.dismiss(animated: true)
                }
                for (_, router) in byName ?? [:] { router.dismiss(animated: true) }
                switch object {
                case let router as Sheet: router.dismiss(animated: true)
                default: router.dismiss(animated: true)
                }
            }
        }
        """
        let tree = Parser.parse(source: source)
        let collector = ExistingCallCollector(fileName: "input.swift", converter: SourceLocationConverter(fileName: "input.swift", tree: tree),
                                              names: ["dismiss"])
        collector.walk(tree)
        let receivers = collector.calls.map { "\($0.location.line): \($0.receiver)" }
        XCTAssertEqual(receivers, [
            "8: typed(\"Router\")", "10: typed(\"Sheet\")", "11: typed(\"Sheet\")", "12: typed(\"Router\")", "13: typed(\"Router\")",
            "14: typed(\"Sheet\")", "15: typed(\"Router\")", "16: other", "17: typed(\"Sheet\")", "18: other",
            "19: typed(\"Router\")", "20: typed(\"Sheet\")", "21: other", "23: typed(\"Sheet\")", "25: typed(\"Router\")", "28: typed(\"Router\")", "30: typed(\"Sheet\")",
            "33: typed(\"Coordinator\")", "35: other", "37: other", "38: other",
        ])
    }

    /// The call-site stage picks the callee by those bindings too: a sheet taken from a
    /// dictionary of sheets converts in both forms, though a property of the same name holds a
    /// `Router` (whose `dismiss` passes nothing: the binding was read as that property before).
    func testACalleePickedThroughABindingConverts() {
        let input = Self.declarations + """
        final class Coordinator: @unchecked Sendable {
            var sheets: [String: Sheet] = [:]
            let sheet = Router()

            func show(_ text: String) {}

            func close(_ name: String) {
                if let sheet = sheets[name] {
                    sheet.dismiss(animated: true) { error in
                        if let error {
                            self.show("\\(error)")
                            return
                        }
                        self.show("closed")
                    }
                }
            }
        }

        """
        for target in MigrationTarget.allCases {
            let migration = migrate(input, target)
            XCTAssertEqual(refusals(migration), [], "\(target)")
            XCTAssertEqual(converted(migration), ["close(_:)"], "\(target)")
            XCTAssertFalse(migrate(migration.output, target).changed, "\(target):\n\(migration.output)")
        }
    }

    func testAReceiverWhoseTypeDeclaresNoSuchFunctionReachesNone() {
        let input = Self.declarations + """
        protocol Presenting: Sendable {}

        final class Flow: @unchecked Sendable {
            func show(_ text: String) {}

            func leave(_ presenter: any Presenting) {
                presenter.dismiss(animated: true) {
                    self.show("closed")
                }
            }
        }

        """
        for target in MigrationTarget.allCases {
            let migration = migrate(input, target)
            XCTAssertEqual(refusals(migration), [], "\(target)")
            XCTAssertEqual(converted(migration), [], "\(target)")
        }
    }

    func testTheClosuresParameterCountPicksBetweenOverloadsOnAnUntypedReceiver() {
        let input = Self.declarations + """
        func currentRouter() -> Router { Router() }

        final class Flow: @unchecked Sendable {
            func show(_ text: String) {}

            func leave() {
                currentRouter().dismiss(animated: true) {
                    self.show("closed")
                }
            }
        }

        """
        for target in MigrationTarget.allCases {
            let migration = migrate(input, target)
            XCTAssertEqual(refusals(migration), [], "\(target)")
            XCTAssertEqual(converted(migration), ["leave()"], "\(target)")
        }
    }

    func testAnUntypedReceiverWithSameCountClosuresStaysAmbiguous() {
        let input = Self.declarations + """
        final class Drawer: Sendable {
            func dismiss(animated: Bool, completion: @escaping @Sendable (Bool) -> Void) { completion(true) }
        }

        func currentSheet() -> Sheet { Sheet() }

        final class Flow: @unchecked Sendable {
            func show(_ text: String) {}

            func leave() {
                currentSheet().dismiss(animated: true) { error in
                    self.show("closed")
                }
            }
        }

        """
        for target in MigrationTarget.allCases {
            XCTAssertEqual(refusals(migrate(input, target)), [
                "18:9 leave(): several functions named `dismiss` take these labels; the callee is ambiguous",
            ], "\(target)")
        }
    }

    /// The types a closure spells pick the overload (the real glucose monitor's
    /// `readChartData { (result: NightscoutRequestResult<[Int]>) in }` beside an `[Int]` handler);
    /// a spelling neither overload has (an alias) leaves the call ambiguous.
    func testTheTypesTheClosureSpellsPickBetweenSameCountOverloads() {
        let input = Self.declarations + """
        final class Drawer: Sendable {
            func dismiss(animated: Bool, completion: @escaping @Sendable (Bool) -> Void) { completion(true) }
        }

        typealias Failure = Error
        func currentSheet() -> Sheet { Sheet() }

        final class Flow: @unchecked Sendable {
            func show(_ text: String) {}

            func leave() {
                currentSheet().dismiss(animated: true) { (error: Error?) in
                    if let error {
                        self.show("\\(error)")
                        return
                    }
                    self.show("closed")
                }
            }

            func leaveWithAnAlias() {
                currentSheet().dismiss(animated: true) { (error: Failure?) in
                    self.show("closed")
                }
            }
        }

        """
        for target in MigrationTarget.allCases {
            let migration = migrate(input, target)
            XCTAssertEqual(converted(migration), ["leave()"], "\(target)")
            XCTAssertEqual(refusals(migration), [
                "29:9 leaveWithAnAlias(): several functions named `dismiss` take these labels; the callee is ambiguous",
            ], "\(target)")
        }
    }

    func testAGenericParameterIsTheTypeItIsConstrainedTo() {
        let input = Self.declarations + """
        final class Flow<R: Router>: @unchecked Sendable {
            let router: R

            init(router: R) { self.router = router }

            func show(_ text: String) {}

            func leave() {
                router.dismiss(animated: true) {
                    self.show("closed")
                }
            }

            func leave<S>(through sheet: S) where S: Sheet {
                sheet.dismiss(animated: true) { error in
                    if let error {
                        self.show("\\(error)")
                        return
                    }
                    self.show("closed")
                }
            }
        }

        """
        for target in MigrationTarget.allCases {
            let migration = migrate(input, target)
            XCTAssertEqual(refusals(migration), [], "\(target)")
            XCTAssertEqual(converted(migration), ["leave()", "leave(through:)"], "\(target)")
        }
    }

    func testAMemberShadowsAGlobalFunctionOfTheSameName() {
        let input = """
        func refresh(completion: @escaping @Sendable (Error?) -> Void) { completion(nil) }

        final class Inbox: @unchecked Sendable {
            func show(_ text: String) {}

            func refresh(completion: @escaping @Sendable (Bool) -> Void) { completion(true) }

            func reload() {
                refresh { ok in
                    self.show(ok ? "fresh" : "stale")
                }
            }
        }

        """
        for target in MigrationTarget.allCases {
            let migration = migrate(input, target)
            XCTAssertEqual(refusals(migration), [], "\(target)")
            XCTAssertEqual(converted(migration), ["reload()"], "\(target)")
            XCTAssertTrue(migration.output.contains(target == .async ? "let ok = await refresh()" : "refresh().done"),
                          "\(target):\n\(migration.output)")
        }
    }

    /// `Services.shared` is typed `Services` by convention only: the capture check does not
    /// count on it, and spells out the call that leaves the handler out.
    func testTheCaptureCheckDoesNotTrustASharedInstancesType() {
        let input = """
        final class LiveClient: @unchecked Sendable {
            func sync(completion: (@Sendable () -> Void)? = nil) { completion?() }
        }

        enum Services {
            static let shared = LiveClient()
        }

        final class Screen {
            func refresh() {
                Services.shared.sync()
            }
        }

        """
        for target in MigrationTarget.allCases {
            let migration = migrate(input, target, stage: .declarations)
            XCTAssertTrue(migration.output.contains("Services.shared.sync(completion: nil)"), "\(target):\n\(migration.output)")
        }
    }

    func testACallWhoseResultIsAwaitedOrChainedIsACallOfAnAlternative() {
        let source = """
        func converted() async throws {
            try await store.load(1)
            await store.load(2)
            async let three = store.load(3)
            store.load(4).done { _ in }
            store.load(5).map(on: nil) { $0 }
            firstly { store.load(6) }.then { _ in store.load(7) }.then { _ in return store.load(8) }
            when(fulfilled: [store.load(9), store.load(10)])
            when(fulfilled: store.load(11), store.load(12))
        }

        func original() {
            store.load(13)
            DispatchQueue.main.async { store.load(14) }
            store.load(15).map { $0.cancel() }
            let task = store.load(16)
            store.load(17).wait()
        }
        """
        let tree = Parser.parse(source: source)
        let collector = ExistingCallCollector(fileName: "input.swift", converter: SourceLocationConverter(fileName: "input.swift", tree: tree),
                                              names: ["load"])
        collector.walk(tree)
        let marked = collector.calls.map { "\($0.location.line): \($0.usesAlternativeResult)" }
        XCTAssertEqual(marked, [
            "2: true", "3: true", "4: true", "5: true", "6: true", "7: true", "7: true", "7: true", "8: true", "8: true", "9: true", "9: true",
            "13: false", "14: false", "15: false", "16: false", "17: false",
        ])
    }

    /// A converted call leaves a defaulted handler out (`try await screen.close()`,
    /// `screen.close().done { }`): it reaches the alternative, so neither a second run nor a run
    /// adding the other form's alternatives spells the handler out in it, while a plain call
    /// leaving the handler out still has it spelled out.
    func testConvertedCallsOfADefaultedHandlerAreCallsOfTheAlternative() {
        let input = """
        final class Screen: @unchecked Sendable {
            func show(_ text: String) {}

            func close(animated: Bool, completion: (@Sendable () -> Void)? = nil) { completion?() }

            func leave() {
                close(animated: true) {
                    self.show("closed")
                }
            }

            func leaveQuickly() {
                close(animated: false)
            }
        }

        """
        for target in MigrationTarget.allCases {
            let first = migrate(input, target)
            XCTAssertEqual(refusals(first), [], "\(target)")
            XCTAssertEqual(converted(first), ["leave()"], "\(target)")
            XCTAssertTrue(first.output.contains("close(animated: false, completion: nil)"), "\(target):\n\(first.output)")
            XCTAssertFalse(migrate(first.output, target).changed, "\(target):\n\(first.output)")
            let other: MigrationTarget = target == .promise ? .async : .promise
            let both = migrate(first.output, other, stage: .declarations)
            XCTAssertEqual(both.findings.filter { $0.kind == .added }.count, 1, "\(target) then \(other):\n\(both.output)")
            XCTAssertFalse(both.output.contains("close(animated: true, completion: nil)"), "\(target) then \(other):\n\(both.output)")
        }
    }
}
