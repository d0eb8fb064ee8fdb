import Foundation
import SwiftSyntax

/// What the call-site stage needs to know about a function called with a completion handler:
/// how its handler reports the outcome, and whether it has an alternative in each form.
struct CalleeSummary: Equatable {
    var baseName: String
    /// The type (or extension) declaring it, as ``MigrationIndex/CompletionFunctionSummary/scope``; "" for a global function.
    var scope = ""
    /// Every parameter's argument label, nil for `_`.
    var labels: [String?]
    var handlerIndex: Int
    /// The failure handler's position of a split `success:`/`failure:` pair, and its type as written.
    var failureIndex: Int?
    var failureHandlerType: String?
    var shape: HandlerShape
    /// The alternative is a `Guarantee` (the handler cannot report an error, nothing to cancel).
    var producesGuarantee: Bool
    var hasPromiseAlternative: Bool
    var hasAsyncAlternative: Bool
    /// Why the callee gets no alternative in each form, when it does not.
    var noAlternativeReasons: [MigrationTarget: String] = [:]
    /// The handler is optional or defaulted. A converted call (`try await store.load(id)`,
    /// `store.load(id).done { }`) still reaches the alternative: it needs no default argument, is
    /// the async one in async code, and the only one returning a promise.
    var handlerIsOptional = false
    /// The handler has a default value (`completion: (() -> Void)? = nil`): a call may leave it out.
    var handlerHasDefault = false
    /// A `Result` handler's failure type when it is not Swift's `Error` (`NetworkError`): a
    /// failure branch reads its error as that type, where a `catch` gives `any Error`.
    var typedFailure: String?
    /// The handler's parameter types as the declaration spells them (aliases resolved).
    var handlerParameterTypes: [String] = []
    /// The callee's own generic parameters: a type naming them cannot be spelled at a call site.
    var genericParameterNames: [String] = []
    /// Generic parameters a metatype parameter pins, by that parameter's label
    /// (`as type: Value.Type`: `["as": "Value"]`): a call passing `Hike.self` there spells `Value`.
    var metatypeLabels: [String: String] = [:]
    /// How the async alternative throws a `Result<T, E>` handler's `E`: `throws(E)` when this run
    /// writes it (`typed`), unknown for one that exists already.
    var asyncFailure: AsyncFailure = .untyped
    /// The handler's type names a global actor (`@MainActor (Bool) -> Void`).
    var handlerIsActorIsolated = false

    enum AsyncFailure: Equatable {
        case untyped
        case typed(String)
        /// `any Error`, but only this type unless the awaiting Task is cancelled
        /// (``MigrationIndex/CompletionFunctionSummary/asyncFailureUnlessCancelled``).
        case typedUnlessCancelled(String)
        case unknown
    }
    /// The callee calls its handler only after it returns, on every path (the index reads this
    /// from its body: ``MigrationIndex/CompletionFunctionSummary/callsBackLater``).
    var callsBackLater = false
    /// Code of the tree runs on the caller's thread before a call returns
    /// (``MigrationIndex/startsTreeCodeAtOnce(_:)``): called from another thread, it would show.
    var startsTreeCodeAtOnce = true
    /// Code that traps on another thread runs before a call returns (``MigrationIndex/checksThreadAtOnce(_:)``).
    var checksThreadAtOnce = true
    /// The callee answers on the main queue, on every path where it does not answer at once
    /// (``MigrationIndex/CompletionFunctionSummary/answersOnMain``).
    var answersOnMain = false
    /// It answers on the main queue on some path (``MigrationIndex/CompletionFunctionSummary/mayAnswerOnMain``).
    var mayAnswerOnMain = false
    /// Its parameters as calls bind to them (``CallBinding``): a call may leave out defaulted ones.
    var parameterShapes: [ParameterShape] = []
    /// The callee answers on the queue one of its parameters names
    /// (``MigrationIndex/CompletionFunctionSummary/answerQueue``).
    var answerQueue: MigrationIndex.AnswerQueue?
    /// A path of the callee's body ends without calling its handler (``MigrationIndex/CompletionFunctionSummary/answersNothingAt``):
    /// its alternatives answer nothing there either. Awaited in a new `Task`, that is the
    /// callback never running, as before; awaited in an async function, the function would
    /// stop there where it returned before.
    var answersNothingAt: MigrationIndex.Location?

