import SwiftParser
import SwiftSyntax

/// Under `--replace --to async`, before anything else is rewritten in a file: every call of a
/// promise-returning function that the run makes async (``PromiseReplacementVerdict``), in
/// whatever code it stands.
///
/// - `try await load().value`, in async code, becomes `try await load()`.
/// - Any other call uses the promise (chains on it, keeps it, hands it on, returns it) and becomes
///   `Promise.immediate { @MainActor @Sendable in try await load() }`: a promise still, whose
///   function starts at once, before the code after the call, as calling it did (a
///   `Promise { }` would start it a main-queue turn later). The replaced function runs on the main
///   actor, where its handlers ran. The stages that follow read the wrapped call as any promise;
///   where they await it, they await the call itself (``unwrapped(_:)``).
enum ReplacedPromiseCalls {
    /// What the wrapper opens with, before the call; `[self]` for a call reading members through
    /// implicit `self` (``ImplicitSelf``).
    static func opening(guarantee: Bool, capturingSelf: Bool) -> String {
        (guarantee ? "Guarantee" : "Promise") + ".immediate { @MainActor @Sendable " + (capturingSelf ? "[self] " : "")
            + (guarantee ? "in await " : "in try await ")
    }

    /// Whether `node` stands in an extension of `Promise` or `Guarantee`.
    static func isInPromiseExtension(_ node: some SyntaxProtocol) -> Bool {
        var current = node.parent
        while let parent = current {
            if let extensionDecl = parent.as(ExtensionDeclSyntax.self) {
                var name = extensionDecl.extendedType.trimmedDescription
                if let generic = name.firstIndex(of: "<") { name = String(name[..<generic]) }
                if ["Promise", "Guarantee", "Vow.Promise", "Vow.Guarantee"].contains(name) { return true }
            }
            current = parent.parent
        }
        return false
    }

    /// `source` with its calls of replaced functions changed, and the edits made (by offsets in
    /// `source`), or nil when it has none.
    static func apply(to source: String, fileName: String, index: MigrationIndex) -> (text: String, edits: [TextEdit])? {
        let names = index.replacedPromiseFunctionBaseNames
        guard !names.isEmpty, names.contains(where: { source.contains($0) }) else { return nil }
        let tree = Parser.parse(source: source)
        guard !tree.hasError else { return nil }
        let converter = SourceLocationConverter(fileName: fileName, tree: tree)
        let collector = ExistingCallCollector(fileName: fileName, converter: converter, names: names)
        collector.walk(tree)
        let bytes = Array(source.utf8)
        var edits: [TextEdit] = []
        let calls = Dictionary(CallNodes.collect(tree, names: names).map { ($0.positionAfterSkippingLeadingTrivia.utf8Offset, $0) },
                               uniquingKeysWith: { first, _ in first })
        let globals = Set((index.promiseFunctionsByBaseName.values.joined().filter(\.scope.isEmpty)).map(\.baseName))
        var named = Set<SyntaxIdentifier>()
        for call in collector.calls {
            guard let function = index.replacedFunction(reachedBy: call) else { continue }
            // `.store(id)`: a static member of the type the context wants (an enum case), never a method.
            if let node = calls[call.callStart], let member = node.calledExpression.as(MemberAccessExprSyntax.self), member.base == nil {
                continue
            }
            if call.inAsyncCode, call.resultUse == .readsValue, call.callEnd + 6 <= bytes.count,
               bytes[call.callEnd..<call.callEnd + 6].elementsEqual(".value".utf8) {
                edits.append(TextEdit(offset: call.callEnd, removing: 6, text: ""))
            } else {
                let capture = calls[call.callStart].map { node in
                    ImplicitSelf.needsCapture(node) { globals.contains($0) || index.declaresGlobal(named: $0) }
                } ?? false
                // In an extension of `Promise`, `Promise` alone is the extended type (`Promise<String>`).
                let qualified = calls[call.callStart].map(Self.isInPromiseExtension) ?? false
                // The wrapper opens first: a `$0` starting the call (`$0.load()`) is renamed after it.
                edits.append(TextEdit(offset: call.callStart, removing: 0,
                                      text: (qualified ? "Vow." : "") + opening(guarantee: function.isGuarantee, capturingSelf: capture)))
                // `$0` of the closure around the call would be the wrapper's own: that closure names it.
                if let node = calls[call.callStart], let closure = Self.shorthandOwner(of: node), named.insert(closure.id).inserted {
                    edits += Self.namingShorthandParameters(of: closure)
                }
                edits.append(TextEdit(offset: call.callEnd, removing: 0, text: " }"))
            }
        }
        return edits.isEmpty ? nil : (TextEdit.apply(edits, to: source), edits)
    }

