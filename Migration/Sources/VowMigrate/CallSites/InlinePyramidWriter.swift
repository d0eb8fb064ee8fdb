import SwiftParser
import SwiftSyntax

/// The async form's way with the callbacks the flat reading (``PyramidReader``) does not take: a
/// `guard` first, code before the error check or around the `switch`, an early `return`, a
/// `(nil, nil)` or `(false, nil)` answer the callback gives meaning to, `$0`, several values, a
/// next call on one branch only.
///
/// Each callback's parameters become constants holding what the callback would have received,
/// set from the awaited alternative: its value, or the error it threw, or `nil` and `nil` when it
/// threw the error for neither a value nor an error. The callback's own code follows, unchanged.
/// A call of the next completion-handler function that is the last thing its callback does (on
/// any branch: nothing but a bare `return` after it, up to the end of the callback) is written the
/// same way in its place, so the pyramid is flat whatever its callbacks look like:
///
/// ```swift
/// api.login(user) { token, error in          Task {
///     guard let token else {                     let token: Token?
///         self.show(error)                       let error: Error?
///         return                                 do {
///     }                                              token = try await api.login(user)
///     self.api.profile(token) { result in            error = nil
///         ...                                    } catch let caught {
///     }                                              token = nil
/// }                                                  error = <caught, or nil for neither>
///                                                }
///                                                guard let token else { ... }
///                                                let result: Result<Profile, Error>
///                                                ...
/// ```
///
/// A `return` in a callback ends the task, which is what it did: nothing of the callback around
/// it runs after an inner call. A split `success:`/`failure:` pair's failure code goes into the
/// `catch` (then `return`); values a handler passes beside its error (`(T, Error?)`, `(Int, Int,
/// Error?)`) come through a continuation around the original call, which the alternative would
/// drop; a statement of a callback holding calls in closures or a loop of calls is rewritten by
/// the call-site stage itself (``nestedPlaces``), as a place of its own in the task's code.
/// Refused: another call of a completion-handler function that is not the last thing its callback
/// does (code after it ran before its callback), a closure's or loop's call the stage leaves alone,
/// `defer` in a callback with an inner call, a capture list that straight-line code cannot keep, a
/// type the call site cannot spell.
struct InlinePyramidWriter {
    let reader: PyramidReader
    let bytes: [UInt8]
    let unit: String
    let enclosingIsAsync: Bool
    /// The code is written in an async function's own body (not a new `Task`, not a loop's task):
    /// a callee that answers nothing on some path would stop the function there.
    var inAsyncFunction = false
    /// The enclosing async function returns a value: a callback's bare `return` cannot stay.
    let enclosingReturnsValue: Bool
    /// The file imports Vow: an alternative in a Vow file throws `PMKError.invalidCallingConvention`
    /// for neither a value nor an error.
    let importsVow: Bool
    /// Every identifier the enclosing function uses: new names avoid them.
    var taken: Set<String>
    /// What the enclosing type declares: the first call may read it without `self.`.
    var selfMembers: Set<String> = []

    /// The calls written as straight-line code (each level's call): other calls in the moved
    /// code are checked by the caller.
    private(set) var convertedCalls: [FunctionCallExprSyntax] = []
    /// Their handlers, whose code moves into async code.
    var convertedHandlers: [ClosureExprSyntax] = []
    private(set) var capture: String?
    /// `let api = self.api`: the first call's receiver, read before the task when the task holds
    /// `self` weakly.
    private var hoisted: [String] = []
    private var hoistedReceiver: (SyntaxIdentifier, String)?
    /// The first call's arguments read before the task, by expression.
    private var hoistedArguments: [SyntaxIdentifier: String] = [:]
    /// Names the statements before the pyramid in its block read or declare: a constant declared
    /// there must not take one.
    var earlierNames: Set<String> = []

    /// The call-site stage's own rewrite of a callback's statement that holds calls in closures
    /// (a button's action, an alert's handler) or a loop of calls (a fan-out), as it would
    /// rewrite them where they stand in the task's code: ``NestedPlace``. Without it such
    /// calls are refused.
    /// `startedCallback`: an earlier statement of the callback started one, which could run
    /// before a new `Task` there makes its first call.
    var nestedPlaces: ((_ statements: [CodeBlockItemSyntax], _ index: Int, _ codeAfter: Bool, _ startedCallback: Bool,
                        _ taken: Set<String>) throws(Refusal) -> NestedPlace)?
    /// What the nested rewrites reported, and the edits they made outside the callbacks (a
    /// helper the file gets once).
    var nestedFindings: [Finding] = []
    /// The nested rewrites' facts for the run: a call converted there is a converted call too.
    var nestedForwarding = ForwardingFacts()
    var fileEdits: [TextEdit] = []
    /// Calls the nested rewrites converted: no longer made with a handler.
    var nestedCalls: [FunctionCallExprSyntax] = []
    /// The code around holds `self` strongly for as long as the callbacks run (a sequential
    /// loop's local function does: its callbacks' capture lists read `self` from it, and each
    /// callback holds the function): the outermost callback's `[weak self]` is read as an inner
    /// one's under an unwrapped `self`, and the task holds `self` as the function did.
    var selfHeld = false
    /// Text replacing byte ranges of the callbacks' code, beside the writer's own (a sequential
    /// loop's recursive calls, ``SequentialLoop``).
    var extraReplacements: [(Range<Int>, String)] = []

