import Foundation
import SwiftParser
import SwiftSyntax
import XCTest

/// `TestBeds/TrailMates/`: an app-like tree (`App/`, services, view models, view controllers,
/// coordinators, a sync engine) on a stand-in for UIKit and URLSession (`Platform/`), driven
/// through every scenario by `Scenarios/` against a fake server. `App/` alone is migrated with
/// `--stage all` in both forms; the three programs must print the same effects in the same
/// order on the same kind of queue, and the counts of what was flattened stay pinned here, so
/// a gain or a regression shows. The pins are today's numbers: raise them as the tool improves.
final class AppTestBedTests: XCTestCase {
    private static var bedDirectory: URL {
        TestSupport.packageDirectory.appendingPathComponent("TestBeds/TrailMates")
    }

    private func copyOfBed(named name: String, in root: URL) throws -> URL {
        let directory = root.appendingPathComponent(name)
        try FileManager.default.copyItem(at: Self.bedDirectory, to: directory)
        return directory
    }

    /// Builds App, Platform and Scenarios as one program (`DEBUG` set, as the app's debug builds
    /// are) and returns its trace.
    private func buildAndRun(_ directory: URL, swiftVersion: String) throws -> String {
        let sources = ["App", "Platform", "Scenarios"].flatMap { TestSupport.swiftFiles(under: directory.appendingPathComponent($0)) }
        // The last -swift-version given wins; one whole-module job compiles in half the time.
        return try ProgramBuilding.buildAndRun(sources, binary: directory.appendingPathComponent("program"),
                                               flags: ["-wmo", "-DDEBUG", "-swift-version", swiftVersion])
    }

    private func migrate(_ app: URL, to form: String) throws -> CallSiteSummary {
        let result = try TestSupport.migrate([app.path, "--to", form, "--stage", "all", "--in-place", "--report", "json"])
        XCTAssertEqual(result.status, 0, result.standardError)
        return try CallSiteSummary(reportJSON: result.standardOutput)
    }

