import SwiftParser
import SwiftSyntax

/// `--replace --to async`: chains used as values on a call the run made async, which
/// ``ReplacedPromiseCalls`` wrapped to keep it a promise
/// (`let mirror = Promise.immediate { @MainActor @Sendable in try await load(id) }.map { ... }`),
/// become Vow's bridge around the chain's straight-line code (``ChainToAsync/wrappedValue(_:)``),
/// and such a call's `.cauterize()` a task logging its error (``ChainToAsync/wrappedCauterized(_:)``).
/// It runs after the other stages, over the code they wrote too (a chain copied into a task's
/// code), so that a second run finds none left; and after them so that the places they look up
/// in the index (by line) are where the index read them. Chains that are statements
/// (`... .done { }.catch { }`) are the call-site stage's.
enum WrappedValueChains {
    struct Conversion {
        var text: String
        /// At offsets of the text given.
        var findings: [(offset: Int, finding: Finding)]
    }

    /// Converts the outermost such chains of `source`, then those that were inside them, until
    /// none is left; nil when there was none to convert or refuse.
    static func apply(to source: String, fileName: String, index: MigrationIndex, trustsStoredHandlers: Bool) -> Conversion? {
        guard source.contains(".immediate {") else { return nil }
        var catalog = IndexCalleeCatalog(index: index, fileName: fileName, addingAlternatives: false, gainedHere: [],
                                         replacing: true, trustsStoredHandlers: trustsStoredHandlers)
        catalog.replacesPromiseFunctions = true
        var text = source
        var layers: [EditedOffsets] = []
        var findings: [(offset: Int, finding: Finding)] = []
        var refused = Set<Int>()
        // Each round converts the chains not inside another one; a chain inside a handler comes
        // out in the wrapper's code, read in the next round. Nesting is shallow: a few rounds.
        for _ in 0..<8 {
            let tree = Parser.parse(source: text)
            guard !tree.hasError else { break }
            let bytes = Array(text.utf8)
            let chains = ChainToAsync(bytes: bytes, catalog: catalog)
            let finder = Finder(viewMode: .sourceAccurate)
            finder.walk(tree)
            let unit = Indentation.detectUnit(in: text)
            var names: [SyntaxIdentifier: Set<String>] = [:]
            var edits: [TextEdit] = []
            // Found in source order: a chain inside one converted starts before its end.
            var convertedEnd = 0
            var declared: [SyntaxIdentifier: Set<String>] = [:]
            for call in finder.found {
                let start = call.positionAfterSkippingLeadingTrivia.utf8Offset
                let end = call.endPositionBeforeTrailingTrivia.utf8Offset
                if start < convertedEnd { continue }
                let original = originalOffset(of: start, layers: layers)
                let function = enclosingFunction(of: call)
                let place = Place(call)
                let (scope, spelled) = scopeNames(around: call, cache: &names)
                let taken = spelled.union(declared[scope] ?? [])
                do throws(Refusal) {
                    let cauterized = ChainToAsync.endsInCatch(call)
                    let written = cauterized
                        ? try chains.wrappedCauterized(call, taken: taken)
                        : try chains.wrappedValue(call, inPlace: place.statement == nil, taken: taken)
                    guard let (declaration, lines) = written else { continue }
                    let indent = Indentation.lineIndent(in: bytes, at: start)
                    var rendered = String(lines.render(baseIndent: indent, unit: unit).drop { $0 == " " || $0 == "\t" })
                    if place.answersClosure { rendered = "return " + rendered }
                    if let statement = place.statement {
                        let statementStart = statement.positionAfterSkippingLeadingTrivia.utf8Offset
                        let statementIndent = Indentation.lineIndent(in: bytes, at: statementStart)
                        let name = String(declaration.dropFirst("let ".count).prefix { $0 != " " })
                        declared[scope, default: []].insert(name)
                        if statementStart == start {
                            rendered = declaration + "\n" + statementIndent + rendered
                        } else {
                            edits.append(TextEdit(offset: statementStart, removing: 0, text: declaration + "\n" + statementIndent))
                        }
                    }
                    edits.append(TextEdit(offset: start, removing: end - start, text: rendered))
                    convertedEnd = end
                    let message = cauterized
                        ? "converted `cauterize()` on a call made async to `try await` in a `Task { @MainActor in }` (the call is still "
                            + "made at once; its error goes to Vow's log, as `cauterize()` sent it)"
                        : "converted a promise chain used as a value to `try await` in Vow's `Promise { @MainActor @Sendable in }` bridge "
                            + "(its first call is still made at once; the steps after it run in the bridge's task on the main actor)"
                    findings.append((original, Finding(kind: .callSiteConverted, function: function, line: 0, column: 0, message: message)))
                } catch {
                    guard refused.insert(original).inserted else { continue }
                    let at = originalOffset(of: error.node.positionAfterSkippingLeadingTrivia.utf8Offset, layers: layers)
                    findings.append((at, Finding(kind: .callSiteRefused, function: function, line: 0, column: 0, message: error.reason)))
                }
            }
            guard !edits.isEmpty else { break }
            edits.sort { $0.offset < $1.offset }
            text = TextEdit.apply(edits, to: text)
            layers.append(EditedOffsets(edits))
        }
        if findings.isEmpty { return nil }
        return Conversion(text: text, findings: findings)
    }