    /// What the call-site stage made of the statements of a callback from one index on.
    struct NestedPlace {
        var edits: [TextEdit]
        var findings: [Finding]
        /// What the rewrite converted and left for the run to decide (``ForwardingFacts``).
        var forwarding = ForwardingFacts()
        /// The last statement the rewrite covered (a fan-out covers its `notify` too).
        var lastIndex: Int
    }

    init(reader: PyramidReader, bytes: [UInt8], unit: String, enclosingIsAsync: Bool, enclosingReturnsValue: Bool,
         importsVow: Bool, taken: Set<String>) {
        self.reader = reader
        self.bytes = bytes
        self.unit = unit
        self.enclosingIsAsync = enclosingIsAsync
        self.enclosingReturnsValue = enclosingReturnsValue
        self.importsVow = importsVow
        self.taken = taken
    }

    /// How `self` reads at a point of the straight-line code.
    private enum SelfState {
        /// Captured strongly (no capture list, or `[unowned self]`): `self.x`.
        case strong
        /// `[weak self]`, not unwrapped yet: `self?.x`.
        case weak
        /// `[weak self]`, then `guard let self else { return }`: `self.x`.
        case unwrapped
    }

    /// What an inner level sees where its call stands.
    private struct Scope {
        /// Names already declared in the block the level's constants go into.
        var declared: Set<String>
        /// Names of outer levels spelled differently in the straight-line code.
        var renamed: [String: String]
        var selfState: SelfState
    }

    /// The statement's replacement, `Task { ... }` around it unless the function is async.
    /// `outerNames`: names the block the code goes into already has (an async function's own
    /// body, where no `Task` opens a new one).
    mutating func write(call: FunctionCallExprSyntax, matched: PyramidReader.MatchedCall, outerNames: Set<String>) throws(Refusal) -> CodeLines {
        let body = try level(call: call, matched: matched, isOutermost: true,
                             scope: Scope(declared: outerNames, renamed: [:], selfState: selfHeld ? .unwrapped : .strong))
        if enclosingIsAsync { return body }
        let mentionsSelf = body.lines.contains { $0.text.contains("self") }
        var lines = CodeLines()
        for line in hoisted { lines.add(line, 0) }
        lines.add("Task {" + (mentionsSelf && capture != nil ? " \(capture!) in" : ""), 0)
        lines.add(body, indentedBy: 1)
        lines.add("}", 0)
        return lines
    }

    /// The number of callbacks written.
    var levelCount: Int { convertedCalls.count }

    // MARK: - One level