    /// The closure whose `$0` (`$1`, ...) the call reads, if it reads one.
    static func shorthandOwner(of call: FunctionCallExprSyntax) -> ClosureExprSyntax? {
        for token in call.tokens(viewMode: .sourceAccurate) {
            guard case .dollarIdentifier = token.tokenKind, !StatementText.isInsideClosure(token, below: call) else { continue }
            return owner(of: token)
        }
        return nil
    }

    /// The closure a `$0` belongs to: the nearest one around it.
    private static func owner(of token: TokenSyntax) -> ClosureExprSyntax? {
        var parent = token.parent
        while let current = parent {
            if let closure = current.as(ClosureExprSyntax.self) { return closure }
            parent = current.parent
        }
        return nil
    }

    /// `{ load($0.id) }` becomes `{ value in load(value.id) }`: every `$n` of the closure (not of
    /// closures inside it) gets a name no token of the closure spells.
    static func namingShorthandParameters(of closure: ClosureExprSyntax) -> [TextEdit] {
        var used = Set<String>()
        var own: [(token: TokenSyntax, index: Int)] = []
        for token in closure.tokens(viewMode: .sourceAccurate) {
            switch token.tokenKind {
            case .identifier(let name): used.insert(name)
            case .dollarIdentifier(let name):
                if owner(of: token)?.id == closure.id, let index = Int(name.dropFirst()) { own.append((token, index)) }
            default: continue
            }
        }
        guard let count = own.map(\.index).max().map({ $0 + 1 }) else { return [] }
        var names: [String] = []
        for position in 0..<count {
            let stem = count == 1 ? "value" : "value\(position)"
            var name = stem
            var suffix = 2
            while used.contains(name) || names.contains(name) { name = "\(stem)_\(suffix)"; suffix += 1 }
            names.append(name)
        }
        var edits = [TextEdit(offset: closure.leftBrace.endPositionBeforeTrailingTrivia.utf8Offset, removing: 0,
                              text: " " + names.joined(separator: ", ") + " in")]
        for (token, index) in own {
            edits.append(TextEdit(offset: token.positionAfterSkippingLeadingTrivia.utf8Offset,
                                  removing: token.trimmedLength.utf8Length, text: names[index]))
        }
        return edits
    }

    /// The call a wrapper made here holds (`load()` of
    /// `Promise.immediate { @MainActor @Sendable in try await load() }`), and whether it is a
    /// guarantee's, else nil.
    static func unwrapped(_ expression: ExprSyntax) -> (call: ExprSyntax, guarantee: Bool)? {
        guard let call = expression.as(FunctionCallExprSyntax.self), call.arguments.isEmpty, call.leftParen == nil,
              let closure = call.trailingClosure, call.additionalTrailingClosures.isEmpty,
              let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "immediate",
              let written = member.base?.trimmedDescription, let type = Optional(written.hasPrefix("Vow.") ? String(written.dropFirst(4)) : written),
              type == "Promise" || type == "Guarantee",
              ["@MainActor @Sendable in", "@MainActor @Sendable [self] in"].contains(closure.signature?.trimmedDescription),
              closure.statements.count == 1, let item = closure.statements.first?.item.as(ExprSyntax.self) else { return nil }
        if type == "Guarantee" {
            guard let awaited = item.as(AwaitExprSyntax.self) else { return nil }
            return (awaited.expression, true)
        }
        guard let tried = item.as(TryExprSyntax.self), tried.questionOrExclamationMark == nil,
              let awaited = tried.expression.as(AwaitExprSyntax.self) else { return nil }
        return (awaited.expression, false)
    }
}

extension MigrationIndex {
    /// The base names of the functions `--replace --to async` makes async.
    var replacedPromiseFunctionBaseNames: Set<String> {
        guard !replacedPromiseFunctions.isEmpty else { return [] }
        return Set(promiseFunctionsByBaseName.compactMap { name, functions in
            functions.contains { replacedPromiseFunctions.contains($0.location) } ? name : nil
        })
    }
}

