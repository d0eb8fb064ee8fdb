import SwiftSyntax

/// Writes the promise or async alternative of one completion-handler function.
///
/// The alternative calls the original, so the original stays the single implementation and both
/// can live side by side while call sites move over.
struct AlternativeEmitter {
    var function: CompletionFunction
    var target: MigrationTarget
    /// `seal`, `continuation`, `task`...: renamed where a parameter already uses the name.
    private var names: GeneratedNames

    /// The tree declares its own `CancellationToken`, which would hide Vow's in the added
    /// `cancellation:` parameter: spell it `Vow.CancellationToken`.
    var tokenTypeIsShadowed = false

    /// Generic parameters of the enclosing type that the result needs `Sendable` (`where T: Sendable`).
    var contextualSendable: [String] = []
    /// Whether the function's own generic parameters that the result mentions get `Sendable`
    /// (Swift 6 mode); in Swift 5 mode nothing checks it, and callers' types need not conform.
    var requiresSendable = true

    /// Declared in a type or extension (not at file scope): the call to the original can say
    /// `self.` where a parameter hides the function's name.
    var isMember: Bool

    /// The file does not import Vow: the async form throws and cancels with the standard library
    /// and the file's own `SwiftOnlySupport` declarations, so a package without Vow builds it.
    var swiftOnly = false

    /// `--trust-stored-handlers` let a stored handler through: the async form resumes its
    /// continuation through the file's `ResumeOnce` (a handler called again is dropped, never a
    /// second resume, which would trap).
    var resumesOnce = false

    /// The line where a path of the original ends without calling its handler, which the
    /// alternative's doc comment states. The async form answers nothing there either: it waits on
    /// an unchecked continuation, which a checked one would report as leaked at run time (the
    /// awaiting task stays suspended, as the callback never ran; the index has checked that no
    /// path calls the handler twice). The promise form's promise or guarantee stays pending there,
    /// silently (`ifAbandoned: .stayPending`): no handler of a chain on it runs.
    var answersNothingAt: Int?

    /// The alternatives answer a cancelled request themselves, as the index decides it
    /// (``MigrationIndex/answersCancellation(returnsHandle:canFail:file:)``): the async form
    /// resumes through the file's `CancellableAnswer`, which throws `CancellationError` as soon as
    /// the awaiting Task is cancelled, whether or not the original ever answers a cancelled request.
    var answersCancellation = false

    /// Whether the async form answers the awaiting Task's cancellation itself
    /// (``answersCancellation``). Many callees never call their handler once their request is
    /// cancelled (`if error.code == NSURLErrorCancelled { return }`), which would leave a
    /// continuation waiting on that handler forever.
    var answersCancellationItself: Bool {
        target == .async && answersCancellation && !resumesOnce
    }

    /// How the async form spells `Task`: `Swift.Task` where the tree declares a type of that name
    /// (a to-do app's model), which a bare `Task { }` would mean.
    var taskType = "Task"
    /// `Swift.Error` where the tree declares a type named `Error` of its own.
    var errorType = "Error"

    /// The async form is `nonisolated(nonsending)`: it runs on its caller's actor, so the original
    /// is called where the caller's code runs (see ``ActorContext``). Only for a function that is
    /// provably not isolated; an isolated one's alternative shares its isolation already.
    var runsOnCallersActor = false

    init(function: CompletionFunction, target: MigrationTarget, enclosingTypeParameters: [String] = [], isMember: Bool = true) {
        self.function = function
        self.target = target
        self.isMember = isMember
        let mentioned = Set(identifiers(in: function.shape.valueType))
        self.contextualSendable = enclosingTypeParameters.filter { mentioned.contains($0) }
        // Nor the function's own name, which the generated closure calls (`func resolve(_:completion:)`).
        self.names = GeneratedNames(taken: Set(function.keptParameters.map(\.name)).union([function.name.filter { $0 != "`" }]))
    }

    /// Whether the promise alternative can be a `Guarantee` (cannot fail, nothing to cancel).
    var producesGuarantee: Bool {
        !function.shape.canFail && !function.isThrowing && function.cancellableHandle == nil
    }

    /// Whether the generated code names a Vow type.
    var needsVow: Bool {
        switch target {
        case .promise: return true
        // The bridges are the file's own declarations, whether or not it imports Vow.
        case .async: return !swiftOnly && !asyncNeeds.subtracting([.resumeOnce, .cancellableAnswer]).isEmpty
        }
    }