    /// Whether a call passing arguments with these labels, in this order, may be of this callee
    /// (it may leave out others, defaulted ones).
    func takesInOrder(_ labels: [String?]) -> Bool {
        var rest = self.labels[...]
        for label in labels {
            guard let position = rest.firstIndex(of: label) else { return false }
            rest = rest[(position + 1)...]
        }
        return true
    }

    /// Where a call of this callee answers: on the main queue (it answers there, or on the queue
    /// its queue parameter names and the call names the main queue, or leaves out a parameter
    /// whose default is it), on a queue the call names (`.some`: its argument's text), or
    /// elsewhere (nil, false).
    func answersOnMain(in call: FunctionCallExprSyntax) -> (main: Bool, queue: String?) {
        if answersOnMain { return (true, nil) }
        guard let answerQueue else { return (false, nil) }
        let argument = answerQueue.label.flatMap { label in call.arguments.first { $0.label?.text == label } }
        guard let argument else { return answerQueue.label == nil ? (false, "its unlabelled queue") : (answerQueue.defaultIsMain, answerQueue.defaultIsMain ? nil : "its default queue") }
        let text = argument.expression.trimmedDescription
        return MigrationIndex.namesMainQueue(text) ? (true, nil) : (false, text)
    }

    /// Refuses a call whose callee answers nothing on some path (``answersNothingAt``), awaited in
    /// an async function's own body: the function would stop there where it returned before.
    /// Elsewhere such a call keeps its meaning: a new `Task` stays suspended, and a promise (or a
    /// fan-out's `when(guarantees:)`) stays pending (`ifAbandoned: .stayPending`), so nothing
    /// runs, as the callback never ran.
    static func checkAnswers(_ callee: CalleeSummary, at call: some SyntaxProtocol) throws(Refusal) {
        guard let place = callee.answersNothingAt else { return }
        throw Refusal("the callee ends without calling its handler on a path (\(place.fileName):\(place.line)): awaited in this async function, "
                      + "the function would stop there instead of returning as it did", at: call)
    }

    func hasAlternative(for target: MigrationTarget) -> Bool {
        target == .promise ? hasPromiseAlternative : hasAsyncAlternative
    }

    /// Whether a call matching both this function and `other` is converted the same whichever of
    /// them the compiler picks, so that several matches are not ambiguous for the call-site stage:
    /// typically a protocol requirement and a conforming type's implementation with the same
    /// signature. Converting a call reads only these fields and the call's own syntax, so the
    /// rewritten code is the same text; and when both have the alternative, a call through the
    /// protocol reaches the one its extension adds and a call on the concrete type that type's
    /// own (the more specific overload), each wrapping the function the original call reached.
    /// `noAlternativeReasons` is prose for the report and does not count, nor does
    /// `handlerIsOptional`: a call passing the handler is converted alike either way.
    func convertsLike(_ other: CalleeSummary) -> Bool {
        labels == other.labels && handlerIndex == other.handlerIndex && shape == other.shape
            && producesGuarantee == other.producesGuarantee
            && hasPromiseAlternative == other.hasPromiseAlternative && hasAsyncAlternative == other.hasAsyncAlternative
            && (answersNothingAt == nil) == (other.answersNothingAt == nil)
    }
}

