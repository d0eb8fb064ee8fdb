import SwiftSyntax

/// `--replace --to async`: a function returning `Promise<T>` (`Guarantee<T>`) becomes
/// `@MainActor func f(...) async throws -> T` (`async -> T`), each promise its body answers with
/// written as straight-line code (`ChainToAsync`, link by link, with the same rules and refusals),
/// a checked continuation (`Promise { seal in }`, ``SealToContinuation``), a value, a `throw`.
///
/// Which functions change is the index's verdict (``PromiseReplacementVerdict``), the same in
/// every file's run, and every call of them in the tree changes with them
/// (``ReplacedPromiseCalls``). Its handlers ran on `conf.Q`'s default, the main queue: the
/// function runs on the main actor (no attribute is added where the enclosing type or the
/// function already says `@MainActor`). Functions in an actor, with `[weak self]` handlers, or
/// already `async` or `throws` are left alone.
struct PromiseFunctionToAsync {
    let bytes: [UInt8]
    let converter: SourceLocationConverter
    let catalog: CalleeCatalog
    let index: MigrationIndex
    let unit: String
    /// The file's name as the index locates its calls.
    var fileName = ""
    /// Byte ranges already rewritten by another stage.
    let excluded: [Range<Int>]

    private(set) var edits: [TextEdit] = []
    private(set) var findings: [Finding] = []
    /// The bodies rewritten here, for the call-site stage to leave alone.
    private(set) var rewritten: [Range<Int>] = []

    init(bytes: [UInt8], converter: SourceLocationConverter, catalog: CalleeCatalog, index: MigrationIndex, unit: String, excluded: [Range<Int>]) {
        self.bytes = bytes
        self.converter = converter
        self.catalog = catalog
        self.index = index
        self.unit = unit
        self.excluded = excluded
    }

    mutating func run(_ tree: SourceFileSyntax) {
        let finder = PromiseFunctionFinder()
        finder.walk(tree)
        for function in finder.functions {
            let decl = function.decl
            let range = decl.position.utf8Offset..<decl.endPosition.utf8Offset
            if excluded.contains(where: { $0.overlaps(range) }) { continue }
            convert(function)
        }
    }

