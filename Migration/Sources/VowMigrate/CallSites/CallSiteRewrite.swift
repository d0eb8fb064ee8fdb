import SwiftSyntax

/// The call-site stage: finds statements that call completion-handler functions with a closure
/// (the pyramids), and replaces each with a flat promise chain or straight-line `try await`, or
/// reports why it was left alone.
///
/// Pyramids are looked for in the bodies of functions and initializers, in nested `if`, `switch`
/// and `do` blocks too; a call inside a loop, a closure or an expression is reported, not changed.
struct CallSiteRewrite {
    let bytes: [UInt8]
    let converter: SourceLocationConverter
    let target: MigrationTarget
    let catalog: CalleeCatalog
    let unit: String
    /// Byte ranges already rewritten by another stage (functions converted by `--replace`).
    let excluded: [Range<Int>]

    private(set) var edits: [TextEdit] = []
    private(set) var findings: [Finding] = []
    /// Where the declarations stage spelled out a handler that a call left out: a statement
    /// holding one is left alone, since converting it would copy the call without it.
    var spelledOutOffsets: [Int] = []
    /// For a piece of a large file: the names a type cut in pieces declares in the other pieces,
    /// by the offset of its body's `{`.
    var otherPiecesMembers: [Int: Set<String>] = [:]

    init(bytes: [UInt8], converter: SourceLocationConverter, target: MigrationTarget, catalog: CalleeCatalog,
         unit: String, excluded: [Range<Int>]) {
        self.bytes = bytes
        self.converter = converter
        self.target = target
        self.catalog = catalog
        self.unit = unit
        self.excluded = excluded
    }

    /// Whether a converted call site needs `import Vow`.
    var needsVow: Bool { target == .promise && findings.contains { $0.kind == .callSiteConverted } }

    mutating func run(_ tree: SourceFileSyntax) {
        let finder = FunctionBodyFinder()
        finder.walk(tree)
        for function in finder.functions {
            let range = function.body.position.utf8Offset..<function.body.endPosition.utf8Offset
            if excluded.contains(where: { $0.overlaps(range) }) { continue }
            var context = Context(function: function, failureTypes: 0)
            process(function.body.statements, codeAfter: false, context: &context)
        }
    }

    private struct Context {
        var function: FunctionBodyFinder.Function
        var failureTypes: Int
        /// An earlier statement of the function called a completion-handler function: its
        /// callback may run before a new `Task` makes its first call.
        var startedCallback = false
        /// Names the function's body uses or converted chains declared in it (`tokenPromise`).
        var takenNames: Set<String>?
    }

    private var reader: PyramidReader { PyramidReader(catalog: catalog, target: target) }

    private mutating func process(_ items: CodeBlockItemListSyntax, codeAfter outerCodeAfter: Bool, context: inout Context) {
        let list = Array(items)
        var fanOutEnd = -1
        for (index, item) in list.enumerated() where index > fanOutEnd {
            if let fanOut = fanOut(list, at: index, codeAfter: outerCodeAfter, context: context) {
                fanOutEnd = fanOut
                context.startedCallback = true
                continue
            }
            let rest = list[(index + 1)...]
            let codeAfter = outerCodeAfter || !(rest.isEmpty || (rest.count == 1 && Self.isBareReturn(rest.first!)))
            if let call = PyramidReader.callStatement(item) {
                switch reader.match(call) {
                case .call(let matched):
                    convert(item, call: call, matched: matched, codeAfter: codeAfter, context: &context)
                    context.startedCallback = true
                    continue
                case .ambiguous:
                    refuse(Refusal("several functions named `\(PyramidReader.baseName(call) ?? "")` take these labels; the callee is ambiguous", at: call), context)
                    context.startedCallback = true
                    continue
                case .none:
                    if target == .async && ChainToAsync.isChain(call) {
                        convertChain(item, call: call, context: &context)
                        continue
                    }
                }
            }
            if let expression = PyramidReader.expression(item), let ifExpression = expression.as(IfExprSyntax.self) {
                processIf(ifExpression, codeAfter: codeAfter, context: &context)
                continue
            }
            if let expression = PyramidReader.expression(item), let switchExpression = expression.as(SwitchExprSyntax.self) {
                // The cases exclude each other: a callback started in one does not run before another's.
                let before = context.startedCallback
                var started = before
                for element in switchExpression.cases {
                    if let switchCase = element.as(SwitchCaseSyntax.self) {
                        context.startedCallback = before
                        process(switchCase.statements, codeAfter: codeAfter, context: &context)
                        started = started || context.startedCallback
                    }
                }
                context.startedCallback = started
                continue
            }
            if let doStatement = item.item.as(DoStmtSyntax.self), doStatement.catchClauses.isEmpty {
                process(doStatement.body.statements, codeAfter: codeAfter, context: &context)
                continue
            }
            if reportNestedCalls(in: item, context) { context.startedCallback = true }
        }
    }

