import SwiftSyntax

/// `--replace --to async`: a function returning `Promise<T>` whose body is one chain
/// (`return firstly { a() }.then { x in b(x) }.map { ... }`) becomes
/// `@MainActor func f(...) async throws -> T` with straight-line `try await` code
/// (`ChainToAsync` writes it, link by link, with the same rules and refusals).
///
/// Which functions change is the index's verdict (``PromiseReplacementVerdict``), the same in
/// every file's run, and every call of them in the tree changes with them
/// (``ReplacedPromiseCalls``). Its handlers ran on `conf.Q`'s default, the main queue: the
/// function runs on the main actor (no attribute is added where the enclosing type or the
/// function already says `@MainActor`). Functions in an actor, with `[weak self]` handlers,
/// already `async` or `throws`, or returning a `Guarantee` are left alone.
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
        guard let body = Self.replaceableShape(of: decl), let returnClause = decl.signature.returnClause else { return }
        let labels = decl.signature.parameterClause.parameters.map { $0.firstName.text == "_" ? nil : $0.firstName.text }
        let name = CompletionFunction.swiftName(decl.name.text, labels: labels)
        let place = decl.funcKeyword.startLocation(converter: converter)
        guard let summary = index.promiseFunction(named: decl.name.text,
                                                  at: MigrationIndex.Location(file: fileName, line: place.line, column: place.column))
        else { return }
        let chains = ChainToAsync(bytes: bytes, catalog: catalog)
        if case .keep(let reason, let detail) = index.promiseReplacement(of: summary) {
            if summary.replaceableBody {
                report(.callSiteRefused, at: decl.name, name, reason, detail: detail)
            } else if body.leading.isEmpty {
                // Why the chain does not convert, where it does not.
                do throws(Refusal) {
                    _ = try chains.functionBody(body.chain, guarantee: body.isGuarantee)
                } catch {
                    report(.callSiteRefused, at: error.node, name, error.reason, detail: error.detail)
                }
            }
            return
        }
        // The index decided from syntax alone that the body converts; the calls of the tree
        // change with it (``ReplacedPromiseCalls``), so it becomes async whatever happens here.
        let statement = body.statement
        var text: String
        var kept: Refusal?
        let indent = Indentation.lineIndent(in: bytes, at: statement.positionAfterSkippingLeadingTrivia.utf8Offset)
        do throws(Refusal) {
            let lines = try chains.functionBody(body.chain, guarantee: body.isGuarantee, reserved: Self.names(in: body.leading))
            text = String(lines.render(baseIndent: indent, unit: unit).drop { $0 == " " || $0 == "\t" })
        } catch {
            // Should the chain not convert after all, the function awaits it as it is.
            kept = error
            text = "return \(body.isGuarantee ? "" : "try ")await " + StatementText(bytes: bytes).text(of: body.chain) + ".value"
        }
        let valueType = body.valueType
        let returns = valueType == "Void" || valueType == "()" ? "" : " -> \(valueType)"
        let effects = (body.isGuarantee ? "async" : "async throws") + returns
        let signatureStart = returnClause.positionAfterSkippingLeadingTrivia.utf8Offset
        let signatureEnd = returnClause.endPositionBeforeTrailingTrivia.utf8Offset
        edits.append(TextEdit(offset: signatureStart, removing: signatureEnd - signatureStart, text: effects))
        if !function.onMainActor {
            edits.append(TextEdit(offset: decl.positionAfterSkippingLeadingTrivia.utf8Offset, removing: 0, text: "@MainActor "))
        }
        // `Promise<T>` needed `T: Sendable`, which Swift inferred from the signature; `-> T` does not say it.
        if let clause = decl.genericParameterClause {
            let generics = AlternativeEmitter.genericClause(of: decl, valueType: valueType, requiresSendable: true)
            if generics != clause.trimmedDescription {
                let clauseStart = clause.positionAfterSkippingLeadingTrivia.utf8Offset
                edits.append(TextEdit(offset: clauseStart, removing: clause.endPositionBeforeTrailingTrivia.utf8Offset - clauseStart, text: generics))
            }
        }
        let start = statement.positionAfterSkippingLeadingTrivia.utf8Offset
        edits.append(TextEdit(offset: start, removing: statement.endPositionBeforeTrailingTrivia.utf8Offset - start, text: text))
        rewritten.append(range(of: decl))
        let type = body.isGuarantee ? "Guarantee" : "Promise"
        var message = kept == nil
            ? "converted a function returning a \(type.lowercased()) to `\(effects)`, its chain straight-line code"
            : "made a function returning a \(type.lowercased()) `\(effects)`, awaiting its chain as it is (\(kept!.reason))"
        message += function.onMainActor ? "" : " on the main actor, where its handlers ran"
        let calls = (index.callsByBaseName[summary.baseName] ?? []).filter { index.replacedFunction(reachedBy: $0)?.location == summary.location }
        let awaited = calls.filter { $0.inAsyncCode && $0.resultUse == .readsValue }.count
        if !calls.isEmpty {
            message += "; its \(calls.count) call\(calls.count == 1 ? "" : "s") in the tree changed with it"
                + " (\(awaited) awaited directly, \(calls.count - awaited) using the \(type.lowercased()) wrapped in "
                + "`\(type).immediate { ... }`, which starts it at once as before)"
        }
        report(.callSiteConverted, at: decl.name, name, message)
    }

    /// A body `--replace` can convert, as syntax shows it: statements that only prepare (no
    /// `return`, no `defer`, which would run once the async function ends instead of at once),
    /// then the promise the function returns (`return chain`, or the chain alone as its implicit
    /// return value), in a function declared `-> Promise<T>` or `-> Guarantee<T>`.
    struct ReplaceableShape {
        var leading: [CodeBlockItemSyntax]
        var statement: CodeBlockItemSyntax
        var chain: FunctionCallExprSyntax
        var valueType: String
        var isGuarantee: Bool
    }

    static func replaceableShape(of decl: FunctionDeclSyntax) -> ReplaceableShape? {
        guard let type = decl.signature.returnClause?.type.as(IdentifierTypeSyntax.self), ["Promise", "Guarantee"].contains(type.name.text),
              let arguments = type.genericArgumentClause?.arguments, arguments.count == 1, let argument = arguments.first,
              let body = decl.body, let statement = body.statements.last else { return nil }
        let leading = Array(body.statements.dropLast())
        let returned = statement.item.as(ReturnStmtSyntax.self)?.expression
        let expression = returned ?? (leading.isEmpty ? PyramidReader.expression(statement) : nil)
        guard let chain = expression?.as(FunctionCallExprSyntax.self) else { return nil }
        // `Promise { seal in ... }` and `Guarantee { ... }` (the bridge from async code) make the
        // promise themselves: not a chain to write as straight-line code.
        if let made = chain.calledExpression.as(DeclReferenceExprSyntax.self) ?? chain.calledExpression.as(GenericSpecializationExprSyntax.self)?
            .expression.as(DeclReferenceExprSyntax.self), ["Promise", "Guarantee"].contains(made.baseName.text) {
            return nil
        }
        for item in leading where !onlyPrepares(item) { return nil }
        if blocks(body) { return nil }
        return ReplaceableShape(leading: leading, statement: statement, chain: chain, valueType: argument.argument.trimmedDescription,
                                isGuarantee: type.name.text == "Guarantee")
    }

    /// No `return` and no `defer` outside closures and local functions.
    private static func onlyPrepares(_ item: CodeBlockItemSyntax) -> Bool {
        final class Finder: SyntaxVisitor {
            var found = false
            override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
            override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
            override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind { found = true; return .skipChildren }
            override func visit(_ node: DeferStmtSyntax) -> SyntaxVisitorContinueKind { found = true; return .skipChildren }
        }
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(item)
        return !finder.found
    }

    /// Whether the body calls `lock()`, `unlock()` or `wait()`, which Swift refuses in async code
    /// (`NSLock`, `DispatchSemaphore`, `DispatchGroup` are unavailable there).
    private static func blocks(_ body: CodeBlockSyntax) -> Bool {
        body.tokens(viewMode: .sourceAccurate).contains { token in
            guard case .identifier(let name) = token.tokenKind, ["lock", "unlock", "wait"].contains(name),
                  token.previousToken(viewMode: .sourceAccurate)?.tokenKind == .period else { return false }
            return token.nextToken(viewMode: .sourceAccurate)?.tokenKind == .leftParen
        }
    }

    /// Every name the statements declare or read: the straight-line code declares none of them.
    private static func names(in items: [CodeBlockItemSyntax]) -> Set<String> {
        var names = Set<String>()
        for item in items {
            for token in item.tokens(viewMode: .sourceAccurate) {
                if case .identifier(let name) = token.tokenKind { names.insert(name) }
            }
        }
        return names
    }

    /// Whether `--replace` can make the function `async`, as syntax alone decides (the index asks,
    /// for every file, before any is rewritten): its body has a shape ``replaceableShape(of:)``
    /// reads and the converter writes its chain as straight-line code. What the rest of the tree
    /// knows never makes the converter refuse a body (it only changes how a call is awaited), so
    /// each file's run reaches the same verdict. `bytes` gives the file's text, read only if needed.
    static func replaceableBody(of decl: FunctionDeclSyntax, bytes: () -> [UInt8]) -> Bool {
        guard let shape = replaceableShape(of: decl) else { return false }
        do throws(Refusal) {
            _ = try ChainToAsync(bytes: bytes(), catalog: SyntaxOnlyCatalog())
                .functionBody(shape.chain, guarantee: shape.isGuarantee, reserved: names(in: shape.leading))
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

/// Functions returning `Promise<T>` with a body, and where they are.
private final class PromiseFunctionFinder: SyntaxVisitor {
    struct Function {
        var decl: FunctionDeclSyntax
        var onMainActor: Bool
        var inActor: Bool
    }

    private(set) var functions: [Function] = []
    /// For each enclosing type: whether it is `@MainActor`, whether it is an actor.
    private var types: [(mainActor: Bool, actor: Bool)] = []

    init() {
        super.init(viewMode: .sourceAccurate)
    }

    private static func isMainActor(_ attributes: AttributeListSyntax) -> Bool {
        attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "MainActor" }
    }

    private func enter(_ attributes: AttributeListSyntax, actor: Bool = false) -> SyntaxVisitorContinueKind {
        types.append((Self.isMainActor(attributes) || types.last?.mainActor == true, actor))
        return .visitChildren
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.attributes) }
    override func visitPost(_ node: ClassDeclSyntax) { types.removeLast() }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.attributes) }
    override func visitPost(_ node: StructDeclSyntax) { types.removeLast() }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.attributes) }
    override func visitPost(_ node: EnumDeclSyntax) { types.removeLast() }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.attributes, actor: true) }
    override func visitPost(_ node: ActorDeclSyntax) { types.removeLast() }
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.attributes) }
    override func visitPost(_ node: ExtensionDeclSyntax) { types.removeLast() }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        if node.body != nil, let type = node.signature.returnClause?.type.as(IdentifierTypeSyntax.self), ["Promise", "Guarantee"].contains(type.name.text) {
            functions.append(Function(decl: node, onMainActor: Self.isMainActor(node.attributes) || types.last?.mainActor == true,
                                      inActor: types.last?.actor == true))
        }
        return .skipChildren
    }
}