    /// The file-scope declarations the async form needs in a file without Vow.
    var support: Set<SwiftOnlySupport> {
        guard target == .async else { return [] }
        // The bridge is the file's own whether or not it imports Vow (Vow has none to offer).
        if swiftOnly { return asyncNeeds }
        return resumesOnce ? [.resumeOnce] : answersCancellationItself ? [.cancellableAnswer] : []
    }

    /// What the async form needs beyond the standard library: Vow's types, or their stand-ins.
    private var asyncNeeds: Set<SwiftOnlySupport> {
        var needed = Set<SwiftOnlySupport>()
        if function.shape.asyncRejectsMissingAnswer { needed.insert(.neitherValueNorError) }
        if answersCancellationItself {
            needed.insert(.cancellableAnswer)
        } else if function.cancellableHandle != nil {
            needed.insert(.pendingCancellation)
        }
        if resumesOnce { needed.insert(.resumeOnce) }
        return needed
    }

    /// The `E` of a `Result<T, E>` handler that the async form keeps as `throws(E)`.
    var typedFailure: String? {
        if case .result(_, let failure) = function.shape, let failure, !function.isThrowing,
           function.cancellableHandle == nil {
            return failure
        }
        return nil
    }

    /// The `E` of a `Result<T, E>` handler of a function returning a cancellable handle: its
    /// async form throws `any Error`, but only `E`, or `CancellationError` when the awaiting Task
    /// is cancelled (the original's own answer to a cancelled request is an `E`).
    var typedFailureUnlessCancelled: String? {
        if case .result(_, let failure) = function.shape, let failure, !function.isThrowing,
           function.cancellableHandle != nil {
            return failure
        }
        return nil
    }

    /// Labels of the alternative, for `renamed:` and for spotting an existing one.
    var alternativeLabels: [String?] {
        var labels = function.keptParameters.map(\.label)
        if !typeOnlyGenericParameters.isEmpty { labels.append("as") }
        if target == .promise && function.cancellableHandle != nil { labels.append("cancellation") }
        return labels
    }

    /// The alternative's parameters as argument matching sees them, to check it against every
    /// existing call (an added `as` or `cancellation` parameter has a default).
    var alternativeParameterShapes: [ParameterShape] {
        var shapes = function.keptParameters.map(\.shape)
        if !typeOnlyGenericParameters.isEmpty { shapes.append(ParameterShape(label: "as", hasDefault: true, takesClosure: false)) }
        if target == .promise && function.cancellableHandle != nil {
            shapes.append(ParameterShape(label: "cancellation", hasDefault: true, takesClosure: false))
        }
        return shapes
    }

    /// Generic parameters only the result mentions (`func get<T: Decodable>(completion: (Result<T,
    /// Error>) -> Void)`): a call could not name `T` but by its context, so the alternative takes
    /// `as type: T.Type = T.self` (`get(as: User.self)`; `let user: User = try await get()` works too).
    var typeOnlyGenericParameters: [String] {
        guard let clause = function.decl.genericParameterClause else { return [] }
        let inResult = Set(identifiers(in: valueType))
        let inParameters = Set(function.keptParameters.flatMap { identifiers(in: $0.text) })
        return clause.parameters.map(\.name.text).filter { inResult.contains($0) && !inParameters.contains($0) }
    }

    /// A generic function whose handler rebuilds the value (a multi-value tuple), or unwraps it
    /// (`(T?, Error?)`) where no argument names the type: Swift cannot infer the generic parameter
    /// from what the closure does with it, so the closure names its parameters' types. A `Result`
    /// or a plain value is passed on as it is and infers it.
    private var spellsOutHandlerTypes: Bool {
        switch function.shape {
        case .tuple: break
        // An argument naming the type (`first(of: items)`) lets Swift infer it; only the result does not.
        case .optionalValueAndError, .errorAndOptionalValue, .valueAndError:
            if typeOnlyGenericParameters.isEmpty { return false }
        default: return false
        }
        guard let clause = function.decl.genericParameterClause else { return false }
        let mentioned = Set(identifiers(in: valueType))
        return clause.parameters.contains { mentioned.contains($0.name.text) }
            && function.handlerParameterTypes.count == function.shape.closureParameters.count
    }