    func testTrailMatesPrintsTheSameEffectsAfterMigrationInBothFormsAndItsCountsStayPinned() throws {
        let root = try TestSupport.temporaryDirectory(self)
        let original = try copyOfBed(named: "original", in: root)

        // The tree is app-sized and callback-shaped.
        let appFiles = TestSupport.swiftFiles(under: original.appendingPathComponent("App"))
        let appLines = try appFiles.reduce(0) { $0 + (try String(contentsOf: $1, encoding: .utf8)).split(separator: "\n", omittingEmptySubsequences: false).count - 1 }
        XCTAssertGreaterThanOrEqual(appFiles.count, 20)
        XCTAssertGreaterThanOrEqual(appLines, 3_000)
        let before = try CallbackPyramids.count(in: appFiles)
        XCTAssertEqual(before, CallbackPyramids.Count(calls: 109, completionClosures: 110, nested: 20), "before")

        // Apps still on callbacks are usually in Swift 5 mode; the migrated ones build in 6.
        let expected = try buildAndRun(original, swiftVersion: "5")
        XCTAssertEqual(expected.components(separatedBy: "\n== ").count, 111, expected)
        XCTAssertFalse(expected.contains("TIMED OUT"), expected)
        // The answers that mean something: (nil, nil) not found, (false, nil) declined, a
        // callee answering synchronously, a fan-out with one failure, a cancellation.
        XCTAssertTrue(expected.contains("[main] friends.status: No hiker is called @zed."), expected)
        XCTAssertTrue(expected.contains("[main] friends.status: @gus does not accept invitations."), expected)
        XCTAssertTrue(expected.contains("== start, nobody signed in\n[main] app.status: starting\n[main] app.status: sign in\n"), expected)
        XCTAssertTrue(expected.contains("[main] summary.result: Saved; 1 of 3 photos failed\n"), expected)
        XCTAssertTrue(expected.contains("[main] sync.outcome: Sync failed: 1 items could not be synced."), expected)
        XCTAssertTrue(expected.contains("[main] sync.outcome: Sync cancelled"), expected)
        XCTAssertTrue(expected.contains("[background] network: GET /trails/search?q=Ea cancelled"), expected)

        // Today's refusals in each form (most frequent first). The promise form needs shapes
        // whose every answer has a branch of its own (a typed error's pattern, a value read on
        // the error path, a `@MainActor` callback do not); the async form keeps
        // any callback's code, and leaves what answers its own function's handler, what code
        // follows, and the shapes it cannot keep.
        let promiseReasons: [String: Int] = [
            "the callback does not start by checking its error (`if let error { ... return }`)": 9,
            "a (Bool, Error?) answer of `(false, nil)` would become a rejection the callback did not have": 2,
            "callbacks passing several values and an error are not flattened yet": 2,
            "a loop around a callback": 1,
            "the callback is isolated to a global actor (its type says `@MainActor`), which a chain's handlers are not": 2,
            "`group.wait()` blocks its thread until every callback has run (forever on the main queue when they call back there); move the code after it into `group.notify(queue: .main) { }` right after the loop": 1,
            "a switch on Result with `default:` or several patterns in a case": 1,
            "an `else if` after the error check": 1,
            "separate success and failure callbacks are not flattened": 1,
            "the callback does not start by checking its error (`if let _ { ... return }`)": 1,
            "the callback reads `friends` as optional, so a `(nil, nil)` answer means something to it": 1,
            "the error branch does not end with `return`, so the success path runs after it too": 1,
            "the failure branch uses the value sent together with the error": 1,
        ]
        let forwarding = "this function's own handler, on the queue the callee answers on: in a `Task` its callers' code would run on the task's thread "
            + "instead (and only after this function returns); "
        let keptBy = "in the tree is converted too, which one left alone prevents; hand it on inside `DispatchQueue.main.async { }`, or `--to promise` keeps both"
        // A callback handing its answer on off the main queue converts where every call of its
        // function is converted by the same run (two are not: a caller hands its own handler
        // on) and its callee runs nothing of the tree's that shows its thread before it returns
        // (four do: the network stand-in logs the thread of each request); an initializer's
        // calls are not followed.
        let calleeRunsTreeCode = "the callee runs code of the tree before it returns, which the task would run on its own thread instead of the caller's; "
            + "hand it on inside `DispatchQueue.main.async { }`, or `--to promise` keeps both"
        let asyncReasons: [String: Int] = [
            "the callback hands its answer on to `completion`, " + forwarding + "converted when every call of the function " + keptBy: 2,
            "the callback hands its answer on to `completion`, " + forwarding + calleeRunsTreeCode: 3,
            // `WeatherService.forecast(for:completion:)` hands its answer on, and takes a lock in its callback.
            "the callback calls `lock()`, which Swift refuses in async code, where its code would go; use `withLock { }`, "
                + "or `--to promise` keeps it": 1,
            "the callback hands its answer on to `onCover`, " + forwarding + "the calls of an initializer are not followed; "
                + "hand it on inside `DispatchQueue.main.async { }`, or `--to promise` keeps both": 1,
            "the callback does not start by checking its error (`if let error { ... return }`)": 2,
            "`group.wait()` blocks its thread until every callback has run (forever on the main queue when they call back there); move the code after it into `group.notify(queue: .main) { }` right after the loop": 1,
            "the error branch does not end with `return`, so the success path runs after it too": 1,
        ]
        // After: the alternatives' own bridges call the originals with a closure (one level,
        // never nested), so calls and closures grow while the pyramids are what is left. In async
        // form the two left are in pyramids whose callbacks stay (a callback not starting by
        // checking its error). In promise form the
        // two left are in pyramids with a callback of a shape it refuses (a call in an alert
        // action, a loop in a failure branch). Both forms count 66 call sites (two of them,
        // `client.send(.logout) { }` and `client.send(.deleteHike(id:)) { }`, leave out a
        // defaulted argument, both left alone), two more than the statements that start one: a call in a kept callback (an alert action, a fan-out;
        // in promise form an inner callback kept as it was in the last handler, as
        // `ProfileViewModel.load`'s split `success:`/`failure:` call) is a call site of its own
        // (in promise form `SyncEngine.sync`'s inner chain, in its last handler, is not one).
        let pins: [String: (summary: CallSiteSummary, after: CallbackPyramids.Count)] = [
            "promise": (CallSiteSummary(converted: 42, leftAlone: 24, reasons: promiseReasons), CallbackPyramids.Count(calls: 106, completionClosures: 108, nested: 2)),
            "async": (CallSiteSummary(converted: 55, leftAlone: 11, reasons: asyncReasons), CallbackPyramids.Count(calls: 95, completionClosures: 96, nested: 2)),
        ]
        for form in ["promise", "async"] {
            let migrated = try copyOfBed(named: form, in: root)
            let app = migrated.appendingPathComponent("App")
            let summary = try migrate(app, to: form)
            XCTAssertEqual(summary, pins[form]?.summary, "\(form): \(summary)")
            let after = try CallbackPyramids.count(in: TestSupport.swiftFiles(under: app))
            XCTAssertEqual(after, pins[form]?.after, "\(form) after")

            let second = try TestSupport.migrate([app.path, "--to", form, "--stage", "all", "--check"])
            XCTAssertEqual(second.status, 0, "a second run would change \(form):\n\(second.standardOutput)\(second.standardError)")

            let actual = try buildAndRun(migrated, swiftVersion: "6")
            if actual != expected {
                XCTFail("\(form) behaves differently:\n" + UnifiedDiffText.make(expected, actual))
            }
        }
    }
}

/// Counts callback pyramids by syntax alone, as a reader without the type checker would:
/// a *completion closure* is a closure passed (in the argument list or trailing) to a call whose
/// base name and argument labels match a function the tree declares with a closure parameter
/// (a function type, possibly `@escaping`, optional, or through a typealias of one); a
/// *pyramid level* is a completion closure nested, at any depth, inside another. Receivers are
/// not resolved, so a platform call with the same name and labels as a tree function counts too.
enum CallbackPyramids {
    struct Count: Equatable {
        /// Calls of the tree's completion-handler functions that pass a closure.
        var calls: Int
        var completionClosures: Int
        /// Completion closures inside another completion closure.
        var nested: Int
    }