    private mutating func level(call: FunctionCallExprSyntax, matched: PyramidReader.MatchedCall, isOutermost: Bool,
                                scope: Scope) throws(Refusal) -> CodeLines {
        let callee = matched.callee
        let closure = matched.handler
        if inAsyncFunction { try CalleeSummary.checkAnswers(callee, at: call) }
        guard callee.hasAlternative(for: .async) else {
            if let reason = callee.noAlternativeReasons[.async] { throw Refusal("the callee gets no alternative: \(reason)", at: call) }
            throw Refusal("the callee has no async alternative yet (add them first: --stage declarations, or --stage all)", at: call)
        }
        if call.calledExpression.tokens(viewMode: .sourceAccurate).contains(where: { $0.tokenKind == .postfixQuestionMark }) {
            throw Refusal("the callee is reached through `?.`, so the call may not happen at all", at: call.calledExpression)
        }
        // A function declared in the callback is a place of its own, whose call sites are
        // converted on their own: it cannot also move with the callback's code.
        if let local = PyramidReader.localFunctionMakingKnownCall(in: closure, reader: reader) {
            throw Refusal("a function declared inside the callback calls a completion-handler function (its own call site, converted on its own)", at: local.name)
        }
        convertedCalls.append(call)
        convertedHandlers.append(closure)
        var statements = Array(closure.statements)
        var selfState = scope.selfState
        try readCapture(closure, isOutermost: isOutermost, statements: &statements, selfState: &selfState)
        if isOutermost && !enclosingIsAsync {
            try hoistFirstCall(call, callee: callee)
        }

        // The parameters' names; `$0`-style closures get names of their own.
        let types = try parameterTypes(callee, closure: closure, call: call)
        var names = PyramidReader.parameterNames(closure) ?? []
        var dollarNames: [String: String] = [:]
        if closure.signature == nil && !types.isEmpty {
            names = []
            for (position, suggestion) in Self.suggestedNames(callee.shape).enumerated() {
                let name = fresh(suggestion)
                dollarNames["$\(position)"] = name
                names.append(name)
            }
        }
        guard names.count == types.count else {
            throw Refusal("the callback's parameters do not match the handler", at: closure)
        }
        // A parameter the callback never reads gets no constant (an unread one draws a warning).
        let read = Self.unshadowedReads(in: statements).union(Self.shorthandBindings(in: statements))
        if dollarNames.isEmpty { names = names.map { read.contains($0) ? $0 : "_" } }

        // Constants for the parameters: renamed where the block already declares the name.
        var renamed = scope.renamed
        var constants: [String?] = []
        for name in names {
            if name == "_" { constants.append(nil); continue }
            renamed[name] = nil
            if scope.declared.contains(name) {
                let newName = fresh(name)
                renamed[name] = newName
                constants.append(newName)
            } else {
                taken.insert(name)
                constants.append(name)
            }
        }
        for (dollar, name) in dollarNames { renamed[dollar] = name }
        let declaredInside = Self.declaredAnywhere(statements)
        if let clash = declaredInside.first(where: { renamed[$0] != nil && !dollarNames.values.contains($0) }) {
            throw Refusal("`\(clash)` would need a new name in straight-line code, but the callback declares it again", at: closure)
        }

        // A split pair's failure callback: its code goes into the `catch` of the awaited call.
        var failure: CodeLines?
        if callee.failureIndex != nil {
            failure = try failureBranch(call: call, callee: callee, success: closure, isOutermost: isOutermost,
                                        constants: constants.compactMap { $0 }, renamed: scope.renamed)
        }
        var lines = try bindings(callee: callee, call: call, constants: constants, types: types, renamed: scope.renamed, failure: failure)

        // The callback's code, its inner calls written in place.
        let (inner, nestedIndices) = try innerCalls(in: statements, closure: closure)
        let nestedEdits = try nestedRewrites(of: statements, at: nestedIndices, renamed: renamed)
        // A callback's `defer` ran as it returned, before an inner call's callback; in the task it
        // runs at the end of its block, after that callback's code. Without an inner call the
        // callback's code is the rest of its block (every later level and the code after the
        // pyramid are refused), so it runs last there too.
        if !inner.isEmpty || !nestedIndices.isEmpty, let deferStatement = Self.firstDefer(in: statements) {
            throw Refusal("`defer` inside a callback that makes another call: it ran before that call's callback, "
                          + "and would run after it in straight-line code; move its code to the end of each path", at: deferStatement)
        }
        if enclosingIsAsync && enclosingReturnsValue, let ret = Self.firstReturn(in: statements) {
            throw Refusal("a `return` in the callback would return from the async function, which returns a value", at: ret)
        }
        // Names the block of the constants already has: declared, or read before (a later
        // declaration of a name read earlier in the same block does not compile).
        var unavailable = scope.declared.union(constants.compactMap { $0 })
        var skipUpTo = -1
        for (position, item) in statements.enumerated() where position > skipUpTo {
            var replacements: [(Range<Int>, String)] = []
            let start = item.positionAfterSkippingLeadingTrivia.utf8Offset
            let end = item.endPositionBeforeTrailingTrivia.utf8Offset
            // A nested rewrite's edits: one covering whole statements replaces them, one removing
            // a statement (a fan-out's `let group = DispatchGroup()`) drops it.
            if nestedEdits.contains(where: { $0.offset <= start && end <= $0.offset + $0.removing && $0.text.isEmpty }) { continue }
            if let covering = nestedEdits.first(where: { $0.offset == start && $0.offset + $0.removing > end }) {
                let last = statements.lastIndex { $0.endPositionBeforeTrailingTrivia.utf8Offset <= covering.offset + covering.removing } ?? position
                skipUpTo = last
                for line in text(of: item, renamed: [:], replacing: [(start..<end, covering.text)]) { lines.add(line, 0) }
                for covered in statements[position...last] { unavailable.formUnion(covered.identifierNames) }
                continue
            }
            for edit in nestedEdits where start <= edit.offset && edit.offset + edit.removing <= end {
                replacements.append((edit.offset..<(edit.offset + edit.removing), edit.text))
            }
            replacements += extraReplacements.filter { start <= $0.0.lowerBound && $0.0.upperBound <= end }
            for found in inner where item.range.contains(found.item.position) {
                let isTopLevel = found.item.id == item.id
                let innerScope = Scope(declared: isTopLevel ? unavailable : Self.namesBefore(found.item),
                                       renamed: renamed, selfState: selfState)
                let written = try level(call: found.call, matched: found.matched, isOutermost: false, scope: innerScope)
                let start = found.item.positionAfterSkippingLeadingTrivia.utf8Offset
                let indent = Indentation.lineIndent(in: bytes, at: start)
                let text = String(written.render(baseIndent: indent, unit: unit).drop { $0 == " " || $0 == "\t" })
                replacements.append((start..<found.item.endPositionBeforeTrailingTrivia.utf8Offset, text))
            }
            for line in text(of: item, renamed: renamed, replacing: replacements) { lines.add(line, 0) }
            unavailable.formUnion(item.identifierNames)
            if Self.unwrapsSelf(item), selfState == .weak { selfState = .unwrapped }
        }
        return lines
    }

    // MARK: - Capture lists and self