    private mutating func convert(_ function: PromiseFunctionFinder.Function) {
        let decl = function.decl
        let labels = CompletionFunction.labels(of: decl.signature.parameterClause.parameters)
        let name = CompletionFunction.swiftName(decl.name.text, labels: labels)
        let place = decl.funcKeyword.startLocation(converter: converter)
        // `-> VoidPromise`: the index resolved the alias.
        guard let summary = index.promiseFunction(named: decl.name.text,
                                                  at: MigrationIndex.Location(file: fileName, line: place.line, column: place.column))
        else { return }
        if decl.body == nil {
            if summary.isProtocolRequirement, index.promiseReplacement(of: summary) == .replace {
                convertRequirement(function, summary)
            }
            return
        }
        guard let returnClause = decl.signature.returnClause else { return }
        let body: ReplaceableShape
        do throws(Refusal) {
            body = try Self.readShape(of: decl, returning: .init(valueType: summary.valueType, isGuarantee: summary.isGuarantee))
        } catch {
            // Kept: for what the index says, or for the body's shape.
            if case .keep(let reason, let detail) = index.promiseReplacement(of: summary) {
                if reason != MigrationIndex.unconvertibleBody {
                    report(.callSiteRefused, at: decl.name, name, reason, detail: detail)
                } else {
                    report(.callSiteRefused, at: error.node, name, error.reason, detail: error.detail)
                }
            }
            return
        }
        let chains = ChainToAsync(bytes: bytes, catalog: catalog)
        let seals = SealToContinuation(bytes: bytes, fileName: fileName, converter: converter)
        if case .keep(let reason, let detail) = index.promiseReplacement(of: summary) {
            if summary.replaceableBody || reason != MigrationIndex.unconvertibleBody {
                report(.callSiteRefused, at: decl.name, name, reason, detail: detail)
            } else {
                // Why the chain does not convert, where it does not.
                do throws(Refusal) {
                    _ = try body.asyncAnswers(chains, seals: seals, bytes: bytes, unit: unit)
                    // One answer goes to the bridge, which says what it did with it.
                    if body.answers.count > 1 {
                        report(.callSiteRefused, at: decl.name, name,
                               "its body converts only with what other files declare, which the verdict for the whole tree "
                               + "(read from each file by syntax alone) could not see")
                    }
                } catch {
                    report(.callSiteRefused, at: error.node, name, error.reason, detail: error.detail)
                }
            }
            return
        }
        // The index decided from syntax alone that the body converts; the calls of the tree
        // change with it (``ReplacedPromiseCalls``), so it becomes async whatever happens here.
        var answers: [(Syntax, String)]
        var kept: Refusal?
        do throws(Refusal) {
            answers = try body.asyncAnswers(chains, seals: seals, bytes: bytes, unit: unit)
        } catch {
            // Should the body not convert after all, the function awaits each promise as it is.
            kept = error
            let awaiting = "\(body.isGuarantee ? "" : "try ")await "
            answers = body.answers.map { answer in
                (answer.replaced, "return " + awaiting + "(" + StatementText(bytes: bytes).text(of: answer.expression) + ").value")
            }
        }
        for (replaced, written) in answers {
            let answerStart = replaced.positionAfterSkippingLeadingTrivia.utf8Offset
            edits.append(TextEdit(offset: answerStart, removing: replaced.endPositionBeforeTrailingTrivia.utf8Offset - answerStart, text: written))
        }
        let effects = rewriteSignature(function, returnClause, valueType: body.valueType, isGuarantee: body.isGuarantee)
        let type = body.isGuarantee ? "Guarantee" : "Promise"
        var message = kept == nil
            ? "converted a function returning a \(type.lowercased()) to `\(effects)`, "
                + (answers.contains { $0.1.contains("withChecked") } ? "its resolver a checked continuation"
                    : body.answers.contains { $0.expression.as(FunctionCallExprSyntax.self).flatMap(SealToContinuation.sealed) != nil }
                    ? "the promise its resolver settles awaited" : "its chain straight-line code")
            : "made a function returning a \(type.lowercased()) `\(effects)`, awaiting its promises as they are (\(kept!.reason))"
        message += function.onMainActor ? "" : " on the main actor, where its handlers ran"
        let calls = (index.callsByBaseName[summary.baseName] ?? []).filter { index.replacedFunction(reachedBy: $0)?.location == summary.location }
        let awaited = calls.filter { $0.inAsyncCode && $0.resultUse == .readsValue }.count
        if !calls.isEmpty {
            message += "; its \(calls.count) call\(calls.count == 1 ? "" : "s") in the tree changed with it"
                + " (\(awaited) awaited directly, \(calls.count - awaited) using the \(type.lowercased()) wrapped in "
                + "`\(type).immediate { ... }`, which starts it at once as before)"
        }
        if summary.isPublic || summary.inPublicProtocol, index.treatsPublicAsInternal(in: summary.location.file), let app = index.appEntryPoint {
            message += "; it is public, and the tree starts an app (at \(app)), so every caller is taken to be in the tree "
                + "(--public-api keep leaves public functions as they are)"
        }
        report(.callSiteConverted, at: decl.name, name, message)
    }

    /// A requirement whose implementations all become async (``MigrationIndex/requirementGroup(of:)``):
    /// `@MainActor func f() async throws -> T`, as they are.
    private mutating func convertRequirement(_ function: PromiseFunctionFinder.Function, _ summary: PromiseFunctionSummary) {
        let decl = function.decl
        guard let returnClause = decl.signature.returnClause else { return }
        let effects = rewriteSignature(function, returnClause, valueType: summary.valueType, isGuarantee: summary.isGuarantee)
        let implementations = (index.requirementGroup(of: summary)?.count ?? 1) - 1
        report(.callSiteConverted, at: decl.name, CompletionFunction.swiftName(decl.name.text, labels: summary.labels),
               "converted a protocol requirement returning a \(summary.isGuarantee ? "guarantee" : "promise") to `\(effects)`, "
               + "on the main actor, with the \(implementations) implementation\(implementations == 1 ? "" : "s") of it in the tree")
    }