/// Looks callees up by base name; whatever knows the tree can answer.
protocol CalleeCatalog {
    /// Every completion-handler function named `baseName`, in any type.
    func callees(named baseName: String) -> [CalleeSummary]
    /// The completion-handler functions named `baseName` that `call` may reach, as the compiler
    /// would find them from what syntax shows of its receiver.
    func callees(named baseName: String, calledBy call: FunctionCallExprSyntax) -> [CalleeSummary]
    /// Where the tree assigns `conf.Q` or `conf.D`, so chain handlers naming no queue may not
    /// run on the main queue (``DefaultQueueAssignment``).
    var defaultQueueAssignment: MigrationIndex.Location? { get }
    /// What a call of the tree's promise-returning functions passing exactly `labels` reaches
    /// (nil: none of them).
    func promiseFunctionCall(named baseName: String, labels: [String?]) -> PromiseFunctionCall?
    /// The value types the tree's promise-returning functions named `baseName` answer.
    func promiseValueTypes(named baseName: String) -> Set<String>
    /// The tree's calls of promise-returning functions named `baseName`, each file's, as the index
    /// recorded them (all of them in a `--replace` run).
    func promiseFunctionCalls(named baseName: String) -> [ExistingCall]
    /// Whether `--replace` makes async the promise function whose `func` keyword is at `line`
    /// and `column` of this file.
    func replacesPromiseFunction(line: Int, column: Int) -> Bool
    /// A call of the synchronous function `swiftName` after which its caller runs more code
    /// (``MigrationIndex/callWithCodeAfter(_:parameters:typeName:)``).
    func callWithCodeAfter(_ swiftName: String, parameters: [ParameterShape], typeName: String?) -> (location: MigrationIndex.Location, callee: String)?
    /// The closure argument of `call` that a test helper of the tree waits on before returning
    /// (``MigrationIndex/waitedClosure(of:)``).
    func waitedClosure(of call: FunctionCallExprSyntax) -> ClosureExprSyntax?
    /// The functions whose forwarding callbacks may move into a `Task` (``MigrationIndex/forwardingAllowed``).
    var forwardingAllowed: Set<String> { get }
    /// Whether the run decides ``forwardingAllowed`` (``MigrationIndex/runDecidesForwarding``).
    var runDecidesForwarding: Bool { get }
    /// The functions whose callers with code after the call are all converted (``MigrationIndex/codeAfterCleared``).
    var codeAfterCleared: Set<String> { get }
    /// `type` inherits a UIKit or AppKit class isolated to the main actor (``MigrationIndex/inheritsMainActorFrameworkClass(_:)``).
    func inheritsMainActorFrameworkClass(_ type: String) -> Bool
}

extension CalleeCatalog {
    var defaultQueueAssignment: MigrationIndex.Location? { nil }
    func promiseFunctionCall(named baseName: String, labels: [String?]) -> PromiseFunctionCall? { nil }
    func promiseValueTypes(named baseName: String) -> Set<String> { [] }
    func promiseFunctionCalls(named baseName: String) -> [ExistingCall] { [] }
    func replacesPromiseFunction(line: Int, column: Int) -> Bool { false }
    func callWithCodeAfter(_ swiftName: String, parameters: [ParameterShape], typeName: String?) -> (location: MigrationIndex.Location, callee: String)? { nil }
    func waitedClosure(of call: FunctionCallExprSyntax) -> ClosureExprSyntax? { nil }
    var forwardingAllowed: Set<String> { [] }
    var runDecidesForwarding: Bool { false }
    var codeAfterCleared: Set<String> { [] }
    func inheritsMainActorFrameworkClass(_ type: String) -> Bool { MigrationIndex.mainActorFrameworkClasses.contains(type) }

    /// Without receivers to read, every function of the name.
    func callees(named baseName: String, calledBy call: FunctionCallExprSyntax) -> [CalleeSummary] {
        callees(named: baseName)
    }
}

/// The whole-tree index seen as a catalog of callees. A function counts as having an alternative
/// when one exists anywhere in the tree, or when this run adds it: in this file, what the
/// declarations stage reported added; in other files, every function it can convert (they are
/// migrated by the same `--stage all` run).
struct IndexCalleeCatalog: CalleeCatalog {
    let index: MigrationIndex
    var defaultQueueAssignment: MigrationIndex.Location? { index.defaultQueueAssignment }
    let fileName: String

    func replacesPromiseFunction(line: Int, column: Int) -> Bool {
        index.replacedPromiseFunctions.contains(MigrationIndex.Location(file: fileName, line: line, column: column))
    }
    func callWithCodeAfter(_ swiftName: String, parameters: [ParameterShape], typeName: String?) -> (location: MigrationIndex.Location, callee: String)? {
        index.callWithCodeAfter(swiftName, parameters: parameters, typeName: typeName)
    }
    func waitedClosure(of call: FunctionCallExprSyntax) -> ClosureExprSyntax? {
        index.waitedClosure(of: call)
    }
    var forwardingAllowed: Set<String> { index.forwardingAllowed }
    var runDecidesForwarding: Bool { index.runDecidesForwarding }
    var codeAfterCleared: Set<String> { index.codeAfterCleared }
    func inheritsMainActorFrameworkClass(_ type: String) -> Bool { index.inheritsMainActorFrameworkClass(type) }
    /// `--stage all`: the declarations stage runs on every file of the tree too.
    let addingAlternatives: Bool
    /// The functions this file's declarations stage gave an alternative (or found one for), as
    /// ``gainedKey(swiftName:line:)`` names them: by name and line, since a protocol requirement
    /// and its implementation in the same file share the name but may not both gain one.
    let gainedHere: Set<String>
    /// `--replace`: functions are converted themselves, never given an alternative.
    var replacing = false
    /// `--replace --to async`: promise-returning functions the index decides on become async.
    var replacesPromiseFunctions = false
    /// `--trust-stored-handlers`: functions storing their handler get a promise alternative.
    var trustsStoredHandlers = false