    /// The outermost callback's capture list becomes the task's; an inner one must mean what the
    /// task's `self` already means. An inner `[weak self]` callback's first `guard let self` goes
    /// when `self` is already unwrapped (the task keeps it for the rest of its code).
    private mutating func readCapture(_ closure: ClosureExprSyntax, isOutermost: Bool, statements: inout [CodeBlockItemSyntax],
                                      selfState: inout SelfState) throws(Refusal) {
        let list = closure.signature?.capture
        let text = list?.trimmedDescription.filter { $0 != " " }
        if let list, text != "[weakself]" && text != "[unownedself]" {
            throw Refusal("the callback's capture list is not `[weak self]`", at: list)
        }
        if isOutermost && !selfHeld {
            capture = text == "[weakself]" ? "[weak self]" : text == "[unownedself]" ? "[unowned self]" : nil
            selfState = text == "[weakself]" ? .weak : .strong
            return
        }
        let mentionsSelf = statements.contains { $0.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .keyword(.self) } }
        switch (text, selfState) {
        case (nil, .weak) where mentionsSelf:
            throw Refusal("an inner callback holds `self` strongly where the outer one holds it weakly", at: closure)
        case ("[weakself]", .strong) where mentionsSelf, ("[unownedself]", .weak) where mentionsSelf:
            throw Refusal("`\(list!.trimmedDescription)` on an inner callback only", at: list!)
        case ("[weakself]", .unwrapped):
            if let first = statements.first, Self.unwrapsSelf(first) { statements.removeFirst() }
            if let optionalUse = Self.optionalSelfUse(in: statements) {
                throw Refusal("the inner callback reads `self` as optional, but the outer one already unwrapped it", at: optionalUse)
            }
        default:
            break
        }
    }

    /// In a synchronous function the first call is made when the task runs, not where it stood: what
    /// it reads of `self` (its receiver, its arguments) is read before the task, as the call read
    /// it, so that a property changed meanwhile (`trailID = 1; trailID = 4`) still gives each call
    /// its own value, and a `Task { [weak self] }` need not reach it as `self?.`.
    private mutating func hoistFirstCall(_ call: FunctionCallExprSyntax, callee: CalleeSummary) throws(Refusal) {
        if let (receiver, name) = Self.selfHeldReceiver(call, members: selfMembers) {
            // The property's own name when nothing else in the statement or before it reads it.
            let occurrences = call.tokens(viewMode: .sourceAccurate).filter { $0.tokenKind == .identifier(name) }.count
            let local = earlierNames.contains(name) || occurrences > 1 ? fresh(name) : name
            taken.insert(local)
            var read = receiver.is(DeclReferenceExprSyntax.self) ? "self." + receiver.trimmedDescription : receiver.trimmedDescription
            // `var loader: ThumbnailLoader!`: a copy would be optional; the call unwrapped it there.
            if Self.isImplicitlyUnwrapped(name, around: call) { read += "!" }
            hoisted.append("let \(local) = \(read)")
            hoistedReceiver = (receiver.id, local)
        } else if capture == "[weak self]", let use = Self.selfRead(in: [Syntax(call.calledExpression)], members: selfMembers) {
            throw Refusal("the first call reads `self`, which a `Task { [weak self] }` could only reach as `self?.`", at: use)
        }
        for (position, argument) in call.arguments.enumerated() where position != callee.handlerIndex && position != callee.failureIndex {
            guard Self.selfRead(in: [Syntax(argument.expression)], members: selfMembers) != nil else { continue }
            var text = StatementText(bytes: bytes)
            for name in ValueThreading.reads(in: [Syntax(argument.expression)]) where selfMembers.contains(name) {
                text.renamed[name] = "self." + name
            }
            let local = fresh(argument.label?.text ?? "argument")
            hoisted.append("let \(local) = \(text.text(of: argument.expression))")
            hoistedArguments[argument.expression.id] = local
        }
    }

    /// The type around `node` declares `name` as an implicitly unwrapped optional (`var loader: Loader!`).
    static func isImplicitlyUnwrapped(_ name: String, around node: some SyntaxProtocol) -> Bool {
        guard let block = CallSiteRewrite.memberBlock(around: node) else { return false }
        return block.members.contains { member in
            member.decl.as(VariableDeclSyntax.self)?.bindings.contains { binding in
                binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name
                    && binding.typeAnnotation?.type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) == true
            } == true
        }
    }

    /// A read of `self` in the nodes: `self` itself, or a member of the type read without it.
    static func selfRead(in nodes: [Syntax], members: Set<String>) -> Syntax? {
        for node in nodes {
            if let token = node.tokens(viewMode: .sourceAccurate).first(where: { $0.tokenKind == .keyword(.self) }) { return Syntax(token) }
        }
        for name in ValueThreading.reads(in: nodes).sorted() where members.contains(name) {
            if let use = nodes.lazy.compactMap({ PromiseChainWriter.reference(to: name, in: $0) }).first { return Syntax(use) }
        }
        return nil
    }

    /// `api.load(...)` or `self.api.load(...)` where `api` is the type's property: the receiver and its name.
    private static func selfHeldReceiver(_ call: FunctionCallExprSyntax, members: Set<String>) -> (ExprSyntax, String)? {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base else { return nil }
        if let reference = base.as(DeclReferenceExprSyntax.self), members.contains(reference.baseName.text) {
            return (base, reference.baseName.text)
        }
        if let inner = base.as(MemberAccessExprSyntax.self), inner.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) {
            return (base, inner.declName.baseName.text)
        }
        return nil
    }

    /// `guard let self else { return }`, `guard let self = self else { return }`.
    static func unwrapsSelf(_ item: CodeBlockItemSyntax) -> Bool {
        guard let guardStatement = item.item.as(GuardStmtSyntax.self), guardStatement.conditions.count == 1,
              let binding = guardStatement.conditions.first?.condition.as(OptionalBindingConditionSyntax.self),
              binding.pattern.trimmedDescription == "self" || binding.pattern.trimmedDescription == "`self`" else { return false }
        return binding.initializer == nil || binding.initializer?.value.trimmedDescription == "self"
    }

    /// `self?.`, `self!`, or `self` bound again: reads that need an optional `self`.
    private static func optionalSelfUse(in statements: [CodeBlockItemSyntax]) -> Syntax? {
        for statement in statements {
            for token in statement.tokens(viewMode: .sourceAccurate) where token.tokenKind == .keyword(.self) {
                guard let next = token.nextToken(viewMode: .sourceAccurate) else { continue }
                if next.tokenKind == .postfixQuestionMark || next.tokenKind == .exclamationMark { return Syntax(token) }
                if let binding = token.parent?.parent?.parent?.as(OptionalBindingConditionSyntax.self)
                    ?? token.parent?.parent?.as(OptionalBindingConditionSyntax.self) {
                    return Syntax(binding)
                }
            }
        }
        return nil
    }

    // MARK: - The parameters' values

    /// The handler's parameter types, as the closure annotates them or the callee spells them;
    /// a generic parameter the call pins with a metatype (`as: Hike.self` for `as type:
    /// Value.Type`) is spelled as that type.
    private func parameterTypes(_ callee: CalleeSummary, closure: ClosureExprSyntax, call: FunctionCallExprSyntax) throws(Refusal) -> [String] {
        var types = callee.handlerParameterTypes
        if case .parameterClause(let clause)? = closure.signature?.parameterClause, clause.parameters.count == types.count {
            for (position, parameter) in clause.parameters.enumerated() {
                if let type = parameter.type { types[position] = type.trimmedDescription }
            }
        }
        var pinned: [String: String] = [:]
        for argument in call.arguments {
            guard let label = argument.label?.text, let name = callee.metatypeLabels[label],
                  let member = argument.expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "self",
                  let base = member.base, !base.trimmedDescription.isEmpty else { continue }
            // `Hike.self`, `[Hike].self`: the base read as a type.
            var parser = Parser(base.trimmedDescription)
            let type = TypeSyntax.parse(from: &parser)
            guard !type.hasError, type.trimmedDescription == base.trimmedDescription else { continue }
            pinned[name] = type.trimmedDescription
        }
        let generic = Set(callee.genericParameterNames)
        for (position, type) in types.enumerated() {
            var parser = Parser(type)
            let parsed = TypeSyntax.parse(from: &parser)
            let tokens = parsed.tokens(viewMode: .sourceAccurate)
            guard tokens.contains(where: { generic.contains($0.text) }) else { continue }
            guard tokens.allSatisfy({ !generic.contains($0.text) || pinned[$0.text] != nil }) else {
                throw Refusal("the callback's `\(type)` names the callee's generic parameter; annotate the callback's parameters with their types", at: closure)
            }
            types[position] = tokens.map { token in
                let text = generic.contains(token.text) ? pinned[token.text]! : token.text
                return token.leadingTrivia.description + text + token.trailingTrivia.description
            }.joined()
        }
        return types
    }

    /// Names for `$0`, `$1`...: what the generated handlers call them.
    private static func suggestedNames(_ shape: HandlerShape) -> [String] {
        if case .tuple(let elements, let errorIndex) = shape {
            var names = elements.map(\.label)
            if let errorIndex { names.insert("error", at: min(errorIndex, names.count)) }
            return names
        }
        return shape.closureParameters
    }

    /// The declarations of the parameters' constants and the `do`/`catch` that sets them.
    private mutating func bindings(callee: CalleeSummary, call: FunctionCallExprSyntax, constants: [String?], types: [String],
                                   renamed: [String: String], failure: CodeLines? = nil) throws(Refusal) -> CodeLines {
        var text = StatementText(bytes: bytes)
        text.renamed = renamed
        let arguments = call.arguments.enumerated().filter { $0.offset != callee.handlerIndex && $0.offset != callee.failureIndex }.map { entry in
            (entry.element.label.map { $0.text + ": " } ?? "") + (hoistedArguments[entry.element.expression.id] ?? text.text(of: entry.element.expression))
        }
        var called = text.text(of: call.calledExpression)
        if let (receiver, local) = hoistedReceiver, let member = call.calledExpression.as(MemberAccessExprSyntax.self),
           member.base?.id == receiver {
            called = local + "." + member.declName.trimmedDescription
        }
        // `data(at: path)` beside the constant `let data: Data?` declared for its value: the
        // constant would hide the function.
        if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self), constants.contains(reference.baseName.text) {
            guard !callee.scope.isEmpty else {
                throw Refusal("the callback names its parameter `\(reference.baseName.text)` like the function it calls, which the constant "
                              + "holding it would hide in straight-line code", at: call)
            }
            called = "self." + called
        }
        let invocation = called + "(" + arguments.joined(separator: ", ") + ")"
        var lines = CodeLines()
        let canFail = callee.shape.canFail
        let awaited = (canFail ? "try await " : "await ") + invocation

        func declare() {
            for (constant, type) in zip(constants, types) {
                if let constant { lines.add("let \(constant): \(type)", 0) }
            }
        }
        func assign(_ values: [String], _ level: Int) {
            let pairs = zip(constants, values).compactMap { constant, value in constant.map { ($0, value) } }
            for (constant, value) in pairs { lines.add("\(constant) = \(value)", level) }
        }

        switch callee.shape {
        case .nothing:
            lines.add(awaited, 0)
        case .value:
            if let constant = constants[0] {
                lines.add("let \(constant): \(types[0]) = \(awaited)", 0)
            } else {
                lines.add("_ = \(awaited)", 0)
            }
        case .result:
            guard let constant = constants[0] else {
                lines.add("_ = try? \(awaited.dropFirst(4))", 0)
                break
            }
            lines.add("let \(constant): \(types[0])", 0)
            var onlyFailure: String?
            switch callee.asyncFailure {
            case .untyped:
                if let typed = callee.typedFailure {
                    throw Refusal("the callback's `Result` fails with `\(typed)`, but the async alternative throws `any Error`; "
                                  + "convert this call by hand (`error as? \(typed)`)", at: call)
                }
                lines.add("do {", 0)
            case .typed(let failure):
                // A `do` infers no thrown type of its own: `catch` would get `any Error`.
                lines.add("do throws(\(failure)) {", 0)
            case .typedUnlessCancelled(let failure):
                // In the new task nobody cancels, the alternative throws only the callback's
                // failure type; a cancelled task (code moved later into one) ends quietly.
                guard !enclosingIsAsync else {
                    throw Refusal("the callback's `Result` fails with `\(failure)`, but the async alternative also throws "
                                  + "`CancellationError` when the awaiting task is cancelled, which the callback never hears of; "
                                  + "convert this call by hand", at: call)
                }
                lines.add("do {", 0)
                onlyFailure = failure
            case .unknown:
                throw Refusal("the callback's `Result` has its own failure type, and whether the existing async alternative throws it typed is not known", at: call)
            }
            lines.add("\(constant) = .success(\(awaited))", 1)
            if let onlyFailure {
                lines.add("} catch let error as \(onlyFailure) {", 0)
                lines.add("\(constant) = .failure(error)", 1)
                lines.add("} catch {", 0)
                lines.add("return // `CancellationError`: nobody cancels this task", 1)
            } else {
                lines.add("} catch {", 0)
                lines.add("\(constant) = .failure(error)", 1)
            }
            lines.add("}", 0)
        case .errorOnly:
            guard constants[0] != nil else {
                lines.add("_ = try? \(awaited.dropFirst(4))", 0)
                break
            }
            let caught = fresh("caught")
            declare()
            lines.add("do {", 0)
            lines.add(awaited, 1)
            assign(["nil"], 1)
            lines.add("} catch let \(caught) {", 0)
            assign([errorValue(caught, callee: callee)], 1)
            lines.add("}", 0)
        case .optionalValueAndError, .errorAndOptionalValue, .successFlag:
            let isFlag = callee.shape == .successFlag
            let value: Int
            if case .errorAndOptionalValue = callee.shape { value = 1 } else { value = 0 }
            let error = 1 - value
            func set(_ position: Int, _ text: String, _ level: Int) {
                if let constant = constants[position] { lines.add("\(constant) = \(text)", level) }
            }
            declare()
            lines.add("do {", 0)
            if isFlag {
                lines.add(awaited, 1)
                set(value, "true", 1)
            } else if let constant = constants[value] {
                lines.add("\(constant) = \(awaited)", 1)
            } else {
                lines.add("_ = \(awaited)", 1)
            }
            set(error, "nil", 1)
            let failed = isFlag ? "false" : "nil"
            guard constants[error] != nil else {
                // The error is not read: whatever was thrown, the value is missing.
                lines.add("} catch {", 0)
                set(value, failed, 1)
                lines.add("}", 0)
                break
            }
            if importsVow {
                lines.add("} catch PMKError.invalidCallingConvention {", 0)
                set(value, failed, 1)
                set(error, "nil", 1)
            }
            let caught = fresh("caught")
            lines.add("} catch let \(caught) {", 0)
            set(value, failed, 1)
            set(error, Self.neither(caught, errorValue(caught, callee: callee)), 1)
            lines.add("}", 0)
        case .tuple(let elements, let errorIndex):
            guard let errorIndex else {
                let pattern = constants.map { $0 ?? "_" }.joined(separator: ", ")
                lines.add("let (\(pattern)): (\(types.joined(separator: ", "))) = \(awaited)", 0)
                break
            }
            if elements.contains(where: { !$0.unwraps }) {
                return continuation(callee: callee, call: call, called: called, arguments: arguments, constants: constants, types: types)
            }
            // `{ _, _, _ in }`: nothing is read.
            if constants.allSatisfy({ $0 == nil }) {
                lines.add("_ = try? \(awaited.dropFirst(4))", 0)
                break
            }
            let readsValues = constants.indices.contains { $0 != errorIndex && constants[$0] != nil }
            let caught = fresh("caught")
            let unwrapped = readsValues ? fresh("answer") : "_"
            declare()
            lines.add("do {", 0)
            lines.add(readsValues ? "let \(unwrapped) = \(awaited)" : "_ = \(awaited)", 1)
            var values: [String] = []
            var element = 0
            for position in constants.indices {
                if position == errorIndex { values.append("nil"); continue }
                values.append("\(unwrapped).\(elements[element].label)")
                element += 1
            }
            assign(values, 1)
            lines.add(constants[errorIndex] == nil ? "} catch {" : "} catch let \(caught) {", 0)
            let errorText = errorValue(caught, callee: callee)
            // A missing value made the alternative throw: every optional nil, as the callback got them.
            var failed: [String] = []
            element = 0
            for position in constants.indices {
                if position == errorIndex { failed.append(Self.neither(caught, errorText)); continue }
                failed.append("nil")
                element += 1
            }
            assign(failed, 1)
            lines.add("}", 0)
        case .valueAndError:
            return continuation(callee: callee, call: call, called: called, arguments: arguments, constants: constants, types: types)
        case .split:
            if let constant = constants.first, let constant {
                lines.add("let \(constant): \(types[0])", 0)
                lines.add("do {", 0)
                lines.add("\(constant) = \(awaited)", 1)
            } else {
                lines.add("do {", 0)
                lines.add((types.isEmpty ? "" : "_ = ") + awaited, 1)
            }
            lines.add(failure ?? CodeLines(), indentedBy: 0)
            lines.add("}", 0)
        }
        return lines
    }

    /// The thrown error as the callback's error parameter: `Error?`, or the callee's own error
    /// type, which is what the alternative rejects with (it throws exactly what the handler passed).
    private func errorValue(_ caught: String, callee: CalleeSummary) -> String {
        guard let typed = callee.typedFailure else { return caught }
        return "\(caught) as? \(typed)"
    }

    /// `nil` for the alternative's error for neither a value nor an error, the error otherwise.
    private static func neither(_ caught: String, _ error: String) -> String {
        "\(SwiftOnlySupport.recognises(caught)) ? nil : \(error)"
    }

    // MARK: - Inner calls

    private struct InnerCall {
        var item: CodeBlockItemSyntax
        var call: FunctionCallExprSyntax
        var matched: PyramidReader.MatchedCall
    }

    /// The calls of completion-handler functions in the callback: each must be the last thing the
    /// callback does on its path.
    /// Calls inside closures or loops are not levels of this pyramid: the statements of the
    /// callback holding them are returned to be rewritten as places of their own, when the
    /// stage can (``nestedPlaces``) and no level's call stands in the same statement.
    private func innerCalls(in statements: [CodeBlockItemSyntax], closure: ClosureExprSyntax) throws(Refusal) -> ([InnerCall], [Int]) {
        let finder = KnownCallFinder(reader: reader)
        for statement in statements { finder.walk(statement) }
        var found: [InnerCall] = []
        var nested: [Int] = []
        for (call, inClosure, inLoop) in finder.calls where inClosure || inLoop {
            let reason = inLoop ? "a loop around a callback" : "a callback inside a closure of a callback"
            guard nestedPlaces != nil, let index = statements.firstIndex(where: { $0.range.contains(call.position) }) else {
                throw Refusal(reason + " (not a statement of the callback itself)", at: call)
            }
            // A loop is rewritten as a fan-out from its own `for` statement.
            if inLoop && !statements[index].item.is(ForStmtSyntax.self) { throw Refusal(reason, at: call) }
            if !nested.contains(index) { nested.append(index) }
        }
        for (call, inClosure, inLoop) in finder.calls where !inClosure && !inLoop {
            if let index = nested.first(where: { statements[$0].range.contains(call.position) }) {
                throw Refusal("a callback inside a closure or loop of a callback, beside another call in the same statement", at: statements[index])
            }
            guard case .call(let matched) = reader.match(call) else {
                throw Refusal("several functions named `\(PyramidReader.baseName(call) ?? "")` take these labels; the callee is ambiguous", at: call)
            }
            guard let item = call.parent?.as(CodeBlockItemSyntax.self) ?? call.parent?.parent?.as(CodeBlockItemSyntax.self),
                  PyramidReader.callStatement(item)?.id == call.id, Self.isLast(item, upTo: closure) else {
                throw Refusal("code after an inner call in its callback ran before that callback, and would run after it in straight-line code", at: call)
            }
            found.append(InnerCall(item: item, call: call, matched: matched))
        }
        return (found, nested.sorted())
    }

    /// Whether nothing but a bare `return` follows `item` up to the end of `closure`, through the
    /// `if`, `switch`, `guard ... else` and `do` blocks around it.
    private static func isLast(_ item: CodeBlockItemSyntax, upTo closure: ClosureExprSyntax) -> Bool {
        var current = item
        while true {
            guard let list = current.parent?.as(CodeBlockItemListSyntax.self) else { return false }
            let items = Array(list)
            guard let position = items.firstIndex(where: { $0.id == current.id }) else { return false }
            let rest = items[(position + 1)...]
            if rest.count == 1, let ret = rest.first?.item.as(ReturnStmtSyntax.self), ret.expression == nil { return true }
            guard rest.isEmpty else { return false }
            // The end of a block: where does the block end?
            guard let owner = list.parent else { return false }
            if owner.id == closure.id { return true }
            var node: Syntax = owner
            // Climb from the block to the statement that holds it, through if/else chains and switch cases.
            while true {
                if node.is(GuardStmtSyntax.self) { return false }  // the else block must exit; handled by the `return` rule
                if node.is(ForStmtSyntax.self) || node.is(WhileStmtSyntax.self) || node.is(RepeatStmtSyntax.self) || node.is(ClosureExprSyntax.self) {
                    return false
                }
                if node.is(DoStmtSyntax.self) {
                    if let doStatement = node.as(DoStmtSyntax.self), !doStatement.catchClauses.isEmpty { return false }
                }
                if let holder = node.as(CodeBlockItemSyntax.self) { current = holder; break }
                guard let parent = node.parent else { return false }
                if node.is(CodeBlockSyntax.self) || node.is(IfExprSyntax.self) || node.is(SwitchCaseSyntax.self)
                    || node.is(SwitchCaseListSyntax.self) || node.is(SwitchExprSyntax.self) || node.is(ExpressionStmtSyntax.self)
                    || node.is(DoStmtSyntax.self) {
                    node = parent
                    continue
                }
                return false
            }
        }
    }

    // MARK: - Text

    /// The statement's lines, re-indented relative to its first, names renamed and inner calls
    /// replaced by their straight-line code.
    func text(of item: CodeBlockItemSyntax, renamed: [String: String], replacing: [(Range<Int>, String)]) -> [String] {
        var result: [String] = []
        for piece in item.leadingTrivia {
            switch piece {
            case .lineComment(let text), .docLineComment(let text): result.append(text)
            default: continue
            }
        }
        let start = item.item.positionAfterSkippingLeadingTrivia.utf8Offset
        let end = item.item.endPositionBeforeTrailingTrivia.utf8Offset
        var edits = replacing.map { (start: $0.0.lowerBound, end: $0.0.upperBound, text: $0.1) }
        if !renamed.isEmpty {
            for token in item.item.tokens(viewMode: .sourceAccurate) {
                let name: String
                switch token.tokenKind {
                case .identifier(let text): name = text
                case .dollarIdentifier(let text):
                    if StatementText.isInsideClosure(token, below: item) { continue }
                    name = text
                default: continue
                }
                guard let newName = renamed[name] else { continue }
                if !Self.isSameNameRebinding(token) {
                    guard let reference = token.parent?.as(DeclReferenceExprSyntax.self), reference.argumentNames == nil else { continue }
                    if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id { continue }
                }
                let offset = token.positionAfterSkippingLeadingTrivia.utf8Offset
                if replacing.contains(where: { $0.0.contains(offset) }) { continue }
                edits.append((offset, token.endPositionBeforeTrailingTrivia.utf8Offset, newName))
            }
        }
        let text = StatementText.splice(bytes, from: start, to: end, edits, replacedWhole: replacing.map(\.0))
        result += StatementText.lines(of: text, startingAt: Indentation.lineIndent(in: bytes, at: start))
        return result
    }

    // MARK: - Names

    mutating func fresh(_ base: String) -> String {
        var name = base
        var suffix = 2
        while taken.contains(name) { name = "\(base)\(suffix)"; suffix += 1 }
        taken.insert(name)
        return name
    }

    /// ``ValueThreading/reads(in:)``, less the reads inside a closure that takes a parameter of
    /// that name (an inner callback's own `error`): they do not read the callback's.
    private static func unshadowedReads(in statements: [CodeBlockItemSyntax]) -> Set<String> {
        var names: Set<String> = []
        for statement in statements {
            for token in statement.tokens(viewMode: .sourceAccurate) {
                guard case .identifier(let name) = token.tokenKind, let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
                if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id { continue }
                var parent = reference.parent
                var shadowed = false
                while let node = parent, !shadowed, node.id != statement.id {
                    if let closure = node.as(ClosureExprSyntax.self) { shadowed = PyramidReader.parameterNames(closure)?.contains(name) ?? false }
                    parent = node.parent
                }
                if !shadowed { names.insert(name) }
            }
        }
        return names
    }

    /// Every name the statements declare, at any depth (constants, closure parameters, patterns).
    /// The names `if let x` / `guard let x` shorthand bindings read.
    static func shorthandBindings(in statements: [CodeBlockItemSyntax]) -> Set<String> {
        var names: Set<String> = []
        for statement in statements {
            for token in statement.tokens(viewMode: .sourceAccurate) {
                if case .identifier(let name) = token.tokenKind, isSameNameRebinding(token) { names.insert(name) }
            }
        }
        return names
    }

    /// `if let error`, `guard let error = error`: the same value under the same name, which a
    /// new name for the value renames along.
    static func isSameNameRebinding(_ token: TokenSyntax) -> Bool {
        guard let pattern = token.parent?.as(IdentifierPatternSyntax.self),
              let binding = pattern.parent?.as(OptionalBindingConditionSyntax.self) else { return false }
        guard let initializer = binding.initializer else { return true }
        return initializer.value.as(DeclReferenceExprSyntax.self)?.baseName.text == token.text
    }

    private static func declaredAnywhere(_ statements: [CodeBlockItemSyntax]) -> Set<String> {
        var names: Set<String> = []
        for statement in statements {
            for token in statement.tokens(viewMode: .sourceAccurate) {
                guard case .identifier(let name) = token.tokenKind else { continue }
                if Self.isSameNameRebinding(token) { continue }
                if token.parent?.is(IdentifierPatternSyntax.self) == true || token.parent?.is(ClosureShorthandParameterSyntax.self) == true
                    || token.parent?.is(ClosureParameterSyntax.self) == true {
                    names.insert(name)
                }
            }
        }
        return names
    }

    /// The names declared or read before `item` in its own block.
    private static func namesBefore(_ item: CodeBlockItemSyntax) -> Set<String> {
        guard let list = item.parent?.as(CodeBlockItemListSyntax.self) else { return [] }
        var names: Set<String> = []
        for before in list.prefix(while: { $0.id != item.id }) { names.formUnion(before.identifierNames) }
        return names
    }

    private static func firstDefer(in statements: [CodeBlockItemSyntax]) -> DeferStmtSyntax? {
        let finder = FirstFinder<DeferStmtSyntax>()
        for statement in statements { finder.walk(statement) }
        return finder.found
    }

    private static func firstReturn(in statements: [CodeBlockItemSyntax]) -> ReturnStmtSyntax? {
        let finder = FirstFinder<ReturnStmtSyntax>()
        for statement in statements { finder.walk(statement) }
        return finder.found
    }
}

/// The first node of a kind outside closures and nested functions.
private final class FirstFinder<Node: SyntaxProtocol>: SyntaxAnyVisitor {
    private(set) var found: Node?

    init() { super.init(viewMode: .sourceAccurate) }

    override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
        if found != nil || node.is(ClosureExprSyntax.self) || node.is(FunctionDeclSyntax.self) { return .skipChildren }
        if let match = node.as(Node.self) { found = match; return .skipChildren }
        return .visitChildren
    }
}

/// Every call of a known completion-handler function, with whether it is inside a closure or a loop.
final class KnownCallFinder: LoopTrackingVisitor {
    let reader: PyramidReader
    private(set) var calls: [(FunctionCallExprSyntax, Bool, Bool)] = []
    private var closureDepth = 0

    init(reader: PyramidReader) {
        self.reader = reader
        super.init()
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { closureDepth += 1; return .visitChildren }
    override func visitPost(_ node: ClosureExprSyntax) { closureDepth -= 1 }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        switch reader.match(node) {
        case .none:
            return .visitChildren
        case .ambiguous, .call:
            calls.append((node, closureDepth > 0, loopDepth > 0))
            // Its handler is the next level's business.
            return .skipChildren
        }
    }
}