    /// `-> Promise<T>` becomes `async throws -> T` (`async -> T` for a guarantee), on the main
    /// actor; returns the effects and type written.
    private mutating func rewriteSignature(_ function: PromiseFunctionFinder.Function, _ returnClause: ReturnClauseSyntax,
                                           valueType: String, isGuarantee: Bool) -> String {
        let decl = function.decl
        let returns = valueType == "Void" || valueType == "()" ? "" : " -> \(valueType)"
        let effects = (isGuarantee ? "async" : "async throws") + returns
        let signatureStart = returnClause.positionAfterSkippingLeadingTrivia.utf8Offset
        let signatureEnd = returnClause.endPositionBeforeTrailingTrivia.utf8Offset
        edits.append(TextEdit(offset: signatureStart, removing: signatureEnd - signatureStart, text: effects))
        if !function.onMainActor {
            edits.append(TextEdit(offset: decl.positionAfterSkippingLeadingTrivia.utf8Offset, removing: 0, text: "@MainActor "))
        }
        // Nothing to discard any more: Swift warns about `@discardableResult` on a `Void` function.
        if returns.isEmpty, let attribute = decl.attributes.first(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "discardableResult" }) {
            let start = attribute.positionAfterSkippingLeadingTrivia.utf8Offset
            // Through the line break after it: `@MainActor @discardableResult\n func f()` becomes `@MainActor func f()`.
            let end = attribute.lastToken(viewMode: .sourceAccurate)?.nextToken(viewMode: .sourceAccurate)?.positionAfterSkippingLeadingTrivia.utf8Offset
                ?? attribute.endPosition.utf8Offset
            edits.append(TextEdit(offset: start, removing: end - start, text: ""))
        }
        // `Promise<T>` needed `T: Sendable`, which Swift inferred from the signature; `-> T` does not say it.
        if let clause = decl.genericParameterClause {
            let generics = AlternativeEmitter.genericClause(of: decl, valueType: valueType, requiresSendable: true)
            if generics != clause.trimmedDescription {
                let clauseStart = clause.positionAfterSkippingLeadingTrivia.utf8Offset
                edits.append(TextEdit(offset: clauseStart, removing: clause.endPositionBeforeTrailingTrivia.utf8Offset - clauseStart, text: generics))
            }
        }
        rewritten.append(range(of: decl))
        return effects
    }

    /// A body `--replace` can convert, as syntax shows it, in a function declared
    /// `-> Promise<T>` or `-> Guarantee<T>`: every promise it answers with (each `return` outside
    /// closures and local functions, or the single expression that is its implicit return value),
    /// a call, none made by `Promise { }` or `Guarantee { }` from an async closure (the bridge),
    /// and no `defer`, which would run once the async function ends instead of when the promise
    /// was made.
    struct ReplaceableShape {
        /// Each promise the body answers with, and the statement or `return` that answers it.
        var answers: [(expression: ExprSyntax, replaced: Syntax)]
        /// Every name the body declares or reads: the straight-line code declares none of them.
        var names: Set<String>
        var valueType: String
        var isGuarantee: Bool

        /// Each answer as the async function writes it: a checked continuation for
        /// `Promise { seal in }` (``SealToContinuation``; where its resolver is handed on, kept or
        /// may settle twice, the promise awaited as it is made), else
        /// ``ChainToAsync/returnStatement(_:guarantee:reserved:indent:)``.
        func asyncAnswers(_ chains: ChainToAsync, seals: SealToContinuation, bytes: [UInt8], unit: String) throws(Refusal) -> [(Syntax, String)] {
            try answers.map { (answer) throws(Refusal) -> (Syntax, String) in
                if let call = answer.expression.as(FunctionCallExprSyntax.self), let sealed = SealToContinuation.sealed(call) {
                    do throws(Refusal) {
                        return (answer.replaced, try seals.statement(for: call))
                    } catch {
                        // A resolver handed on (`self.handle(response, seal: seal)`), kept, or
                        // settled twice on some path, which a continuation cannot be: the promise
                        // is made as before, by the same code, and awaited.
                        return (answer.replaced, "return " + (sealed.guarantee ? "await " : "try await ")
                                    + StatementText(bytes: bytes).text(of: answer.expression) + ".value")
                    }
                }
                let indent = Indentation.lineIndent(in: bytes, at: answer.replaced.positionAfterSkippingLeadingTrivia.utf8Offset)
                let lines = try chains.returnStatement(answer.expression, guarantee: isGuarantee, reserved: names, valueType: valueType,
                                                       indent: indent)
                return (answer.replaced, String(lines.render(baseIndent: indent, unit: unit).drop { $0 == " " || $0 == "\t" }))
            }
        }
    }

    /// The promise a function returns: `T` of `Promise<T>`, and whether it is a guarantee.
    struct PromiseType {
        var valueType: String
        var isGuarantee: Bool

        /// As the declaration spells it, `Promise<T>` or `Guarantee<T>` (an alias names neither).
        init?(spelledBy decl: FunctionDeclSyntax) {
            guard let type = decl.signature.returnClause?.type.as(IdentifierTypeSyntax.self), ["Promise", "Guarantee"].contains(type.name.text),
                  let arguments = type.genericArgumentClause?.arguments, arguments.count == 1, let argument = arguments.first else { return nil }
            self.init(valueType: argument.argument.trimmedDescription, isGuarantee: type.name.text == "Guarantee")
        }

        init(valueType: String, isGuarantee: Bool) {
            self.valueType = valueType
            self.isGuarantee = isGuarantee
        }
    }

    /// `returning`: the promise the function returns where its return type is a typealias of
    /// one (`-> VoidPromise`), resolved by the index; nil to read it from the declaration.
    static func replaceableShape(of decl: FunctionDeclSyntax, returning resolved: PromiseType? = nil) -> ReplaceableShape? {
        try? readShape(of: decl, returning: resolved)
    }

    /// ``replaceableShape(of:returning:)``, or why the body is none.
    static func readShape(of decl: FunctionDeclSyntax, returning resolved: PromiseType? = nil) throws(Refusal) -> ReplaceableShape {
        guard let type = resolved ?? PromiseType(spelledBy: decl), let body = decl.body, let last = body.statements.last else {
            throw Refusal("its body answers with no promise", at: decl.name)
        }
        if blockingCall(in: body) != nil {
            throw Refusal("its body calls `lock()`, `unlock()` or `wait()`, which async code cannot (they block its thread)", at: decl.name)
        }
        var answers: [(expression: ExprSyntax, replaced: Syntax)] = []
        // (A lone `if` or `switch` is a statement whose `return`s answer, read below; taken for
        // the implicit return value it was wrapped whole, `returns` and all.)
        if body.statements.count == 1, let expression = PyramidReader.expression(last),
           !expression.is(IfExprSyntax.self), !expression.is(SwitchExprSyntax.self) {
            answers = [(expression, Syntax(last))]
        } else {
            final class Finder: SyntaxVisitor {
                var returns: [ReturnStmtSyntax] = []
                var deferred = false
                override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
                override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
                override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind { returns.append(node); return .skipChildren }
                override func visit(_ node: DeferStmtSyntax) -> SyntaxVisitorContinueKind { deferred = true; return .skipChildren }
            }
            let finder = Finder(viewMode: .sourceAccurate)
            finder.walk(body.statements)
            if finder.deferred {
                throw Refusal("its body has a `defer`, which would run once the async function ends rather than when the promise was made",
                              at: decl.name)
            }
            for statement in finder.returns {
                guard let expression = statement.expression else { throw Refusal("a `return` without a promise", at: statement) }
                answers.append((expression, Syntax(statement)))
            }
            // `#if os(iOS) Handler().handle([:]) #else return .value(()) #endif`: a clause that
            // is one expression is the implicit return value where it is compiled.
            if body.statements.count == 1, let conditional = last.item.as(IfConfigDeclSyntax.self) {
                answers += implicitAnswers(in: conditional)
            }
        }
        guard !answers.isEmpty else { throw Refusal("its body answers with no promise a `return` shows", at: decl.name) }
        for answer in answers {
            guard let call = answer.expression.as(FunctionCallExprSyntax.self) else {
                // `return .value(x)` parses as a member access called; anything else (a stored
                // promise) is awaited.
                continue
            }
            // `Promise { seal in ... }` becomes a continuation; `Guarantee { ... }` (the bridge
            // from async code) and any other promise made from a closure are no chain to write out.
            if SealToContinuation.sealed(call) == nil, let made = ChainToAsync.constructedType(call),
               ["Promise", "Guarantee"].contains(made), call.trailingClosure != nil {
                throw Refusal("it answers with a promise made from a closure that is no resolver's (`\(made) { }` from async code)", at: call)
            }
        }
        // The names of the code around the answers (the answers' own handlers name their values).
        let answered = answers.map { $0.expression.position.utf8Offset..<$0.expression.endPosition.utf8Offset }
        return ReplaceableShape(answers: answers, names: names(in: Array(body.statements), outside: answered),
                                valueType: type.valueType, isGuarantee: type.isGuarantee)
    }

    /// The clauses of a body's only `#if` (and of `#if`s nested alone in them) that are one
    /// expression, each the function's implicit return value where that clause is compiled.
    private static func implicitAnswers(in conditional: IfConfigDeclSyntax) -> [(expression: ExprSyntax, replaced: Syntax)] {
        conditional.clauses.flatMap { clause -> [(expression: ExprSyntax, replaced: Syntax)] in
            guard case .statements(let items) = clause.elements, items.count == 1, let item = items.first else { return [] }
            if let nested = item.item.as(IfConfigDeclSyntax.self) { return implicitAnswers(in: nested) }
            // (`fatalError("...")` answers nothing: it never returns.)
            guard let expression = PyramidReader.expression(item), !expression.is(IfExprSyntax.self), !expression.is(SwitchExprSyntax.self),
                  !["fatalError", "preconditionFailure", "abort"].contains(expression.as(FunctionCallExprSyntax.self)?
                      .calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text)
            else { return [] }
            return [(expression, Syntax(item))]
        }
    }

    /// The name of the first `.lock()`, `.unlock()` or `.wait()` call in `node`, which Swift
    /// refuses in async code (`NSLock`, `DispatchSemaphore`, `DispatchGroup` are unavailable there).
    static func blockingCall(in node: some SyntaxProtocol) -> TokenSyntax? {
        node.tokens(viewMode: .sourceAccurate).first { token in
            guard case .identifier(let name) = token.tokenKind, ["lock", "unlock", "wait"].contains(name),
                  token.previousToken(viewMode: .sourceAccurate)?.tokenKind == .period else { return false }
            return token.nextToken(viewMode: .sourceAccurate)?.tokenKind == .leftParen
        }
    }

    /// Every name the statements declare or read: the straight-line code declares none of them.
    static func names(in items: [CodeBlockItemSyntax], outside excluded: [Range<Int>] = []) -> Set<String> {
        var names = Set<String>()
        for item in items {
            for token in item.tokens(viewMode: .sourceAccurate) {
                guard case .identifier(let name) = token.tokenKind else { continue }
                let offset = token.position.utf8Offset
                if excluded.contains(where: { $0.contains(offset) }) { continue }
                // Not a member's name (`.value(0)`, `cache.store`): those hide nothing.
                if let reference = token.parent?.as(DeclReferenceExprSyntax.self),
                   let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id { continue }
                names.insert(name)
            }
        }
        return names
    }

    /// Whether `--replace` can make the function `async`, as syntax alone decides (the index asks,
    /// for every file, before any is rewritten): its body has a shape ``replaceableShape(of:)``
    /// reads and the converter writes its chain as straight-line code. What the rest of the tree
    /// knows never makes the converter refuse a body (it only changes how a call is awaited), so
    /// each file's run reaches the same verdict. `bytes` gives the file's text, read only if needed.
    static func replaceableBody(of decl: FunctionDeclSyntax, returning type: PromiseType?, bytes: () -> [UInt8], fileName: String,
                                converter: SourceLocationConverter) -> Bool {
        guard let shape = replaceableShape(of: decl, returning: type) else { return false }
        do throws(Refusal) {
            let text = bytes()
            _ = try shape.asyncAnswers(ChainToAsync(bytes: text, catalog: SyntaxOnlyCatalog()),
                                       seals: SealToContinuation(bytes: text, fileName: fileName, converter: converter), bytes: text, unit: "    ")
            return true
        } catch {
            return false
        }
    }

    private func range(of decl: FunctionDeclSyntax) -> Range<Int> {
        decl.position.utf8Offset..<decl.endPosition.utf8Offset
    }

    private mutating func report(_ kind: Finding.Kind, at node: some SyntaxProtocol, _ function: String, _ message: String, detail: String? = nil) {
        let location = node.startLocation(converter: converter)
        findings.append(Finding(kind: kind, function: function, line: location.line, column: location.column, message: message, detail: detail))
    }
}