    /// Why the alternative could not compile without types the tool does not have, or nil.
    var cannotCompileReason: String? {
        let words = Set(identifiers(in: valueType))
        if words.contains("some") {
            return "its value type `\(valueType)` is opaque (`some`); a promise or continuation needs a concrete type"
        }
        if typeOnlyGenericParameters.count > 1 {
            return "its result uses several generic parameters no argument mentions (\(typeOnlyGenericParameters.joined(separator: ", "))); a call could not name them all"
        }
        if let unused = genericParametersOnlyTheHandlerFailureNames.first {
            return "its generic parameter `\(unused)` appears only in the handler's error type, which the alternative "
                + (target == .promise ? "drops (a promise's error is untyped)" : "does not keep (a thrown error is untyped here)")
                + ", so no argument or result would name it"
        }
        if let hiding = parameterHidingTheFunction, !isMember {
            return "its parameter `\(hiding)` has the function's name, so the alternative could not call the original (the name would mean the parameter); rename the parameter"
        }
        return nil
    }

    /// Generic parameters of the function that nothing of the alternative mentions (its kept
    /// parameters, its value, its typed error in async form, its `where` clause): only the
    /// handler's failure type did (`func f<E: Error>(completion: (Result<Int, E>) -> Void)`).
    private var genericParametersOnlyTheHandlerFailureNames: [String] {
        guard let clause = function.decl.genericParameterClause else { return [] }
        var mentioned = Set(identifiers(in: valueType))
        for parameter in function.keptParameters { mentioned.formUnion(identifiers(in: parameter.text)) }
        if target == .async, let typedFailure { mentioned.formUnion(identifiers(in: typedFailure)) }
        if let returned = function.cancellableHandle?.type { mentioned.formUnion(identifiers(in: returned)) }
        // A `where` requirement tying it to a parameter that is mentioned (`T.Failure == E`).
        let names = Set(clause.parameters.map(\.name.text))
        for requirement in function.decl.genericWhereClause?.requirements ?? [] {
            let words = Set(identifiers(in: requirement.requirement.trimmedDescription)).intersection(names)
            if words.contains(where: mentioned.contains) { mentioned.formUnion(words) }
        }
        return clause.parameters.map(\.name.text).filter { !mentioned.contains($0) }
    }

    /// The names an existing counterpart may have: the alternative's, and for a generic result
    /// without the added `as:` (a hand-written twin `func load<T>() async throws -> T`).
    var counterpartNames: [String] {
        var names = [alternativeSwiftName]
        if !typeOnlyGenericParameters.isEmpty {
            var labels = alternativeLabels
            if let position = labels.firstIndex(of: "as") { labels.remove(at: position) }
            names.append(CompletionFunction.swiftName(function.name, labels: labels))
        }
        return names
    }

    /// What tells this alternative apart from another one in the same type: its name and its
    /// parameters' types (two originals differing only in what the alternative drops collide).
    var overloadKey: String {
        alternativeSwiftName + "|" + function.keptParameters.map(\.typeText).joined(separator: ",")
    }

    /// A kept parameter named like the function (`request(request:completion:)`): inside the
    /// alternative, `request(...)` would mean the parameter.
    private var parameterHidingTheFunction: String? {
        let name = function.name.filter { $0 != "`" }
        return function.keptParameters.first { $0.name.filter { $0 != "`" } == name }?.name
    }

    var alternativeSwiftName: String {
        CompletionFunction.swiftName(function.name, labels: alternativeLabels)
    }

    /// A one-line description for the report.
    var summary: String {
        "\(alternativeSwiftName)\(effectsText)\(returnText)"
    }

    // MARK: - Signature

    private var valueType: String { function.shape.valueType }

    private var effectsText: String {
        switch target {
        case .promise:
            return ""
        case .async:
            if let typedFailure { return " async throws(\(typedFailure))" }
            return function.shape.canFail || function.isThrowing ? " async throws" : " async"
        }
    }

    private var returnText: String {
        switch target {
        case .promise:
            return " -> \(producesGuarantee ? "Guarantee" : "Promise")<\(valueType)>"
        case .async:
            return valueType == "Void" ? "" : " -> \(valueType)"
        }
    }

    /// The declaration's attributes worth repeating on the alternative.
    private var keptAttributes: [String] { Self.keptAttributes(of: function.decl) }