    // MARK: - Fan-out (FanOut*.swift)

    /// A loop starting a callback per element (with its `DispatchGroup`), converted or refused
    /// as one call site; returns the index of the last statement it covered.
    private mutating func fanOut(_ list: [CodeBlockItemSyntax], at index: Int, codeAfter: Bool, context: Context) -> Int? {
        guard list[index].item.is(ForStmtSyntax.self) else { return nil }
        let place = FanOutRewrite.Place(functionBody: context.function.body, enclosingIsAsync: context.function.isAsync,
                                        startedCallback: context.startedCallback, codeAfterBlock: codeAfter,
                                        selfMembers: Self.memberNames(around: list[index], otherPieces: otherPiecesMembers))
        guard let outcome = FanOutRewrite(bytes: bytes, target: target, reader: reader, unit: unit).rewrite(list, at: index, place: place) else {
            return nil
        }
        // The helper a converted fan-out adds to the file is added once.
        edits += outcome.edits.filter { edit in !edits.contains { $0.offset == edit.offset && $0.text == edit.text } }
        if let message = outcome.converted { report(.callSiteConverted, at: outcome.node, context.function, message) }
        if let refusal = outcome.refusal { refuse(refusal, context) }
        return outcome.lastIndex
    }

    private mutating func processIf(_ node: IfExprSyntax, codeAfter: Bool, context: inout Context) {
        for condition in node.conditions where reportNestedCalls(in: condition, context) { context.startedCallback = true }
        // The branches exclude each other: a callback started in one does not run before another's.
        let before = context.startedCallback
        process(node.body.statements, codeAfter: codeAfter, context: &context)
        let started = context.startedCallback
        context.startedCallback = before
        switch node.elseBody {
        case .codeBlock(let block): process(block.statements, codeAfter: codeAfter, context: &context)
        case .ifExpr(let elseIf): processIf(elseIf, codeAfter: codeAfter, context: &context)
        case .none: break
        }
        context.startedCallback = context.startedCallback || started
    }

    private mutating func convert(_ item: CodeBlockItemSyntax, call: FunctionCallExprSyntax, matched: PyramidReader.MatchedCall,
                                  codeAfter: Bool, context: inout Context) {
        let function = context.function
        do throws(Refusal) {
            try checkNoSpelledOutCall(in: item)
            let pyramid = try reader.read(item, call: call, matched: matched)
            let lines: CodeLines
            var message: String
            let count = pyramid.levels.count
            let calls = count == 1 ? "1 callback" : "\(count) nested callbacks"
            switch target {
            case .promise:
                // Each chain that declares a local error type in this function gets its own name.
                let suffix = context.failureTypes > 0 ? "\(context.failureTypes + 1)" : ""
                let writer = PromiseChainWriter(pyramid: pyramid, bytes: bytes,
                                                failureTypeName: function.typeNameStem + "Failure" + suffix,
                                                inGenericContext: function.isGeneric)
                lines = try writer.write()
                if lines.lines.first?.text.hasPrefix("enum ") == true { context.failureTypes += 1 }
                message = "flattened \(calls) into a promise chain"
            case .async:
                if codeAfter && !function.isAsync {
                    throw Refusal("code after the callbacks would run before them inside a `Task`", at: item)
                }
                if codeAfter {
                    throw Refusal("code after the callbacks would run after them once they are awaited", at: item)
                }
                if context.startedCallback && !function.isAsync {
                    throw Refusal("a callback started earlier in the function could run before the new `Task` makes its first call", at: item)
                }
                if let (call, name) = callWithAsyncAlternative(in: pyramid) {
                    throw Refusal("the callback's code calls `\(name)` with a completion handler, which the compiler flags in async code (it has an async alternative)", at: call)
                }
                let writer = AsyncCallSiteWriter(pyramid: pyramid, bytes: bytes, enclosingIsAsync: function.isAsync,
                                                 selfMembers: Self.memberNames(around: item, otherPieces: otherPiecesMembers))
                lines = try writer.write()
                message = "converted \(calls) to `try await`"
                if !function.isAsync {
                    message += " inside a new `Task { }`, which starts the work when the task runs instead of during the call"
                }
            }
            let indent = Indentation.lineIndent(in: bytes, at: item.positionAfterSkippingLeadingTrivia.utf8Offset)
            let rendered = String(lines.render(baseIndent: indent, unit: unit).drop { $0 == " " || $0 == "\t" })
            let start = item.positionAfterSkippingLeadingTrivia.utf8Offset
            let end = item.endPositionBeforeTrailingTrivia.utf8Offset
            edits.append(TextEdit(offset: start, removing: end - start, text: rendered))
            report(.callSiteConverted, at: item, function, message)
        } catch {
            refuse(error, context)
        }
    }