    /// Where the chain stands: the statement before which its first call can be made into a
    /// constant, nothing of the statement being evaluated before the chain (the chain is its
    /// value, or the receiver or first argument of a call on a plain name, as in
    /// `let request = chain.timeout(seconds: 1)` or `show(chain)`: a `return`, a constant's value,
    /// an assignment's, a statement, a closure's answer), else nil.
    private struct Place {
        var statement: CodeBlockItemSyntax?
        /// The chain is a closure's only statement, its answer: it becomes `return` the bridge.
        var answersClosure = false

        init(_ call: FunctionCallExprSyntax) {
            if let item = call.parent?.as(CodeBlockItemSyntax.self) {
                statement = item
                answersClosure = item.parent?.as(CodeBlockItemListSyntax.self)?.count == 1
                    && item.parent?.parent?.as(ClosureExprSyntax.self).map(WrappedValueChains.answersPromise) == true
                    && !ChainToAsync.endsInCatch(call)
                return
            }
            // Up through what evaluates the chain first.
            var node = Syntax(call)
            while let parent = node.parent {
                if let member = parent.as(MemberAccessExprSyntax.self), member.base?.id == node.id {
                    node = parent
                } else if let outer = parent.as(FunctionCallExprSyntax.self), outer.calledExpression.id == node.id {
                    node = parent
                } else if parent.is(TryExprSyntax.self) || parent.is(AwaitExprSyntax.self) {
                    node = parent
                } else if let argument = parent.as(LabeledExprSyntax.self), let list = argument.parent?.as(LabeledExprListSyntax.self),
                          list.first?.id == argument.id, let outer = list.parent?.as(FunctionCallExprSyntax.self),
                          Self.isPlainName(outer.calledExpression) {
                    node = Syntax(outer)
                } else if let element = parent.as(ArrayElementSyntax.self), let list = element.parent?.as(ArrayElementListSyntax.self),
                          list.first?.id == element.id, let array = list.parent {
                    node = array
                } else {
                    break
                }
            }
            if let returned = node.parent?.as(ReturnStmtSyntax.self) {
                node = Syntax(returned)
            } else if let initializer = node.parent?.as(InitializerClauseSyntax.self), let binding = initializer.parent?.as(PatternBindingSyntax.self),
                      binding.parent?.as(PatternBindingListSyntax.self)?.count == 1, let variable = binding.parent?.parent?.as(VariableDeclSyntax.self) {
                node = Syntax(variable)
            } else if let list = node.parent?.as(ExprListSyntax.self), let sequence = list.parent?.as(SequenceExprSyntax.self) {
                let elements = Array(list)
                guard elements.count == 3, elements[1].is(AssignmentExprSyntax.self), elements[2].id == node.id else { return }
                node = Syntax(sequence)
            }
            statement = node.parent?.as(CodeBlockItemSyntax.self)
            // `{ show(chain) }`: a constant before it would make the closure's answer a statement.
            if let statement, statement.item.is(ExprSyntax.self), statement.parent?.as(CodeBlockItemListSyntax.self)?.count == 1,
               statement.parent?.parent?.is(ClosureExprSyntax.self) == true {
                self.statement = nil
            }
        }