    /// Those of any declaration an alternative is written beside (`@discardableResult` is the
    /// alternative's own business). Not `@inlinable` and its kin: an inlinable body may only use
    /// public declarations, and the alternative's uses the file's private helpers
    /// (`NeitherValueNorError`); it is an ordinary public function calling the inlinable one.
    static func keptAttributes(of decl: FunctionDeclSyntax) -> [String] {
        decl.attributes.compactMap { element -> String? in
            guard let attribute = element.as(AttributeSyntax.self) else { return nil }
            let name = attribute.attributeName.trimmedDescription
            if ["objc", "IBAction", "IBSegueAction", "discardableResult", "nonobjc", "objcMembers",
                "inlinable", "usableFromInline", "_transparent", "_alwaysEmitIntoClient"].contains(name) { return nil }
            if name == "available" {
                let arguments = attribute.arguments?.trimmedDescription ?? ""
                if arguments.hasPrefix("*") || arguments.contains("renamed") || arguments.contains("deprecated")
                    || arguments.contains("unavailable") || arguments.contains("obsoleted") {
                    return nil
                }
            }
            return attribute.trimmedDescription
        }
    }

    private var keptModifiers: [String] { Self.keptModifiers(of: function.decl) }

    static func keptModifiers(of decl: FunctionDeclSyntax) -> [String] {
        decl.modifiers.compactMap { modifier in
            ["dynamic", "required", "convenience", "optional", "override"].contains(modifier.name.text) ? nil : modifier.trimmedDescription
        }
    }

    /// The generic clause with `Sendable` added to each parameter the result type mentions,
    /// since `Promise<T>` and continuations need a `Sendable` value.
    private var genericClause: String {
        Self.genericClause(of: function.decl, valueType: valueType, requiresSendable: requiresSendable)
    }

    /// `decl`'s generic clause, each parameter `valueType` mentions made `Sendable` if asked.
    static func genericClause(of decl: FunctionDeclSyntax, valueType: String, requiresSendable: Bool) -> String {
        guard let clause = decl.genericParameterClause else { return "" }
        let mentioned = Set(identifiers(in: valueType))
        let whereText = decl.genericWhereClause?.trimmedDescription ?? ""
        let parameters = clause.parameters.map { parameter -> String in
            let name = parameter.name.text
            var text = parameter.detached.with(\.trailingComma, nil).trimmedDescription
            let alreadySendable = identifiers(in: parameter.inheritedType?.trimmedDescription ?? "").contains("Sendable")
                || whereText.contains("\(name): Sendable")
            if requiresSendable && mentioned.contains(name) && !alreadySendable && parameter.specifier == nil {
                if let inherited = parameter.inheritedType {
                    text = "\(name): \(inherited.trimmedDescription) & Sendable"
                } else {
                    text = "\(name): Sendable"
                }
            }
            return text
        }
        return "<" + parameters.joined(separator: ", ") + ">"
    }

    private var parameterList: String {
        var parameters = function.keptParameters.map(\.text)
        if let generic = typeOnlyGenericParameters.first {
            parameters.append("as \(names.type): \(generic).Type = \(generic).self")
        }
        if target == .promise && function.cancellableHandle != nil {
            parameters.append("cancellation \(names.token): \(tokenTypeIsShadowed ? "Vow." : "")CancellationToken? = nil")
        }
        return parameters.joined(separator: ", ")
    }

    // MARK: - Declaration

    /// The alternative, from its doc comment to its closing brace, at nesting level 0.
    func declaration() -> CodeLines {
        var lines = CodeLines()
        switch target {
        case .promise:
            lines.add("/// Promise-based alternative to `\(function.swiftName)`, added by vow-migrate.", 0)
        case .async:
            lines.add("/// Async alternative to `\(function.swiftName)`, added by vow-migrate.", 0)
        }
        if answersNothingAt != nil {
            switch target {
            case .async:
                lines.add("/// Like the original, which ends without calling its handler on some path, it answers nothing there: "
                          + "the awaiting task stays suspended.", 0)
            case .promise:
                lines.add("/// Like the original, which ends without calling its handler on some path, it answers nothing there: "
                          + "the \(producesGuarantee ? "guarantee" : "promise") stays pending.", 0)
            }
        }
        if let generic = typeOnlyGenericParameters.first {
            lines.add("/// `\(generic)` comes from the call's context, or from `as:` (`as: SomeType.self`).", 0)
        }
        lines.add(signature(), indentedBy: 0)
        lines.add(body(), indentedBy: 1)
        lines.add("}", 0)
        return lines
    }