    private mutating func convertChain(_ item: CodeBlockItemSyntax, call: FunctionCallExprSyntax, context: inout Context) {
        do throws(Refusal) {
            try checkNoSpelledOutCall(in: item)
            let taken = context.takenNames ?? Set(context.function.body.tokens(viewMode: .sourceAccurate).compactMap { token in
                if case .identifier(let name) = token.tokenKind { name } else { nil }
            })
            let (lines, onMainActor, declared) = try ChainToAsync(bytes: bytes, catalog: catalog).write(call, taken: taken)
            context.takenNames = taken.union([declared])
            let indent = Indentation.lineIndent(in: bytes, at: item.positionAfterSkippingLeadingTrivia.utf8Offset)
            let rendered = String(lines.render(baseIndent: indent, unit: unit).drop { $0 == " " || $0 == "\t" })
            let start = item.positionAfterSkippingLeadingTrivia.utf8Offset
            edits.append(TextEdit(offset: start, removing: item.endPositionBeforeTrailingTrivia.utf8Offset - start, text: rendered))
            report(.callSiteConverted, at: item, context.function,
                   "converted a promise chain to `try await` inside a new `Task { \(onMainActor ? "@MainActor in " : "")}` (its first call is still made at once; the steps after it wait for the task)")
        } catch {
            refuse(error, context)
        }
    }

    /// A call in code the async form moves into async code (a level's success or failure
    /// statements, outside closures) of a completion-handler function with an async
    /// alternative: marked `renamed:`, it would draw a warning there.
    private func callWithAsyncAlternative(in pyramid: Pyramid) -> (FunctionCallExprSyntax, String)? {
        let finder = AsyncAlternativeCallFinder(catalog: catalog)
        for level in pyramid.levels {
            for statement in level.success + (level.failure?.statements ?? []) {
                finder.walk(statement)
                if let found = finder.found { return found }
            }
        }
        return nil
    }

    /// The statement holds a call whose omitted handler this run spells out.
    private func checkNoSpelledOutCall(in item: CodeBlockItemSyntax) throws(Refusal) {
        let range = item.positionAfterSkippingLeadingTrivia.utf8Offset..<item.endPositionBeforeTrailingTrivia.utf8Offset
        if spelledOutOffsets.contains(where: range.contains) {
            throw Refusal("a call inside leaves out a defaulted handler, which this run spells out so the call keeps its callee; "
                          + "run the call-site stage again on the result", at: item)
        }
    }

    private mutating func refuse(_ refusal: Refusal, _ context: Context) {
        report(.callSiteRefused, at: refusal.node, context.function, refusal.reason)
    }

    private mutating func report(_ kind: Finding.Kind, at node: some SyntaxProtocol, _ function: FunctionBodyFinder.Function, _ message: String) {
        let location = node.startLocation(converter: converter)
        findings.append(Finding(kind: kind, function: function.swiftName, line: location.line, column: location.column, message: message))
    }

    /// Known calls with a closure handler that are not statements of a block: each is reported.
    /// Returns whether there was any.
    @discardableResult
    private mutating func reportNestedCalls(in node: some SyntaxProtocol, _ context: Context) -> Bool {
        let finder = NestedCallFinder(reader: reader)
        finder.walk(node)
        for (call, inLoop) in finder.calls {
            let reason = inLoop ? "a loop around a callback" : "the call is inside a closure or an expression, not a statement of the function"
            refuse(Refusal(reason, at: call), context)
        }
        return !finder.calls.isEmpty
    }

    /// The names the type around `node` declares (properties and methods of that declaration):
    /// code reading them without `self.` reads them through `self`.
    static func memberNames(around node: some SyntaxProtocol, otherPieces: [Int: Set<String>] = [:]) -> Set<String> {
        var parent = node.parent
        while let current = parent, !current.is(MemberBlockSyntax.self) { parent = current.parent }
        guard let block = parent?.as(MemberBlockSyntax.self) else { return [] }
        var names = otherPieces[block.leftBrace.positionAfterSkippingLeadingTrivia.utf8Offset] ?? []
        for member in block.members {
            if let variable = member.decl.as(VariableDeclSyntax.self) {
                for binding in variable.bindings {
                    if let identifier = binding.pattern.as(IdentifierPatternSyntax.self) { names.insert(identifier.identifier.text) }
                }
            } else if let function = member.decl.as(FunctionDeclSyntax.self) {
                names.insert(function.name.text)
            }
        }
        return names
    }

    private static func isBareReturn(_ item: CodeBlockItemSyntax) -> Bool {
        item.item.as(ReturnStmtSyntax.self)?.expression == nil && item.item.is(ReturnStmtSyntax.self)
    }
}

extension PyramidReader {
    static func baseName(_ call: FunctionCallExprSyntax) -> String? {
        if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        return call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
    }
}