    func promiseValueTypes(named baseName: String) -> Set<String> {
        Set((index.promiseFunctionsByBaseName[baseName] ?? []).map(\.valueType))
    }

    func promiseFunctionCalls(named baseName: String) -> [ExistingCall] {
        index.promiseFunctionsByBaseName[baseName] == nil ? [] : index.callsByBaseName[baseName] ?? []
    }

    func promiseFunctionCall(named baseName: String, labels: [String?]) -> PromiseFunctionCall? {
        guard var call = index.promiseFunctionCall(baseName: baseName, labels: labels, adding: addingAlternatives) else { return nil }
        // `--replace` converts functions themselves, never adding an alternative; with
        // `--to async`, a replaced one is awaited as it is.
        if replacing { call.awaitedDirectly = replacesPromiseFunctions && call.replaced }
        return call
    }

    /// The calls of the file being rewritten, with their receivers as the index reads them
    /// (``ExistingCallCollector``), by the offset where the called expression ends.
    var receivers: [Int: ExistingCall] = [:]

    /// The calls of `tree` by where their called expression ends, for ``receivers``; for a piece
    /// of a large file, with the properties its types declare in the other pieces. `names`: only
    /// calls of these base names (those of completion-handler functions; no other call has callees).
    static func receivers(in tree: some SyntaxProtocol, fileName: String, converter: SourceLocationConverter,
                          otherPiecesProperties: [Int: [String: String?]] = [:], names: Set<String>? = nil) -> [Int: ExistingCall] {
        let collector = ExistingCallCollector(fileName: fileName, converter: converter, names: names)
        collector.otherPiecesProperties = otherPiecesProperties
        collector.walk(tree)
        return Dictionary(collector.calls.map { ($0.calleeEnd, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// `store.load(id) { }` with `store: Store`: only the functions `Store` declares or inherits
    /// (none when `Store` is a framework type the tree does not extend with one); `self.load`
    /// only what the enclosing type's hierarchy declares; `load(id) { }` inside a type that
    /// declares or inherits a `load` does not reach a global `load` (members shadow it). A call
    /// whose receiver syntax does not type may reach any. The functions found come first; after
    /// them, the same-named functions of their subtypes, where dynamic dispatch may land (through
    /// a protocol, the conforming type's implementation): the call is converted only if they
    /// all convert it alike.
    func callees(named baseName: String, calledBy call: FunctionCallExprSyntax) -> [CalleeSummary] {
        let all = callees(named: baseName)
        guard let existing = receivers[call.calledExpression.endPositionBeforeTrailingTrivia.utf8Offset] else { return all }
        var reached = all.filter { index.resolves(existing, toMemberOf: $0.scope) }
        if existing.receiver == .implicit, reached.contains(where: { !$0.scope.isEmpty }) {
            reached.removeAll { $0.scope.isEmpty }
        }
        // A protocol's requirement (or a superclass's method) and the receiver's own declaration
        // taking the same labels: the compiler picks the receiver's own, the more specific, and
        // dispatch lands on it anyway (`http.request(...)` with `http: HTTPClient`, whose
        // `request` implements `HTTPClientProtocol`'s with a defaulted parameter more).
        let found = reached
        reached.removeAll { general in
            !general.scope.isEmpty && found.contains { specific in
                !specific.scope.isEmpty && specific.scope != general.scope && specific.labels == general.labels
                    && specific.handlerIndex == general.handlerIndex && index.inherits(specific.scope, from: general.scope)
            }
        }
        let dispatched = all.filter { candidate in
            !reached.contains(candidate) && !candidate.scope.isEmpty
                && reached.contains { !$0.scope.isEmpty && index.inherits(candidate.scope, from: $0.scope) }
        }
        return reached + dispatched
    }

    /// `send(_:body:completion:)@12`, the line being the `func` keyword's.
    static func gainedKey(swiftName: String, line: Int) -> String { "\(swiftName)@\(line)" }

    func callees(named baseName: String) -> [CalleeSummary] {
        index.completionFunctions(baseName: baseName).map { function in
            func has(_ target: MigrationTarget) -> Bool {
                switch function.alternative(for: target, trustingStoredHandlers: trustsStoredHandlers) {
                case .existing: return true
                case .none: return false
                case .generated:
                    // This file: what its declarations stage reported; other files: what the same
                    // `--stage all` run adds there.
                    return function.location.file == fileName
                        ? gainedHere.contains(Self.gainedKey(swiftName: function.swiftName, line: function.location.line))
                        : addingAlternatives && !function.isContext
                }
            }
            var reasons: [MigrationTarget: String] = [:]
            for target in MigrationTarget.allCases {
                switch function.alternative(for: target, trustingStoredHandlers: trustsStoredHandlers) {
                case .none(let why):
                    reasons[target] = why
                case .generated where replacing && !has(target):
                    reasons[target] = "--replace converts a function itself rather than adding an alternative, and leaves this one as it is "
                        + "(its own finding says why); add alternatives first (run without --replace), then convert the calls"
                default:
                    break
                }
            }
            return CalleeSummary(
                baseName: function.baseName,
                scope: function.scope,
                labels: function.argumentLabels,
                handlerIndex: function.handlerIndex,
                failureIndex: function.failureIndex,
                failureHandlerType: function.failureIndex.flatMap { index in
                    index < function.parameterShapes.count ? function.parameterShapes[index].typeText : nil
                },
                shape: function.failureIndex == nil ? function.shape : .split(value: function.valueType),
                producesGuarantee: !function.shape.canFail && !function.isThrowing && function.cancellableHandle == nil,
                hasPromiseAlternative: has(.promise),
                hasAsyncAlternative: has(.async),
                noAlternativeReasons: reasons,
                handlerIsOptional: function.handlerIsOptional,
                handlerHasDefault: function.handlerDefaults[function.handlerIndex] != nil,
                typedFailure: {
                    let types = function.handlerParameterTypes
                    let spelled: String?
                    switch function.shape {
                    // `Result<T, Error>` reads as untyped (no failure type): see whether `Error` is the tree's.
                    case .result(_, let failure): spelled = failure ?? "Error"
                    case .errorOnly, .errorAndOptionalValue: spelled = types.first
                    case .optionalValueAndError, .valueAndError: spelled = types.count == 2 ? types[1] : nil
                    default: spelled = nil
                    }
                    guard var type = spelled?.trimmingCharacters(in: .whitespaces) else { return nil }
                    if type.hasSuffix("?") { type.removeLast() }
                    return index.typedFailure(type, in: function.scope)
                }(),
                handlerParameterTypes: function.handlerParameterTypes.map { index.qualifiedType($0, in: function.scope) },
                genericParameterNames: function.genericParameterNames,
                metatypeLabels: Dictionary(function.parameterShapes.compactMap { shape -> (String, String)? in
                    guard let label = shape.label, shape.typeText.hasSuffix(".Type") else { return nil }
                    let name = String(shape.typeText.dropLast(5))
                    return function.genericParameterNames.contains(name) ? (label, name) : nil
                }, uniquingKeysWith: { first, _ in first }),
                asyncFailure: {
                    guard case .result(_, let failure?) = function.shape else { return .untyped }
                    let unlessCancelled = function.asyncFailureUnlessCancelled.map(CalleeSummary.AsyncFailure.typedUnlessCancelled)
                    if case .existing(let counterpart) = function.alternative(for: .async, trustingStoredHandlers: trustsStoredHandlers) {
                        // Declared `throws(E)`; or one this tool added, which throws what it writes.
                        if let thrown = counterpart.thrownType { return thrown == failure ? .typed(failure) : .unknown }
                        return counterpart.addedByTool ? unlessCancelled ?? .unknown : .unknown
                    }
                    if let typed = function.asyncTypedFailure { return .typed(typed) }
                    return unlessCancelled ?? .untyped
                }(),
                handlerIsActorIsolated: function.handlerIsActorIsolated,
                callsBackLater: function.callsBackLater,
                startsTreeCodeAtOnce: index.startsTreeCodeAtOnce(function.synchronousCalls),
                checksThreadAtOnce: index.checksThreadAtOnce(function.synchronousCalls),
                answersOnMain: function.answersOnMain,
                mayAnswerOnMain: function.mayAnswerOnMain,
                parameterShapes: function.parameterShapes,
                answerQueue: function.answerQueue,
                answersNothingAt: function.answersNothingAt
            )
        }
    }
}