    /// Attributes, modifiers and `func name(...) -> Result {` of the target form.
    func signature() -> CodeLines {
        var lines = CodeLines()
        for attribute in keptAttributes { lines.add(attribute, 0) }
        var modifiers = keptModifiers
        if target == .async && runsOnCallersActor {
            modifiers.removeAll { $0 == "nonisolated" }
            modifiers.append("nonisolated(nonsending)")
        }
        var head = modifiers.joined(separator: " ")
        if !head.isEmpty { head += " " }
        head += "func \(function.name)\(genericClause)(\(parameterList))\(effectsText)\(returnText)"
        var requirements = function.decl.genericWhereClause.map { [$0.requirements.trimmedDescription] } ?? []
        requirements += contextualSendable.map { "\($0): Sendable" }
        if !requirements.isEmpty {
            head += " where " + requirements.joined(separator: ", ")
        }
        lines.add(head + " {", 0)
        return lines
    }

    /// The statements of the alternative's body, at level 0.
    func body() -> CodeLines {
        switch target {
        case .promise: return promiseBody()
        case .async: return asyncBody()
        }
    }

    // MARK: - Promise form

    private func promiseBody() -> CodeLines {
        var lines = CodeLines()
        // Where the original answers nothing, so does the alternative: no `VowError.abandoned`.
        let staysPending = answersNothingAt != nil
        if producesGuarantee {
            lines.add("Guarantee\(staysPending ? "(ifAbandoned: .stayPending)" : "") { \(names.resolve) in", 0)
            lines.add(call(handlers: guaranteeHandlers()), indentedBy: 1)
            lines.add("}", 0)
            return lines
        }
        let arguments = (function.cancellableHandle == nil ? [] : ["cancellation: \(names.token)"])
            + (staysPending ? ["ifAbandoned: .stayPending"] : [])
        let initializer = arguments.isEmpty ? "Promise" : "Promise(\(arguments.joined(separator: ", ")))"
        lines.add("\(initializer) { \(names.seal) in", 0)
        lines.add(call(handlers: sealHandlers()), indentedBy: 1)
        if let handle = function.cancellableHandle {
            // `onCancel` is removed when the promise settles; a bare token registration would keep
            // every finished request (and its handle) alive on a long-lived token.
            lines.add("\(names.seal).onCancel \(cancelling(handle))", 1)
        }
        lines.add("}", 0)
        return lines
    }

    private func guaranteeHandlers() -> (CodeLines, CodeLines?) {
        var lines = CodeLines()
        switch function.shape {
        case .value: lines.add("\(names.resolve)(value)", 0)
        case .tuple(let elements, _): lines.add("\(names.resolve)(\(Self.tupleExpression(elements)))", 0)
        default: lines.add("\(names.resolve)(())", 0)
        }
        return (lines, nil)
    }

    private func sealHandlers() -> (CodeLines, CodeLines?) {
        let seal = names.seal
        var lines = CodeLines()
        switch function.shape {
        case .optionalValueAndError, .valueAndError:
            lines.add("\(seal).resolve(value, error)", 0)
        case .errorAndOptionalValue:
            lines.add("\(seal).resolve(error, value)", 0)
        case .errorOnly:
            lines.add("\(seal).resolve(error)", 0)
        case .value:
            lines.add("\(seal).fulfill(value)", 0)
        case .nothing:
            lines.add("\(seal).fulfill()", 0)
        case .result:
            lines.add("\(seal).resolve(result)", 0)
        case .successFlag:
            lines.add("if let error {", 0)
            lines.add("\(seal).reject(error)", 1)
            lines.add("} else if success {", 0)
            lines.add("\(seal).fulfill()", 1)
            lines.add("} else {", 0)
            lines.add("\(seal).reject(PMKError.invalidCallingConvention)", 1)
            lines.add("}", 0)
        case .split(let value):
            lines.add(value == nil ? "\(seal).fulfill()" : "\(seal).fulfill(value)", 0)
            var failure = CodeLines()
            failure.add("\(seal).reject(error)", 0)
            return (lines, failure)
        case .tuple(let elements, let errorIndex):
            lines = tupleSettlement(elements, canFail: errorIndex != nil, missingAnswer: "PMKError.invalidCallingConvention",
                                    fulfill: { "\(seal).fulfill(\($0))" }, reject: { "\(seal).reject(\($0))" })
        }
        return (lines, nil)
    }

    /// `(data: data, response: response)`.
    static func tupleExpression(_ elements: [HandlerShape.TupleElement]) -> String {
        "(" + elements.map { "\($0.label): \($0.label)" }.joined(separator: ", ") + ")"
    }