/// The outermost known calls with a closure handler under a node; nested levels belong to them.
/// The first call, outside closures, of a completion-handler function that has an async
/// alternative, by base name and argument labels (the call's labels in the function's order,
/// since the call may leave out defaulted parameters).
private final class AsyncAlternativeCallFinder: SyntaxVisitor {
    let catalog: CalleeCatalog
    private(set) var found: (FunctionCallExprSyntax, String)?

    init(catalog: CalleeCatalog) {
        self.catalog = catalog
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        guard found == nil else { return .skipChildren }
        guard let base = PyramidReader.baseName(node) else { return .visitChildren }
        let labels = node.arguments.map { $0.label?.text }
        let matches = catalog.callees(named: base).contains { callee in
            guard callee.hasAsyncAlternative else { return false }
            var rest = callee.labels[...]
            for label in labels {
                guard let position = rest.firstIndex(of: label) else { return false }
                rest = rest[(position + 1)...]
            }
            return true
        }
        if matches { found = (node, base) }
        return matches ? .skipChildren : .visitChildren
    }
}

private final class NestedCallFinder: LoopTrackingVisitor {
    let reader: PyramidReader
    private(set) var calls: [(FunctionCallExprSyntax, Bool)] = []

    init(reader: PyramidReader) {
        self.reader = reader
        super.init()
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    /// A callback inside `Promise { seal in }`, `Guarantee { }` or a continuation is a bridge (the
    /// alternatives vow-migrate writes are such bridges): it settles the promise, nothing to flatten.
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
        let call = node.parent?.as(FunctionCallExprSyntax.self) ?? node.parent?.parent?.parent?.as(FunctionCallExprSyntax.self)
        guard let callee = call?.calledExpression.trimmedDescription else { return .visitChildren }
        let isBridge = callee.hasPrefix("Promise") || callee.hasPrefix("Guarantee")
            || (callee.hasPrefix("with") && callee.hasSuffix("Continuation")) || callee == "withTaskCancellationHandler"
        return isBridge ? .skipChildren : .visitChildren
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if case .call = reader.match(node) {
            calls.append((node, loopDepth > 0))
            return .skipChildren
        }
        return .visitChildren
    }
}

/// Every function and initializer body, with what the writers need to know about it.
final class FunctionBodyFinder: SyntaxVisitor {
    struct Function {
        var body: CodeBlockSyntax
        var swiftName: String
        var isAsync: Bool
        var isGeneric: Bool
        /// `Reload` for `reload()`: the stem of local type names.
        var typeNameStem: String
    }

    private(set) var functions: [Function] = []
    private var genericTypes: [Bool] = []

    init() {
        super.init(viewMode: .sourceAccurate)
    }

    private func enterType(_ generic: Bool) -> SyntaxVisitorContinueKind {
        genericTypes.append(generic || genericTypes.last == true)
        return .visitChildren
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { enterType(node.genericParameterClause != nil) }
    override func visitPost(_ node: ClassDeclSyntax) { genericTypes.removeLast() }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { enterType(node.genericParameterClause != nil) }
    override func visitPost(_ node: StructDeclSyntax) { genericTypes.removeLast() }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { enterType(node.genericParameterClause != nil) }
    override func visitPost(_ node: EnumDeclSyntax) { genericTypes.removeLast() }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { enterType(node.genericParameterClause != nil) }
    override func visitPost(_ node: ActorDeclSyntax) { genericTypes.removeLast() }
    // An extension of a generic type is generic too; without the type's declaration, assume it may be.
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind { enterType(node.genericWhereClause != nil) }
    override func visitPost(_ node: ExtensionDeclSyntax) { genericTypes.removeLast() }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        if let body = node.body {
            let labels = node.signature.parameterClause.parameters.map { $0.firstName.text == "_" ? nil : $0.firstName.text }
            let name = node.name.text.filter { $0 != "`" }
            functions.append(Function(
                body: body,
                swiftName: CompletionFunction.swiftName(node.name.text, labels: labels),
                isAsync: node.signature.effectSpecifiers?.asyncSpecifier != nil,
                isGeneric: node.genericParameterClause != nil || genericTypes.last == true,
                typeNameStem: name.prefix(1).uppercased() + name.dropFirst()
            ))
        }
        return .visitChildren
    }

    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
        if let body = node.body {
            let labels = node.signature.parameterClause.parameters.map { $0.firstName.text == "_" ? nil : $0.firstName.text }
            functions.append(Function(
                body: body,
                swiftName: CompletionFunction.swiftName("init", labels: labels),
                isAsync: node.signature.effectSpecifiers?.asyncSpecifier != nil,
                isGeneric: node.genericParameterClause != nil || genericTypes.last == true,
                typeNameStem: "Init"
            ))
        }
        return .visitChildren
    }
}