/// Whether a call, moved into an escaping closure, needs that closure to capture `self`: it
/// stands in an instance member of a type (or an extension) and reads a name that is neither a
/// local, a parameter, a type nor a global function the tree declares, so it is a member read
/// through implicit `self`, which an escaping closure must spell (`[self] in`). A name taken for a
/// member that was not one (a global variable of another module) costs a warning ("capture 'self'
/// was never used"); a member taken for a local would not compile, which can happen only where the
/// function declares a local of a member's name somewhere else in its body.
enum ImplicitSelf {
    static func needsCapture(_ call: FunctionCallExprSyntax, globals: (String) -> Bool) -> Bool {
        guard isInInstanceMember(call) else { return false }
        var locals = Set<String>()
        var node: Syntax? = Syntax(call).parent
        while let current = node {
            if let closure = current.as(ClosureExprSyntax.self) {
                locals.formUnion(PyramidReader.parameterNames(closure) ?? [])
            } else if let function = current.as(FunctionDeclSyntax.self) {
                locals.formUnion(function.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text })
                locals.formUnion(patternNames(in: function.body))
                break
            } else if let initializer = current.as(InitializerDeclSyntax.self) {
                locals.formUnion(initializer.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text })
                locals.formUnion(patternNames(in: initializer.body))
                break
            } else if current.is(AccessorDeclSyntax.self) || (current.is(VariableDeclSyntax.self) && current.parent?.is(MemberBlockItemSyntax.self) == true) {
                locals.formUnion(["newValue", "oldValue"])
                locals.formUnion(patternNames(in: current))
                break
            }
            node = current.parent
        }
        for token in call.tokens(viewMode: .sourceAccurate) {
            guard case .identifier(let name) = token.tokenKind, let reference = token.parent?.as(DeclReferenceExprSyntax.self),
                  reference.baseName.id == token.id else { continue }
            // `a.b`: only the first name of a member access can be read through `self`.
            if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id { continue }
            // An argument's label is no reference. A call with argument labels (`info(for: id)`)
            // is a function's, never a local's of that name (a closure takes no labels).
            let calledWithLabels = reference.parent?.as(FunctionCallExprSyntax.self).map { call in
                call.calledExpression.id == reference.id && call.arguments.contains { $0.label != nil }
            } ?? false
            if name.first?.isUppercase == true || name.hasPrefix("$") || (locals.contains(name) && !calledWithLabels) { continue }
            if globals(name) && !declaresMember(name, around: call) { continue }
            if let closure = enclosingClosure(of: token, within: call), (PyramidReader.parameterNames(closure) ?? []).contains(name) { continue }
            return true
        }
        return false
    }

    /// Whether the type (or extension) around `node` declares a member named `name` in its body,
    /// which hides a global of that name.
    private static func declaresMember(_ name: String, around node: some SyntaxProtocol) -> Bool {
        var current = node.parent
        while let parent = current {
            if let members = parent.as(MemberBlockSyntax.self) {
                return members.members.contains { item in
                    if let variable = item.decl.as(VariableDeclSyntax.self) {
                        return variable.bindings.contains { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name }
                    }
                    return item.decl.as(FunctionDeclSyntax.self)?.name.text == name
                }
            }
            current = parent.parent
        }
        return false
    }

    /// The call stands in an instance method, initializer or accessor of a type or extension.
    private static func isInInstanceMember(_ node: some SyntaxProtocol) -> Bool {
        var current = node.parent
        var member: DeclModifierListSyntax?
        while let parent = current {
            if let function = parent.as(FunctionDeclSyntax.self) { member = function.modifiers }
            else if let initializer = parent.as(InitializerDeclSyntax.self) { member = initializer.modifiers }
            else if let variable = parent.as(VariableDeclSyntax.self) { member = variable.modifiers }
            else if let subscriptDecl = parent.as(SubscriptDeclSyntax.self) { member = subscriptDecl.modifiers }
            if parent.is(MemberBlockSyntax.self) {
                guard let modifiers = member else { return false }
                return !modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
            }
            if parent.is(SourceFileSyntax.self) { return false }
            current = parent.parent
        }
        return false
    }

    private static func enclosingClosure(of token: TokenSyntax, within call: FunctionCallExprSyntax) -> ClosureExprSyntax? {
        var node = token.parent
        while let current = node, current.id != call.id {
            if let closure = current.as(ClosureExprSyntax.self) { return closure }
            node = current.parent
        }
        return nil
    }

    /// Every name a pattern binds in `node` (locals, `if let`, `for` variables, `catch let`).
    private static func patternNames(in node: (some SyntaxProtocol)?) -> [String] {
        guard let node else { return [] }
        var names: [String] = []
        for token in node.tokens(viewMode: .sourceAccurate) {
            guard case .identifier(let name) = token.tokenKind else { continue }
            if token.parent?.is(IdentifierPatternSyntax.self) == true { names.append(name) }
            // `if let user {`: the shorthand binds the name it reads.
            if let condition = token.parent?.parent?.as(OptionalBindingConditionSyntax.self), condition.initializer == nil {
                names.append(name)
            }
        }
        return names
    }
}

/// The calls of some base names in a tree, as syntax.
private final class CallNodes: SyntaxVisitor {
    let names: Set<String>
    private(set) var calls: [FunctionCallExprSyntax] = []

    private init(names: Set<String>) {
        self.names = names
        super.init(viewMode: .sourceAccurate)
    }

    static func collect(_ tree: SourceFileSyntax, names: Set<String>) -> [FunctionCallExprSyntax] {
        let finder = CallNodes(names: names)
        finder.walk(tree)
        return finder.calls
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let name = PyramidReader.baseName(node), names.contains(name) { calls.append(node) }
        return .visitChildren
    }
}