    /// The error first; then every value the handler passes as an optional must be there, or the
    /// calling convention is broken (as with `(T?, Error?)` passing two nils).
    private func tupleSettlement(_ elements: [HandlerShape.TupleElement], canFail: Bool, missingAnswer: String,
                                 fulfill: (String) -> String, reject: (String) -> String) -> CodeLines {
        var lines = CodeLines()
        let tuple = Self.tupleExpression(elements)
        guard canFail else {
            lines.add(fulfill(tuple), 0)
            return lines
        }
        let unwrapped = elements.filter(\.unwraps).map { "let \($0.label)" }
        lines.add("if let error {", 0)
        lines.add(reject("error"), 1)
        if unwrapped.isEmpty {
            lines.add("} else {", 0)
            lines.add(fulfill(tuple), 1)
        } else {
            lines.add("} else if \(unwrapped.joined(separator: ", ")) {", 0)
            lines.add(fulfill(tuple), 1)
            lines.add("} else {", 0)
            lines.add(reject(missingAnswer), 1)
        }
        lines.add("}", 0)
        return lines
    }

    // MARK: - Async form

    private func asyncBody() -> CodeLines {
        let throwing = function.shape.canFail || function.isThrowing
        var lines = CodeLines()
        var continuationBlock = CodeLines()
        let awaitPrefix = throwing ? "try await" : "await"
        // Unchecked where the original answers nothing on some path (``answersNothingAt``), unless
        // a bridge (`ResumeOnce`, `CancellableAnswer`) takes the checked continuation.
        let kind = answersNothingAt != nil && !resumesOnce && !answersCancellationItself ? "Unsafe" : "Checked"
        let withContinuation = "with\(kind)\(throwing ? "Throwing" : "")Continuation"

        if let typedFailure {
            lines.add("let \(names.outcome): Swift.Result<\(valueType), \(typedFailure)> = await with\(kind)Continuation { \(names.continuation) in", 0)
            var handler = CodeLines()
            handler.add("\(names.continuation).resume(returning: result)", 0)
            lines.add(call(handlers: (handler, nil)), indentedBy: 1)
            lines.add("}", 0)
            lines.add("return try \(names.outcome).get()", 0)
            return lines
        }

        // A Void continuation names its type: nothing in the closure lets Swift infer it.
        let continuationParameter = valueType == "Void"
            ? "(\(names.continuation): \(kind)Continuation<Void, \(throwing ? "any \(errorType)" : "Never")>)"
            : names.continuation
        continuationBlock.add("\(withContinuation) { \(continuationParameter) in", 0)
        if answersCancellationItself {
            return cancellableAnswerBody(awaitPrefix: awaitPrefix, head: continuationBlock)
        }
        if resumesOnce {
            // Shadows the continuation: every resume below goes through the bridge.
            continuationBlock.add("let \(names.continuation) = \(SwiftOnlySupport.resumeOnce.typeName)(\(names.continuation), "
                                  + "function: \"\(function.swiftName)\")", 1)
        }
        var invocation = call(handlers: continuationHandlers())
        if let handle = function.cancellableHandle {
            let cancel = cancelling(handle)
            if swiftOnly {
                invocation.add("\(taskType) { await \(names.cancellation).store \(cancel) }", 0)
            } else {
                invocation.add("\(names.source).token.register \(cancel)", 0)
            }
        }
        continuationBlock.add(catchingThrows(invocation, resuming: names.continuation), indentedBy: 1)
        continuationBlock.add("}", 0)

        if function.cancellableHandle != nil {
            // Without Vow, the actor is reached through a `Task` from the synchronous closures.
            if swiftOnly {
                lines.add("let \(names.cancellation) = \(SwiftOnlySupport.pendingCancellation.typeName)()", 0)
            } else {
                lines.add("let \(names.source) = CancellationTokenSource()", 0)
            }
            lines.add("return \(awaitPrefix) withTaskCancellationHandler {", 0)
            var inner = continuationBlock
            inner = prefixFirstLine(inner, with: awaitPrefix + " ")
            lines.add(inner, indentedBy: 1)
            lines.add("} onCancel: {", 0)
            lines.add(swiftOnly ? "\(taskType) { await \(names.cancellation).cancel() }" : "\(names.source).cancel()", 1)
            lines.add("}", 0)
        } else {
            lines.add(prefixFirstLine(continuationBlock, with: awaitPrefix + " "), indentedBy: 0)
        }
        return lines
    }