    private struct Parameter {
        var label: String
        var hasDefault: Bool
    }

    static func count(in files: [URL]) throws -> Count {
        let trees = try files.map { Parser.parse(source: try String(contentsOf: $0, encoding: .utf8)) }
        let aliases = ClosureAliasCollector(viewMode: .sourceAccurate)
        trees.forEach { aliases.walk($0) }
        let functions = HandlerFunctionCollector(closureAliases: aliases.names)
        trees.forEach { functions.walk($0) }
        let counter = ClosureCounter(functions: functions.functions)
        trees.forEach { counter.walk($0) }
        return Count(calls: counter.calls, completionClosures: counter.closures, nested: counter.nested)
    }

    /// Typealiases whose type is a closure type.
    private final class ClosureAliasCollector: SyntaxVisitor {
        var names: Set<String> = []
        override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
            if isClosureType(node.initializer.value, aliases: []) { names.insert(node.name.text) }
            return .skipChildren
        }
    }

    /// Functions with a closure parameter, by base name.
    private final class HandlerFunctionCollector: SyntaxVisitor {
        let closureAliases: Set<String>
        var functions: [String: [[Parameter]]] = [:]

        init(closureAliases: Set<String>) {
            self.closureAliases = closureAliases
            super.init(viewMode: .sourceAccurate)
        }

        override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
            let parameters = node.signature.parameterClause.parameters
            if parameters.contains(where: { isClosureType($0.type, aliases: closureAliases) }) {
                functions[node.name.text, default: []].append(parameters.map {
                    Parameter(label: $0.firstName.text, hasDefault: $0.defaultValue != nil)
                })
            }
            return .visitChildren
        }
    }

    private static func isClosureType(_ type: TypeSyntax, aliases: Set<String>) -> Bool {
        // An `async` closure (the fan-out executor's `answer { }`) is awaited, not a callback.
        if let function = type.as(FunctionTypeSyntax.self) { return function.effectSpecifiers?.asyncSpecifier == nil }
        if let attributed = type.as(AttributedTypeSyntax.self) { return isClosureType(attributed.baseType, aliases: aliases) }
        if let optional = type.as(OptionalTypeSyntax.self) { return isClosureType(optional.wrappedType, aliases: aliases) }
        if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
            return isClosureType(only.type, aliases: aliases)
        }
        if let identifier = type.as(IdentifierTypeSyntax.self) { return aliases.contains(identifier.name.text) }
        return false
    }

    private final class ClosureCounter: SyntaxVisitor {
        let functions: [String: [[Parameter]]]
        var calls = 0
        var closures = 0
        var nested = 0
        private var openCompletionClosures: [ClosureExprSyntax] = []
        private var completionClosureIDs: Set<SyntaxIdentifier> = []

        init(functions: [String: [[Parameter]]]) {
            self.functions = functions
            super.init(viewMode: .sourceAccurate)
        }

        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            let closuresPassed = node.arguments.compactMap { $0.expression.as(ClosureExprSyntax.self) }
                + (node.trailingClosure.map { [$0] } ?? [])
                + node.additionalTrailingClosures.map(\.closure)
            guard !closuresPassed.isEmpty, let name = baseName(of: node.calledExpression),
                  let candidates = functions[name] else { return .visitChildren }
            let labels = node.arguments.map { $0.label?.text ?? "_" }
            let trailing = (node.trailingClosure == nil ? 0 : 1) + node.additionalTrailingClosures.count
            guard candidates.contains(where: { matches(labels, trailing: trailing, $0) }) else { return .visitChildren }
            calls += 1
            for closure in closuresPassed { completionClosureIDs.insert(closure.id) }
            return .visitChildren
        }

        override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
            guard completionClosureIDs.contains(node.id) else { return .visitChildren }
            closures += 1
            if !openCompletionClosures.isEmpty { nested += 1 }
            openCompletionClosures.append(node)
            return .visitChildren
        }

        override func visitPost(_ node: ClosureExprSyntax) {
            if openCompletionClosures.last?.id == node.id { openCompletionClosures.removeLast() }
        }

        private func baseName(of callee: ExprSyntax) -> String? {
            if let reference = callee.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
            if let member = callee.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
            return nil
        }

        /// The written labels in order, skipping defaulted parameters, then one parameter per
        /// trailing closure (the defaulted ones may be left out there too).
        private func matches(_ labels: [String], trailing: Int, _ parameters: [Parameter]) -> Bool {
            var index = 0
            for label in labels {
                while index < parameters.count, parameters[index].label != label, parameters[index].hasDefault { index += 1 }
                guard index < parameters.count, parameters[index].label == label else { return false }
                index += 1
            }
            let rest = parameters[index...]
            return rest.filter { !$0.hasDefault }.count <= trailing && trailing <= rest.count
        }
    }
}
