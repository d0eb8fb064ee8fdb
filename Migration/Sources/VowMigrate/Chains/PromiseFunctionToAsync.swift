import SwiftSyntax

/// `--replace --to async` at call sites: a function returning `Promise<T>` whose body is one
/// chain (`return firstly { a() }.then { x in b(x) }.map { ... }`) becomes
/// `@MainActor func f(...) async throws -> T` with straight-line `try await` code
/// (`ChainToAsync` writes it, link by link, with the same rules and refusals).
///
/// Its handlers ran on `conf.Q`'s default, the main queue: the function runs on the main actor
/// (no attribute is added where the enclosing type or the function already says `@MainActor`),
/// so its first call now runs there too, when awaited; this is reported. As with `--replace`
/// elsewhere, callers in other files must move to the new signature; a call in this file that
/// is not awaited (it uses the promise) keeps the function as it is, reported. Functions in an
/// actor, with `[weak self]` handlers, already `async` or `throws`, or returning a `Guarantee`
/// are left alone.
struct PromiseFunctionToAsync {
    let bytes: [UInt8]
    let converter: SourceLocationConverter
    let catalog: CalleeCatalog
    let unit: String
    /// The file's name as the index locates its calls.
    var fileName = ""
    /// Byte ranges already rewritten by another stage.
    let excluded: [Range<Int>]

    private(set) var edits: [TextEdit] = []
    private(set) var findings: [Finding] = []
    /// The bodies rewritten here, for the call-site stage to leave alone.
    private(set) var rewritten: [Range<Int>] = []

    init(bytes: [UInt8], converter: SourceLocationConverter, catalog: CalleeCatalog, unit: String, excluded: [Range<Int>]) {
        self.bytes = bytes
        self.converter = converter
        self.catalog = catalog
        self.unit = unit
        self.excluded = excluded
    }

    mutating func run(_ tree: SourceFileSyntax) {
        let finder = PromiseFunctionFinder()
        finder.walk(tree)
        guard !finder.functions.isEmpty else { return }
        // The file's calls by base name, so each function looks only at its own.
        let names = Set(finder.functions.map { $0.decl.name.text })
        let calls = CallFinder(names: names)
        calls.walk(tree)
        for function in finder.functions {
            let decl = function.decl
            let range = decl.position.utf8Offset..<decl.endPosition.utf8Offset
            if excluded.contains(where: { $0.overlaps(range) }) { continue }
            convert(function, calls: calls.calls[decl.name.text] ?? [])
        }
    }