    /// The async form of a function returning a cancellable handle, in a file that can lock
    /// (``answersCancellationItself``): the file's `CancellableAnswer` takes the continuation,
    /// every answer and the Task's cancellation, and resumes once, with whichever comes first.
    /// A Task cancelled before the original is called does not call it.
    private func cancellableAnswerBody(awaitPrefix: String, head: CodeLines) -> CodeLines {
        let answer = names.answer
        var block = head
        block.add("guard \(answer).start(\(names.continuation)) else { return }", 1)
        var invocation = call(handlers: continuationHandlers(resuming: answer))
        if let handle = function.cancellableHandle {
            invocation.add("\(answer).store \(cancelling(handle))", 0)
        }
        block.add(catchingThrows(invocation, resuming: answer), indentedBy: 1)
        block.add("}", 0)
        var lines = CodeLines()
        lines.add("let \(answer) = \(SwiftOnlySupport.cancellableAnswer.typeName)<\(valueType)>()", 0)
        lines.add("return \(awaitPrefix) withTaskCancellationHandler {", 0)
        lines.add(prefixFirstLine(block, with: awaitPrefix + " "), indentedBy: 1)
        lines.add("} onCancel: {", 0)
        lines.add("\(answer).cancel()", 1)
        lines.add("}", 0)
        return lines
    }

    /// The call to the original; for one that `throws`, inside `do`, its error resuming `resuming`.
    private func catchingThrows(_ invocation: CodeLines, resuming: String) -> CodeLines {
        guard function.isThrowing else { return invocation }
        var lines = CodeLines()
        lines.add("do {", 0)
        lines.add(invocation, indentedBy: 1)
        lines.add("} catch {", 0)
        lines.add("\(resuming).resume(throwing: error)", 1)
        lines.add("}", 0)
        return lines
    }

    /// What the async form throws for an answer with neither a value nor an error.
    private var missingAnswerError: String {
        swiftOnly ? SwiftOnlySupport.neitherValueNorError(from: function.swiftName) : "PMKError.invalidCallingConvention"
    }

    /// The handler closures' code, resuming `resuming` (the continuation, or what stands for it).
    private func continuationHandlers(resuming: String? = nil) -> (CodeLines, CodeLines?) {
        let continuation = resuming ?? names.continuation
        var lines = CodeLines()
        let invalid = "\(continuation).resume(throwing: \(missingAnswerError))"
        switch function.shape {
        case .optionalValueAndError, .errorAndOptionalValue:
            lines.add("if let error {", 0)
            lines.add("\(continuation).resume(throwing: error)", 1)
            lines.add("} else if let value {", 0)
            lines.add("\(continuation).resume(returning: value)", 1)
            lines.add("} else {", 0)
            lines.add(invalid, 1)
            lines.add("}", 0)
        case .valueAndError:
            lines.add("if let error {", 0)
            lines.add("\(continuation).resume(throwing: error)", 1)
            lines.add("} else {", 0)
            lines.add("\(continuation).resume(returning: value)", 1)
            lines.add("}", 0)
        case .errorOnly:
            lines.add("if let error {", 0)
            lines.add("\(continuation).resume(throwing: error)", 1)
            lines.add("} else {", 0)
            lines.add("\(continuation).resume()", 1)
            lines.add("}", 0)
        case .value:
            lines.add("\(continuation).resume(returning: value)", 0)
        case .nothing:
            lines.add("\(continuation).resume()", 0)
        case .result:
            lines.add("\(continuation).resume(with: result)", 0)
        case .successFlag:
            lines.add("if let error {", 0)
            lines.add("\(continuation).resume(throwing: error)", 1)
            lines.add("} else if success {", 0)
            lines.add("\(continuation).resume()", 1)
            lines.add("} else {", 0)
            lines.add(invalid, 1)
            lines.add("}", 0)
        case .split(let value):
            lines.add(value == nil ? "\(continuation).resume()" : "\(continuation).resume(returning: value)", 0)
            var failure = CodeLines()
            failure.add("\(continuation).resume(throwing: error)", 0)
            return (lines, failure)
        case .tuple(let elements, let errorIndex):
            lines = tupleSettlement(elements, canFail: errorIndex != nil, missingAnswer: missingAnswerError,
                                    fulfill: { "\(continuation).resume(returning: \($0))" },
                                    reject: { "\(continuation).resume(throwing: \($0))" })
        }
        return (lines, nil)
    }

    // MARK: - The call to the original