/// No callee known: what a function's body needs from the tree to be read, and nothing more.
private struct SyntaxOnlyCatalog: CalleeCatalog {
    func callees(named baseName: String) -> [CalleeSummary] { [] }
}

/// Functions returning `Promise<T>` or `Guarantee<T>` with a body, and whether they are on the
/// main actor already (an actor's are never converted: ``FileSummary/FunctionRecord/replaceableBody``).
private final class PromiseFunctionFinder: SyntaxVisitor {
    struct Function {
        var decl: FunctionDeclSyntax
        var onMainActor: Bool
    }

    private(set) var functions: [Function] = []
    /// For each enclosing type: whether it is `@MainActor`.
    private var types: [Bool] = []

    init() {
        super.init(viewMode: .sourceAccurate)
    }

    private static func isMainActor(_ attributes: AttributeListSyntax) -> Bool {
        attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "MainActor" }
    }

    private func enter(_ attributes: AttributeListSyntax) -> SyntaxVisitorContinueKind {
        types.append(Self.isMainActor(attributes) || types.last == true)
        return .visitChildren
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.attributes) }
    override func visitPost(_ node: ClassDeclSyntax) { types.removeLast() }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.attributes) }
    override func visitPost(_ node: StructDeclSyntax) { types.removeLast() }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.attributes) }
    override func visitPost(_ node: EnumDeclSyntax) { types.removeLast() }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.attributes) }
    override func visitPost(_ node: ActorDeclSyntax) { types.removeLast() }
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.attributes) }
    override func visitPost(_ node: ExtensionDeclSyntax) { types.removeLast() }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
        inProtocol = true
        return enter(node.attributes)
    }
    override func visitPost(_ node: ProtocolDeclSyntax) {
        inProtocol = false
        types.removeLast()
    }
    private var inProtocol = false

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        // `Promise<T>`, `Guarantee<T>` or one name that may be an alias of either (the index knows);
        // a protocol's requirements, which change with every implementation of them.
        if node.body != nil || inProtocol, let type = node.signature.returnClause?.type.as(IdentifierTypeSyntax.self),
           ["Promise", "Guarantee"].contains(type.name.text) || type.genericArgumentClause == nil {
            functions.append(Function(decl: node, onMainActor: Self.isMainActor(node.attributes) || types.last == true))
        }
        return .skipChildren
    }
}