        /// `show`, `self.show`, `Api.shared.load`: evaluating it calls nothing.
        private static func isPlainName(_ expression: ExprSyntax) -> Bool {
            if expression.is(DeclReferenceExprSyntax.self) { return true }
            guard let member = expression.as(MemberAccessExprSyntax.self), let base = member.base else { return false }
            return base.is(DeclReferenceExprSyntax.self) || isPlainName(base)
        }
    }

    /// The names spelled in the function (or closure, or file) around the call: a constant the
    /// chain declares takes none of them.
    /// A closure whose only statement is its answer where that answer is a promise: one handed
    /// to a link taking a promise-returning closure (`then { }`, `recover { }`, `firstly { }`,
    /// `Promise { }`...) or to a collection's `map`. Another closure's type may return nothing
    /// (`scenario { env, done in env.warmUp().done { } }`), where a single statement's value is
    /// dropped: not a value then.
    static func answersPromise(_ closure: ClosureExprSyntax) -> Bool {
        var owner = closure.parent
        if owner?.is(LabeledExprSyntax.self) == true { owner = owner?.parent?.parent }
        guard let call = owner?.as(FunctionCallExprSyntax.self) else { return false }
        return SynchronousCalls.calledName(call.calledExpression).map(promiseAnsweringLinks.contains) ?? false
    }

    private static let promiseAnsweringLinks: Set<String> = [
        "then", "recover", "ensureThen", "firstly", "thenMap", "thenFlatMap", "flatMap", "Promise", "Guarantee", "immediate", "race", "when",
        // A collection's transforms answer what their closures return (`users.map { login($0) }`).
        "map", "compactMap",
    ]

    private static func scopeNames(around call: FunctionCallExprSyntax, cache: inout [SyntaxIdentifier: Set<String>]) -> (SyntaxIdentifier, Set<String>) {
        var node = call.parent
        var scope: Syntax = Syntax(call.root)
        while let current = node {
            if current.is(FunctionDeclSyntax.self) || current.is(InitializerDeclSyntax.self) || current.is(AccessorDeclSyntax.self) {
                scope = current
                break
            }
            node = current.parent
        }
        if let known = cache[scope.id] { return (scope.id, known) }
        let names = scope.identifierNames
        cache[scope.id] = names
        return (scope.id, names)
    }

    /// The function (or initializer) the call is in, as findings name it.
    private static func enclosingFunction(of call: FunctionCallExprSyntax) -> String {
        var node = call.parent
        while let current = node {
            if let function = current.as(FunctionDeclSyntax.self) {
                let labels = CompletionFunction.labels(of: function.signature.parameterClause.parameters)
                return CompletionFunction.swiftName(function.name.text, labels: labels)
            }
            if let initializer = current.as(InitializerDeclSyntax.self) {
                let labels = CompletionFunction.labels(of: initializer.signature.parameterClause.parameters)
                return CompletionFunction.swiftName("init", labels: labels)
            }
            node = current.parent
        }
        return ""
    }