    /// `[let task = ][try ]name(args) { params in ... }` with the handler (and failure handler)
    /// closures in their parameter slots; a trailing closure when the handler is the last one.
    private func call(handlers: (success: CodeLines, failure: CodeLines?)) -> CodeLines {
        var lines = CodeLines()
        var prefix = ""
        if let handle = function.cancellableHandle {
            prefix += handle.isSendable || handle.sendabilityUnknown ? "let \(names.task) = " : "nonisolated(unsafe) let \(names.task) = "
        }
        if function.isThrowing { prefix += "try " }
        func closureHead(for index: Int) -> String {
            let parameters = index == function.failureIndex ? ["error"] : function.shape.closureParameters
            if index != function.failureIndex, spellsOutHandlerTypes {
                let typed = zip(parameters, function.handlerParameterTypes).map { "\($0): \($1)" }
                return "{ (\(typed.joined(separator: ", "))) in"
            }
            return parameters.isEmpty ? "{" : "{ \(parameters.joined(separator: ", ")) in"
        }
        func closureBody(for index: Int) -> CodeLines {
            index == function.failureIndex ? (handlers.failure ?? CodeLines()) : handlers.success
        }
        let lastIndex = function.parameters.count - 1
        let trailing = function.failureIndex == nil && function.handlerIndex == lastIndex

        // `self.` also names the type in a static method.
        var current = prefix + (parameterHidingTheFunction != nil && isMember ? "self." : "") + function.name
        var arguments: [(label: String?, value: String?, closureIndex: Int?)] = []
        for (index, parameter) in function.parameters.enumerated() {
            if index == function.handlerIndex || index == function.failureIndex {
                if trailing { continue }
                arguments.append((parameter.label, nil, index))
            } else {
                // An `@autoclosure` takes the expression, which it wraps again (still lazily).
                arguments.append((parameter.label, parameter.isAutoclosure ? "\(parameter.name)()" : parameter.name, nil))
            }
        }
        if !arguments.isEmpty || !trailing {
            current += "("
            for (position, argument) in arguments.enumerated() {
                if position > 0 { current += ", " }
                if let label = argument.label { current += "\(label): " }
                if let value = argument.value {
                    current += value
                } else if let closureIndex = argument.closureIndex {
                    current += closureHead(for: closureIndex)
                    lines.add(current, 0)
                    lines.add(closureBody(for: closureIndex), indentedBy: 1)
                    current = "}"
                }
            }
            current += ")"
        }
        if trailing {
            current += " " + closureHead(for: function.handlerIndex)
            lines.add(current, 0)
            lines.add(closureBody(for: function.handlerIndex), indentedBy: 1)
            lines.add("}", 0)
        } else {
            lines.add(current, 0)
        }
        if let handle = function.cancellableHandle, handle.sendabilityUnknown {
            // Sendable or not, a closure cancelling it is not: `nonisolated(unsafe)` is needed
            // (and so draws no warning) whichever the handle's type is.
            lines.add("nonisolated(unsafe) let \(names.cancelTask) = { \(names.task)\(handle.isOptional ? "?" : "").cancel() }", 0)
        }
        return lines
    }

    /// The closure cancelling the handle the original returned, for `onCancel`, a token or the answer.
    private func cancelling(_ handle: CompletionFunction.CancellableHandle) -> String {
        handle.sendabilityUnknown ? "{ \(names.cancelTask)() }" : "{ \(names.task)\(handle.isOptional ? "?" : "").cancel() }"
    }

    private func prefixFirstLine(_ block: CodeLines, with prefix: String) -> CodeLines {
        var result = CodeLines()
        for (position, line) in block.lines.enumerated() {
            result.add(position == 0 ? prefix + line.text : line.text, line.level)
        }
        return result
    }
}

/// Identifiers the generated code introduces, renamed when a parameter already uses the name.
struct GeneratedNames {
    var seal: String
    var resolve: String
    var continuation: String
    var task: String
    /// `{ task.cancel() }` kept where the handle's `Sendable` conformance is unknown.
    var cancelTask: String
    var token: String
    var source: String
    var cancellation: String
    var answer: String
    var outcome: String
    var type: String

    init(taken: Set<String>) {
        func fresh(_ name: String) -> String {
            var candidate = name
            var counter = 2
            while taken.contains(candidate) {
                candidate = "\(name)\(counter)"
                counter += 1
            }
            return candidate
        }
        seal = fresh("seal")
        resolve = fresh("resolve")
        continuation = fresh("continuation")
        task = fresh("task")
        cancelTask = fresh("cancelTask")
        token = fresh("token")
        source = fresh("cancellationSource")
        cancellation = fresh("cancellation")
        answer = fresh("answer")
        outcome = fresh("outcome")
        type = fresh("type")
    }
}

/// The identifiers in a piece of type text, for spotting generic parameters in it.
func identifiers(in text: String) -> [String] {
    text.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init)
}