    private mutating func convert(_ function: PromiseFunctionFinder.Function, calls: [FunctionCallExprSyntax]) {
        let decl = function.decl
        guard let body = decl.body, let statement = body.statements.first, body.statements.count == 1,
              let returnClause = decl.signature.returnClause else { return }
        let expression = statement.item.as(ReturnStmtSyntax.self)?.expression ?? PyramidReader.expression(statement)
        guard let chain = expression?.as(FunctionCallExprSyntax.self) else { return }
        let labels = decl.signature.parameterClause.parameters.map { $0.firstName.text == "_" ? nil : $0.firstName.text }
        let name = CompletionFunction.swiftName(decl.name.text, labels: labels)
        do throws(Refusal) {
            guard let lines = try ChainToAsync(bytes: bytes, catalog: catalog).functionBody(chain) else { return }
            if function.inActor { throw Refusal("a function of an actor: the main actor, where its handlers ran, is not the actor's", at: decl.name) }
            if decl.signature.effectSpecifiers != nil {
                throw Refusal("a function that is already `async` or `throws`", at: decl.signature)
            }
            // Every call keeping the function a promise one, for the report: the index has every
            // call in a --replace run.
            let parameters = decl.signature.parameterClause.parameters.map(ParameterShape.init)
            let firstLine = decl.startLocation(converter: converter).line, lastLine = decl.endLocation(converter: converter).line
            let keeping = catalog.promiseFunctionCalls(named: decl.name.text.filter { $0 != "`" }).filter { call in
                !call.isAwaited && CallBinding.bind(call, to: parameters) != nil
                    && !(call.location.file == fileName && (firstLine...lastLine).contains(call.location.line))
            }
            let detail = Self.promiseKeepers(keeping)
            // A call here that is not awaited uses the promise: the function stays as it is.
            for call in calls where call.arguments.map({ $0.label?.text }) == labels {
                let offset = call.positionAfterSkippingLeadingTrivia.utf8Offset
                if range(of: decl).contains(offset) { continue }
                if ExistingCallCollector.isAwaited(call) { continue }
                throw Refusal("this file uses the promise the function returns here (not awaited); --replace would break this call",
                              at: call, detail: detail)
            }
            // And so does a call in another file.
            if keeping.contains(where: { $0.location.file != fileName }) {
                throw Refusal("another file uses the promise the function returns (not awaited), which --replace would break; "
                              + "without --replace the function gets an async alternative instead", at: decl.name, detail: detail)
            }
            // The value type: `Promise<T>` is `T`.
            guard let type = returnClause.type.as(IdentifierTypeSyntax.self), type.name.text == "Promise",
                  let argument = type.genericArgumentClause?.arguments.first, type.genericArgumentClause?.arguments.count == 1 else { return }
            let valueType = argument.argument.trimmedDescription
            let returns = valueType == "Void" || valueType == "()" ? "" : " -> \(valueType)"

            // `-> Promise<T>` becomes `async throws -> T`.
            let signatureStart = returnClause.positionAfterSkippingLeadingTrivia.utf8Offset
            let signatureEnd = returnClause.endPositionBeforeTrailingTrivia.utf8Offset
            let effects = "async throws" + returns
            edits.append(TextEdit(offset: signatureStart, removing: signatureEnd - signatureStart, text: effects))
            if !function.onMainActor {
                let start = decl.positionAfterSkippingLeadingTrivia.utf8Offset
                edits.append(TextEdit(offset: start, removing: 0, text: "@MainActor "))
            }
            let indent = Indentation.lineIndent(in: bytes, at: statement.positionAfterSkippingLeadingTrivia.utf8Offset)
            let rendered = String(lines.render(baseIndent: indent, unit: unit).drop { $0 == " " || $0 == "\t" })
            let start = statement.positionAfterSkippingLeadingTrivia.utf8Offset
            edits.append(TextEdit(offset: start, removing: statement.endPositionBeforeTrailingTrivia.utf8Offset - start, text: rendered))
            rewritten.append(range(of: decl))
            var message = "converted a function whose body is one promise chain to `async throws\(returns)`"
            message += function.onMainActor ? "" : " on the main actor, where its handlers ran (its first call now runs there too, when awaited)"
            message += "; its callers must `try await` it"
            report(.callSiteConverted, at: decl.name, name, message)
        } catch {
            report(.callSiteRefused, at: error.node, name, error.reason, detail: error.detail)
        }
    }

    private func range(of decl: FunctionDeclSyntax) -> Range<Int> {
        decl.position.utf8Offset..<decl.endPosition.utf8Offset
    }

    private mutating func report(_ kind: Finding.Kind, at node: some SyntaxProtocol, _ function: String, _ message: String, detail: String? = nil) {
        let location = node.startLocation(converter: converter)
        findings.append(Finding(kind: kind, function: function, line: location.line, column: location.column, message: message, detail: detail))
    }

    /// The calls that keep a function returning a promise, one a line with what each does with
    /// it (issue 18's report: which callers keep the promise type), the first ten and a count.
    static func promiseKeepers(_ calls: [ExistingCall]) -> String? {
        guard !calls.isEmpty else { return nil }
        let shown = 10
        let synchronous = calls.contains { !$0.inAsyncCode }
        var lines = ["kept a promise by \(calls.count) call\(calls.count == 1 ? "" : "s") using what it returns"
                     + (synchronous ? " (synchronous code cannot await it, and a task started there would run it after the code that follows):" : ":")]
        for call in calls.sorted(by: { ($0.location.file, $0.location.line, $0.location.column) < ($1.location.file, $1.location.line, $1.location.column) }).prefix(shown) {
            let use = switch call.resultUse {
            case .needsPromise: "chains on it, hands it to `when`/`race` or returns it"
            case .readsValue: "reads its `.value`"
            case .optionalChained: "calls it through `?.`"
            case .other: "keeps the promise (a binding, an argument)"
            }
            lines.append("\(call.location): \(call.inAsyncCode ? "" : "in synchronous code, ")\(use)")
        }
        if calls.count > shown { lines.append("and \(calls.count - shown) more") }
        return lines.joined(separator: "\n")
    }
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
        if node.body != nil, let type = node.signature.returnClause?.type.as(IdentifierTypeSyntax.self), type.name.text == "Promise" {
            functions.append(Function(decl: node, onMainActor: Self.isMainActor(node.attributes) || types.last?.mainActor == true,
                                      inActor: types.last?.actor == true))
        }
        return .skipChildren
    }
}

/// The file's calls of the given base names.
private final class CallFinder: SyntaxVisitor {
    let names: Set<String>
    private(set) var calls: [String: [FunctionCallExprSyntax]] = [:]

    init(names: Set<String>) {
        self.names = names
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let name = PyramidReader.baseName(node), names.contains(name) { calls[name, default: []].append(node) }
        return .visitChildren
    }
}