    /// The offset in the first text of `offset` in the text after every layer of edits.
    private static func originalOffset(of offset: Int, layers: [EditedOffsets]) -> Int {
        layers.reversed().reduce(offset) { $1.original(of: $0) }
    }

    /// Chains (outermost calls, not a longer chain's base) on a wrapper, used as values: not a
    /// statement of a body of several, whose chain is a statement's.
    private final class Finder: SyntaxVisitor {
        var found: [FunctionCallExprSyntax] = []

        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            // Not a longer chain's base; the receiver of `.value` or of a link the app defines
            // (`load().get { }.recoverWith { }`) is a value.
            if let outer = node.parent?.as(MemberAccessExprSyntax.self), ChainToAsync.Kind(rawValue: outer.declName.baseName.text) != nil {
                return .visitChildren
            }
            guard let member = node.calledExpression.as(MemberAccessExprSyntax.self), member.base != nil,
                  let kind = ChainToAsync.Kind(rawValue: member.declName.baseName.text),
                  Self.startsOnWrapper(node), kind == .cauterize ? node.parent?.is(CodeBlockItemSyntax.self) == true : Self.isValue(node),
                  !Self.insidePromiseChainHandler(node)
            else { return .visitChildren }
            found.append(node)
            return .visitChildren
        }

        /// Inside a handler of a promise chain the stages read whole (one ending in `catch`,
        /// `done`, `ensure` or `cauterize()`, or starting on `firstly`, `when`, `race`, `after` or
        /// a wrapped call): that chain was converted with it, or left alone with it; changing
        /// the handler now would let a second run decide otherwise about the chain around it.
        private static func insidePromiseChainHandler(_ call: FunctionCallExprSyntax) -> Bool {
            var node = call.parent
            while let current = node {
                if let closure = current.as(ClosureExprSyntax.self), let link = ClosureTiming.call(taking: closure),
                   let member = link.calledExpression.as(MemberAccessExprSyntax.self), ChainToAsync.Kind(rawValue: member.declName.baseName.text) != nil {
                    // The whole chain the link belongs to: its outermost call, and its first promise.
                    var outermost = link
                    while let outer = outermost.parent?.as(MemberAccessExprSyntax.self)?.parent?.as(FunctionCallExprSyntax.self) { outermost = outer }
                    let root = chainRoot(of: link)
                    let head = root.as(FunctionCallExprSyntax.self)?.calledExpression.trimmedDescription ?? ""
                    if ChainToAsync.isChain(outermost) || PromiseEvidence.promiseFunctions.contains(head) || ReplacedPromiseCalls.unwrapped(root) != nil {
                        return true
                    }
                }
                if current.is(FunctionDeclSyntax.self) || current.is(MemberBlockSyntax.self) { return false }
                node = current.parent
            }
            return false
        }

        private static func startsOnWrapper(_ call: FunctionCallExprSyntax) -> Bool {
            ReplacedPromiseCalls.unwrapped(chainRoot(of: call)) != nil
        }

        /// The first promise of the chain `call` is a link of: what its links are called on.
        private static func chainRoot(of call: FunctionCallExprSyntax) -> ExprSyntax {
            var current = ExprSyntax(call)
            while let link = current.as(FunctionCallExprSyntax.self), let member = link.calledExpression.as(MemberAccessExprSyntax.self),
                  let base = member.base, ChainToAsync.Kind(rawValue: member.declName.baseName.text) != nil {
                current = base
            }
            return current
        }

        /// Anything but a statement among others (or a function's only one): a closure's only
        /// statement is its answer.
        private static func isValue(_ call: FunctionCallExprSyntax) -> Bool {
            guard let item = call.parent?.as(CodeBlockItemSyntax.self) else { return true }
            guard let list = item.parent?.as(CodeBlockItemListSyntax.self), list.count == 1,
                  let closure = list.parent?.as(ClosureExprSyntax.self) else { return false }
            return WrappedValueChains.answersPromise(closure)
        }
    }
}
