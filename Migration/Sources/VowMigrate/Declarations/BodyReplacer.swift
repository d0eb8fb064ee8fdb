import SwiftSyntax

/// `--replace`: converts completion-handler functions themselves into the target form.
///
/// A function is converted when every path of its body ends in a call to its handler, and the
/// only callbacks it waits for belong to functions of the same file that have (or get, in this
/// run) an alternative in the target form. Nested callbacks become sequential `try await` code or
/// one flat `then` chain (values a later step reads threaded through tuples); error-forwarding
/// prologues (`guard let value else { completion(nil, error) }`, `switch result { case
/// .failure(let e): completion(.failure(e)) }`) become plain propagation.
/// A function still called with a handler by code that is not converted keeps its handler, so
/// the file keeps compiling. Everything else is left alone, with the reason.
struct BodyReplacer {
    struct Replacement {
        var lines: CodeLines
        var needsVow: Bool
        /// The file-scope declarations it uses in a file without Vow.
        var support: Set<SwiftOnlySupport> = []
    }

    private let target: MigrationTarget
    private let bytes: [UInt8]
    private var results: [String: Result<Replacement, SkipReason>] = [:]

    /// `runsOnCallersActor` says whether a function in an isolation context may be
    /// `nonisolated(nonsending)` once async (as an alternative would be: see ``ActorContext``).
    init(collector: DeclarationCollector, index: MigrationIndex, target: MigrationTarget, tree: SourceFileSyntax, bytes: [UInt8],
         runsOnCallersActor: (ActorContext) -> Bool = { _ in false }) {
        self.target = target
        self.bytes = bytes
        // The async form of a file without Vow throws its own error, as the alternatives do.
        let swiftOnly = target == .async && !collector.importsVow
        let converter = SourceLocationConverter(fileName: "", tree: tree)
        var candidates: [String: CompletionFunction] = [:]
        var withAlternative: Set<String> = []
        var duplicates: Set<String> = []
        var onCallersActor: Set<String> = []
        // Functions that may implement a requirement of a protocol declared outside the run.
        var conforming: [String: String] = [:]
        for site in collector.functions where site.protocolDecl == nil {
            let reader = CompletionFunctionReader(index: index, scope: site.scope)
            guard case .candidate(let function) = reader.read(site.decl, isProtocolRequirement: false) else { continue }
            let name = function.swiftName
            if candidates[name] != nil { duplicates.insert(name) }
            candidates[name] = function
            if let external = index.undeclaredConformance(scope: site.scope, blockInherited: Self.inheritedNames(around: site.decl)) {
                conforming[name] = MigrationIndex.undeclaredConformanceReason(external)
            }
            if runsOnCallersActor(site.actorContext) { onCallersActor.insert(name) }
            let alternative = AlternativeEmitter(function: function, target: target).alternativeSwiftName
            if index.declaredFunctions(named: alternative, in: site.scope).contains(where: { target == .promise ? $0.returnsVowType : $0.isAsync }) {
                withAlternative.insert(name)
            }
        }
        // Same-named functions in different types cannot be told apart without types.
        for name in duplicates { candidates[name] = nil }
        let table = CandidateTable(candidates)

        let callSites = CallSiteCollector.collect(in: tree, candidates: table, converter: converter)
        var converting = Set(candidates.keys).subtracting(withAlternative)
        // What a converted function may call: the ones converting and the ones with an
        // alternative (disjoint sets), kept as one set rather than joined for every function.
        var available = converting.union(withAlternative)
        // Shrink the optimistic set until every member converts and all its callers do too.
        var changed = true
        while changed {
            changed = false
            for name in converting.sorted() {
                guard let function = candidates[name] else { continue }
                var result = conforming[name].map { .failure(SkipReason($0)) }
                    ?? Self.convert(function, target: target, swiftOnly: swiftOnly, bytes: bytes, converter: converter,
                                    candidates: table, available: available, runsOnCallersActor: onCallersActor.contains(name))
                if case .success = result,
                   let caller = callSites[name, default: []].first(where: { !converting.contains($0.caller ?? "") }) {
                    result = .failure(SkipReason("it is still called with a completion handler at line \(caller.line) by code that is not converted"))
                }
                results[name] = result
                if case .failure = result {
                    converting.remove(name)
                    available.remove(name)
                    changed = true
                }
            }
        }
    }

    /// One function's conversion, in a function of its own so that nothing holds `available`
    /// once it returns (the caller then shrinks the set in place instead of copying it).
    private static func convert(_ function: CompletionFunction, target: MigrationTarget, swiftOnly: Bool, bytes: [UInt8],
                                converter: SourceLocationConverter, candidates: CandidateTable, available: Set<String>,
                                runsOnCallersActor: Bool) -> Result<Replacement, SkipReason> {
        var conversion = Conversion(function: function, target: target, swiftOnly: swiftOnly, bytes: bytes, converter: converter,
                                    candidates: candidates, available: available, runsOnCallersActor: runsOnCallersActor)
        return conversion.run()
    }

    /// What the type declaration or extension holding `decl` lists as inherited.
    private static func inheritedNames(around decl: FunctionDeclSyntax) -> [String] {
        var node = decl.parent
        while let current = node {
            if let group = current.asProtocol(DeclGroupSyntax.self) {
                return IndexCollector.inheritedNames(group.inheritanceClause)
            }
            node = current.parent
        }
        return []
    }

    func replacement(for function: CompletionFunction, emitter: AlternativeEmitter) -> Result<Replacement, SkipReason> {
        results[function.swiftName] ?? .failure(SkipReason("a function with the same name is declared more than once in this file; convert it by hand"))
    }
}

// MARK: - Call sites

/// Calls to the file's completion-handler functions, with the function each call sits in.
private final class CallSiteCollector: SyntaxVisitor {
    struct CallSite {
        var caller: String?
        var line: Int
    }

    private let candidates: CandidateTable
    private let converter: SourceLocationConverter
    private var enclosing: [String] = []
    private(set) var sites: [String: [CallSite]] = [:]

    private init(candidates: CandidateTable, converter: SourceLocationConverter) {
        self.candidates = candidates
        self.converter = converter
        super.init(viewMode: .sourceAccurate)
    }

    static func collect(in tree: SourceFileSyntax, candidates: CandidateTable, converter: SourceLocationConverter) -> [String: [CallSite]] {
        let collector = CallSiteCollector(candidates: candidates, converter: converter)
        collector.walk(tree)
        return collector.sites
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        let labels = CompletionFunction.labels(of: node.signature.parameterClause.parameters)
        enclosing.append(CompletionFunction.swiftName(node.name.text, labels: labels))
        return .visitChildren
    }

    override func visitPost(_ node: FunctionDeclSyntax) {
        enclosing.removeLast()
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let name = candidates.matching(node) {
            let line = node.startLocation(converter: converter).line
            sites[name, default: []].append(CallSite(caller: enclosing.last, line: line))
        }
        return .visitChildren
    }
}

/// Reads a call's callee and arguments, trailing closures included.
enum CallShape {
    struct Argument {
        var label: String?
        var expression: ExprSyntax
    }

    static func baseName(_ callee: ExprSyntax) -> String? {
        if let reference = callee.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        if let member = callee.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
        return nil
    }

    /// The call's arguments in order, trailing closures last and unlabeled.
    static func arguments(_ call: FunctionCallExprSyntax) -> (listed: [Argument], trailing: [ExprSyntax]) {
        let listed = call.arguments.map { Argument(label: $0.label?.text, expression: $0.expression) }
        var trailing: [ExprSyntax] = []
        if let closure = call.trailingClosure { trailing.append(ExprSyntax(closure)) }
        for extra in call.additionalTrailingClosures { trailing.append(ExprSyntax(extra.closure)) }
        return (listed, trailing)
    }

    /// The candidate this call invokes with a handler, matched on base name and labels.
}

/// The file's completion-handler functions `--replace` may convert, by Swift name and by base
/// name: a call finds the functions it may reach among those of its name only (one scan of
/// every function per call made a file of many functions quadratic).
private struct CandidateTable {
    private let functions: [String: CompletionFunction]
    /// Base name to the Swift names declared with it, sorted (the first that fits wins).
    private let namesByBase: [String: [String]]

    init(_ functions: [String: CompletionFunction]) {
        self.functions = functions
        var namesByBase: [String: [String]] = [:]
        for (name, function) in functions { namesByBase[function.name, default: []].append(name) }
        self.namesByBase = namesByBase.mapValues { $0.sorted() }
    }

    subscript(name: String) -> CompletionFunction? { functions[name] }

    /// The Swift name of the function `call` reaches, by its base name and argument labels.
    func matching(_ call: FunctionCallExprSyntax) -> String? {
        guard let base = CallShape.baseName(call.calledExpression), let names = namesByBase[base] else { return nil }
        let (listed, trailing) = CallShape.arguments(call)
        for name in names {
            guard let function = functions[name] else { continue }
            let labels = function.parameters.map(\.label)
            guard labels.count == listed.count + trailing.count else { continue }
            if zip(labels, listed).allSatisfy({ $0.0 == $0.1.label }) { return name }
        }
        return nil
    }
}

// MARK: - Converting one function

private struct Conversion {
    let function: CompletionFunction
    let target: MigrationTarget
    let swiftOnly: Bool
    let bytes: [UInt8]
    let converter: SourceLocationConverter
    let candidates: CandidateTable
    let available: Set<String>
    /// The converted function is `nonisolated(nonsending)` (async form), as its alternative would be.
    let runsOnCallersActor: Bool

    private var handlerNames: Set<String> {
        var names: Set<String> = [function.parameters[function.handlerIndex].name]
        if let failure = function.failureIndex { names.insert(function.parameters[failure].name) }
        return names
    }

    private var finalType: String {
        let emitter = AlternativeEmitter(function: function, target: .promise)
        return emitter.producesGuarantee ? "Guarantee<\(function.shape.valueType)>" : "Promise<\(function.shape.valueType)>"
    }

    init(function: CompletionFunction, target: MigrationTarget, swiftOnly: Bool, bytes: [UInt8], converter: SourceLocationConverter,
         candidates: CandidateTable, available: Set<String>, runsOnCallersActor: Bool) {
        self.function = function
        self.runsOnCallersActor = runsOnCallersActor
        self.target = target
        self.swiftOnly = swiftOnly
        self.bytes = bytes
        self.converter = converter
        self.candidates = candidates
        self.available = available
        var bound: Set<String> = []
        for token in function.decl.body.map({ Array($0.tokens(viewMode: .sourceAccurate)) }) ?? [] {
            guard case .identifier(let name) = token.tokenKind,
                  token.parent?.parent?.is(OptionalBindingConditionSyntax.self) == true else { continue }
            bound.insert(name)
        }
        self.unwrappedNames = bound
    }

    /// Names the body binds with `if let` / `guard let`: values known not to be nil.
    private let unwrappedNames: Set<String>

    /// Initializers that can fail, so their value may be nil.
    private static let failableInitializers: Set<String> = ["URL", "Int", "Int64", "Int32", "UInt", "Double", "Float", "Decimal",
                                                            "UUID", "Bool", "Character", "URLComponents", "UIImage", "NSImage"]

    /// Whether an expression handed to the handler as its value cannot be nil, from syntax: a
    /// literal, a name the body unwrapped, or a (non-failable) initializer call. Anything else
    /// could be an optional, which `return` could not pass as the non-optional result.
    private func evidentlyNonOptional(_ expression: ExprSyntax) -> Bool {
        if expression.is(StringLiteralExprSyntax.self) || expression.is(IntegerLiteralExprSyntax.self)
            || expression.is(FloatLiteralExprSyntax.self) || expression.is(BooleanLiteralExprSyntax.self)
            || expression.is(ArrayExprSyntax.self) || expression.is(DictionaryExprSyntax.self) {
            return true
        }
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            return unwrappedNames.contains(reference.baseName.text) || reference.baseName.text == "self"
        }
        if let call = expression.as(FunctionCallExprSyntax.self), let callee = call.calledExpression.as(DeclReferenceExprSyntax.self),
           let first = callee.baseName.text.first, first.isUppercase, !Self.failableInitializers.contains(callee.baseName.text) {
            return !(callee.baseName.text == "Data" && call.arguments.first?.label?.text == "base64Encoded")
        }
        return false
    }

    mutating func run() -> Result<BodyReplacer.Replacement, SkipReason> {
        do {
            return .success(try convert())
        } catch {
            return .failure(error)
        }
    }

    private func convert() throws(SkipReason) -> BodyReplacer.Replacement {
        guard let body = function.decl.body else { throw SkipReason("it has no body") }
        if function.cancellableHandle != nil {
            throw SkipReason("it returns a cancellable handle; --replace keeps such functions (use the default mode)")
        }
        if let returned = function.discardedReturn {
            throw SkipReason("it returns `\(returned)` besides calling its handler; --replace keeps such functions (use the default mode)")
        }
        if function.isThrowing { throw SkipReason("it also throws synchronously; --replace leaves such functions (use the default mode)") }
        if case .successFlag = function.shape { throw SkipReason("--replace does not convert (Bool, Error?) handlers yet (use the default mode)") }
        if case .tuple = function.shape { throw SkipReason("--replace does not convert multi-value handlers yet (use the default mode)") }
        if function.handlerIsOptional { throw SkipReason("its handler is optional; --replace keeps such functions (use the default mode)") }
        var emitter = AlternativeEmitter(function: function, target: target)
        emitter.runsOnCallersActor = runsOnCallersActor
        var lines = emitter.signature()
        var bodyLines = CodeLines()
        let terminates = try convertBlock(Array(body.statements), into: &bodyLines, level: 0)
        guard terminates else {
            throw SkipReason("some path through the body ends without calling `\(function.parameters[function.handlerIndex].name)`")
        }
        // A final bare `return` in a function returning nothing says nothing.
        if target == .async, let last = bodyLines.lines.last, last.level == 0, last.text == "return" {
            bodyLines.removeLast()
        }
        lines.add(bodyLines, indentedBy: 1)
        lines.add("}", 0)
        let namesVow = lines.lines.contains { $0.text.contains("PMKError") }
        let errorName = SwiftOnlySupport.neitherValueNorError.typeName
        let support: Set<SwiftOnlySupport> = lines.lines.contains { $0.text.contains(errorName + "(") } ? [.neitherValueNorError] : []
        return BodyReplacer.Replacement(lines: lines, needsVow: target == .promise || namesVow, support: swiftOnly ? support : [])
    }

    // MARK: Blocks

    /// Converts statements; returns whether every path through them ends the function.
    private func convertBlock(_ items: [CodeBlockItemSyntax], into lines: inout CodeLines, level: Int) throws(SkipReason) -> Bool {
        var index = 0
        while index < items.count {
            let item = items[index]
            addComments(of: item, to: &lines, level: level)
            let node = Syntax(item.item)
            let statementExpression = expression(of: item)

            if let call = statementExpression?.as(FunctionCallExprSyntax.self), let outcome = try handlerOutcome(call) {
                emit(outcome, into: &lines, level: level)
                var next = index + 1
                if next < items.count, let ret = items[next].item.as(ReturnStmtSyntax.self), ret.expression == nil { next += 1 }
                guard next == items.count else { throw skip("code follows the call to the handler", at: items[next]) }
                return true
            }
            if let ret = node.as(ReturnStmtSyntax.self) {
                throw skip(ret.expression == nil ? "it returns without calling the handler" : "it returns a value", at: ret)
            }
            if let call = statementExpression?.as(FunctionCallExprSyntax.self), let calleeName = candidates.matching(call) {
                guard index == items.count - 1 else { throw skip("code follows the call to `\(calleeName)` and would run before its handler", at: items[index + 1]) }
                return try convertKnownCall(call, calleeName: calleeName, into: &lines, level: level)
            }
            if let ifExpression = statementExpression?.as(IfExprSyntax.self), mentionsHandler(ifExpression) {
                let terminates = try convertIf(ifExpression, into: &lines, level: level)
                if terminates {
                    guard index == items.count - 1 else { throw skip("code after an `if` whose every branch finishes", at: items[index + 1]) }
                    return true
                }
                index += 1
                continue
            }
            if let guardStatement = node.as(GuardStmtSyntax.self), mentionsHandler(guardStatement) {
                lines.add("guard \(guardStatement.conditions.trimmedDescription) else {", level)
                let terminates = try convertBlock(Array(guardStatement.body.statements), into: &lines, level: level + 1)
                guard terminates else { throw skip("the `else` of this guard does not finish", at: guardStatement) }
                lines.add("}", level)
                index += 1
                continue
            }
            if let switchExpression = statementExpression?.as(SwitchExprSyntax.self), mentionsHandler(switchExpression) {
                let terminates = try convertSwitch(switchExpression, into: &lines, level: level)
                if terminates {
                    guard index == items.count - 1 else { throw skip("code after a `switch` whose every case finishes", at: items[index + 1]) }
                    return true
                }
                index += 1
                continue
            }
            if mentionsHandler(item) {
                throw skip(reasonForHandlerUse(in: item), at: item)
            }
            addVerbatim(item, to: &lines, level: level)
            index += 1
        }
        return false
    }

    private func convertIf(_ node: IfExprSyntax, into lines: inout CodeLines, level: Int) throws(SkipReason) -> Bool {
        lines.add("if \(node.conditions.trimmedDescription) {", level)
        var terminates = try convertBlock(Array(node.body.statements), into: &lines, level: level + 1)
        switch node.elseBody {
        case .none:
            lines.add("}", level)
            return false
        case .codeBlock(let block):
            lines.add("} else {", level)
            terminates = try convertBlock(Array(block.statements), into: &lines, level: level + 1) && terminates
            lines.add("}", level)
        case .ifExpr(let elseIf):
            var nested = CodeLines()
            let nestedTerminates = try convertIf(elseIf, into: &nested, level: level)
            var first = true
            for line in nested.lines {
                if first {
                    lines.add("} else " + line.text, line.level)
                    first = false
                } else {
                    lines.add(line.text, line.level)
                }
            }
            terminates = terminates && nestedTerminates
        }
        return terminates
    }

    private func convertSwitch(_ node: SwitchExprSyntax, into lines: inout CodeLines, level: Int) throws(SkipReason) -> Bool {
        lines.add("switch \(node.subject.trimmedDescription) {", level)
        var terminates = true
        for element in node.cases {
            guard let switchCase = element.as(SwitchCaseSyntax.self) else { throw skip("`#if` inside a switch", at: element) }
            lines.add(switchCase.label.trimmedDescription, level)
            terminates = try convertBlock(Array(switchCase.statements), into: &lines, level: level + 1) && terminates
        }
        lines.add("}", level)
        return terminates
    }

    // MARK: Calls to other converted functions

    /// A call of a converted function with its handler written as a closure, read as one step.
    private struct KnownCall {
        var call: FunctionCallExprSyntax
        var callee: CompletionFunction
        var calleeName: String
        /// `self.avatar(for: account)`: the alternative's call.
        var invocation: String
        /// The name the handler gives the value on success (nil: none, or the value is `Void`).
        var bound: String?
        /// What the handler does on success, its error-forwarding prologue dropped.
        var rest: [CodeBlockItemSyntax]
        var producesGuarantee: Bool
    }

    private func convertKnownCall(_ call: FunctionCallExprSyntax, calleeName: String, into lines: inout CodeLines, level: Int) throws(SkipReason) -> Bool {
        guard available.contains(calleeName), let callee = candidates[calleeName] else {
            throw skip("it calls `\(calleeName)`, which has no \(target == .promise ? "promise" : "async") alternative yet", at: call)
        }
        let (kept, handlerArgument, failureArgument) = try splitArguments(call, callee: callee)
        let calleeText = call.calledExpression.trimmedDescription
        let calleeEmitter = AlternativeEmitter(function: callee, target: target)
        let tryAwait = callee.shape.canFail ? "try await" : "await"

        // `load(id: id, completion: completion)`: the result passes straight through.
        if let reference = handlerArgument.as(DeclReferenceExprSyntax.self), handlerNames.contains(reference.baseName.text) {
            guard callee.shape.valueType == function.shape.valueType, failureArgument == nil else {
                throw skip("it passes its handler to `\(calleeName)`, whose handler has another shape", at: call)
            }
            lines.add(target == .async ? "return \(tryAwait) \(calleeText)(\(kept.joined(separator: ", ")))" : "return \(calleeText)(\(kept.joined(separator: ", ")))", level)
            if target == .promise && calleeEmitter.producesGuarantee != AlternativeEmitter(function: function, target: .promise).producesGuarantee {
                throw skip("it passes its handler to `\(calleeName)`, which cannot fail while this function can", at: call)
            }
            return true
        }
        let step = try readKnownCall(call, calleeName: calleeName, callee: callee, scope: [])

        switch target {
        case .async:
            if let bound = step.bound {
                lines.add(bound == "_" ? "_ = \(tryAwait) \(step.invocation)" : "let \(bound) = \(tryAwait) \(step.invocation)", level)
            } else {
                lines.add("\(tryAwait) \(step.invocation)", level)
            }
            return try convertBlock(step.rest, into: &lines, level: level)
        case .promise:
            return try writeChain(from: step, into: &lines, level: level)
        }
    }

    /// The arguments the alternative keeps, and the handler (and failure handler) passed.
    private func splitArguments(_ call: FunctionCallExprSyntax, callee: CompletionFunction) throws(SkipReason) -> (kept: [String], handler: ExprSyntax, failure: ExprSyntax?) {
        let (listed, trailing) = CallShape.arguments(call)
        let all = listed.map(\.expression) + trailing
        var kept: [String] = []
        var handlerArgument: ExprSyntax?
        var failureArgument: ExprSyntax?
        for (position, parameter) in callee.parameters.enumerated() {
            if position == callee.handlerIndex { handlerArgument = all[position]; continue }
            if position == callee.failureIndex { failureArgument = all[position]; continue }
            let value = all[position].trimmedDescription
            kept.append(parameter.label.map { "\($0): \(value)" } ?? value)
        }
        guard let handlerArgument else { throw skip("could not find the handler argument", at: call) }
        return (kept, handlerArgument, failureArgument)
    }

    /// Reads a call whose handler is a closure. `scope`: the names the code around the call binds,
    /// which would hide a method of the same name called without `self.`.
    private func readKnownCall(_ call: FunctionCallExprSyntax, calleeName: String, callee: CompletionFunction, scope: Set<String>) throws(SkipReason) -> KnownCall {
        let (kept, handlerArgument, failureArgument) = try splitArguments(call, callee: callee)
        guard let closure = handlerArgument.as(ClosureExprSyntax.self) else {
            throw skip("it passes `\(handlerArgument.trimmedDescription)` as the handler of `\(calleeName)`", at: call)
        }
        let parameters = closureParameterNames(closure)
        guard parameters.count == callee.shape.closureParameters.count else {
            throw skip("the handler passed to `\(calleeName)` names its parameters implicitly (`$0`)", at: closure)
        }
        let (bound, rest) = try successPath(of: closure, parameters: parameters, callee: callee, failureArgument: failureArgument)

        var calleeText = call.calledExpression.trimmedDescription
        if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self),
           reference.baseName.text == bound || scope.contains(reference.baseName.text) {
            // `let account = try await account(id:)` would refer to the new local; name the method.
            guard function.decl.modifiers.contains(where: { $0.name.text == "static" || $0.name.text == "class" }) == false,
                  function.decl.parent?.parent?.parent?.is(SourceFileSyntax.self) == false else {
                throw skip("the value of `\(calleeName)` is bound to a name that hides the function", at: call)
            }
            calleeText = "self." + calleeText
        }
        return KnownCall(call: call, callee: callee, calleeName: calleeName, invocation: "\(calleeText)(\(kept.joined(separator: ", ")))",
                         bound: bound, rest: rest, producesGuarantee: AlternativeEmitter(function: callee, target: target).producesGuarantee)
    }

    /// The next step of a chain: `rest` ends with a call of another converted function taking a
    /// closure, and what comes before it runs plainly (no handler call, no `return`, no other
    /// callback). Anything else ends the chain, and its last handler holds the rest as written.
    private func nextStep(after step: KnownCall, scope: Set<String>) throws(SkipReason) -> (prelude: [CodeBlockItemSyntax], step: KnownCall)? {
        guard let last = step.rest.last, let call = expression(of: last)?.as(FunctionCallExprSyntax.self),
              try handlerOutcome(call) == nil,
              let calleeName = candidates.matching(call),
              available.contains(calleeName), let callee = candidates[calleeName] else { return nil }
        let prelude = Array(step.rest.dropLast())
        for item in prelude {
            if try earlyFailure(item) != nil { continue }
            if mentionsHandler(item) || item.item.is(ReturnStmtSyntax.self) { return nil }
            if let inner = expression(of: item)?.as(FunctionCallExprSyntax.self), candidates.matching(inner) != nil { return nil }
        }
        let (_, handlerArgument, _) = try splitArguments(call, callee: callee)
        guard handlerArgument.is(ClosureExprSyntax.self) else { return nil }
        return (prelude, try readKnownCall(call, calleeName: calleeName, callee: callee, scope: scope))
    }

    /// `guard condition else { completion(.failure(e)); return }` or `if condition {
    /// completion(nil, e); return }` between two calls: the opening line and the error.
    private func earlyFailure(_ item: CodeBlockItemSyntax) throws(SkipReason) -> (opening: String, error: String)? {
        func failure(_ statements: CodeBlockItemListSyntax) throws(SkipReason) -> String? {
            var items = Array(statements)
            guard let last = items.last, let ret = last.item.as(ReturnStmtSyntax.self), ret.expression == nil else { return nil }
            items.removeLast()
            guard items.count == 1, let call = expression(of: items[0])?.as(FunctionCallExprSyntax.self),
                  case .failure(let error)? = try handlerOutcome(call) else { return nil }
            return error
        }
        if let guardStatement = item.item.as(GuardStmtSyntax.self), let error = try failure(guardStatement.body.statements) {
            return ("guard \(guardStatement.conditions.trimmedDescription) else {", error)
        }
        if let ifExpression = expression(of: item)?.as(IfExprSyntax.self), ifExpression.elseBody == nil,
           let error = try failure(ifExpression.body.statements) {
            return ("if \(ifExpression.conditions.trimmedDescription) {", error)
        }
        return nil
    }

    /// Writes nested callbacks as one flat chain:
    /// `return a(x).then(on: nil) { v in b(v) }.map(on: nil) { w in Result(w) }`. Handlers run with
    /// `on: nil`, where the callee settles its promise, which is where its callback ran; values a
    /// later step reads are threaded through (``ValueThreading``).
    private func writeChain(from first: KnownCall, into lines: inout CodeLines, level: Int) throws(SkipReason) -> Bool {
        var steps = [first]
        var preludes: [[CodeBlockItemSyntax]] = []
        var scope: Set<String> = Set([first.bound].compactMap { $0 })
        while let (prelude, next) = try nextStep(after: steps[steps.count - 1], scope: scope) {
            preludes.append(prelude)
            steps.append(next)
            scope.formUnion(ValueThreading.declarations(in: prelude).map(\.name))
            if let bound = next.bound { scope.insert(bound) }
        }
        let functionGuarantee = AlternativeEmitter(function: function, target: .promise).producesGuarantee
        if functionGuarantee, let failing = steps.first(where: { !$0.producesGuarantee }) {
            throw skip("it calls `\(failing.calleeName)`, which can fail, while this function cannot", at: failing.call)
        }
        let chainGuarantee = steps.allSatisfy(\.producesGuarantee)
        let last = steps[steps.count - 1]
        let finalValue = chainGuarantee == functionGuarantee ? try finalValue(of: last.rest) : nil

        // What each handler reads: its code, and the arguments of the call it makes.
        var handlers: [ValueThreading.Handler] = []
        for (index, step) in steps.enumerated() {
            if index + 1 < steps.count {
                let next = steps[index + 1].call
                let arguments = next.arguments.enumerated().filter { $0.offset != steps[index + 1].callee.handlerIndex }.map { Syntax($0.element) }
                let declarations = ValueThreading.declarations(in: preludes[index])
                handlers.append(ValueThreading.Handler(
                    valueName: step.bound, declared: declarations.map(\.name), variables: Set(declarations.filter(\.isVariable).map(\.name)),
                    reads: ValueThreading.reads(in: preludes[index].map(Syntax.init) + arguments + [Syntax(next.calledExpression)])))
            } else {
                handlers.append(ValueThreading.Handler(valueName: step.bound, declared: [], reads: ValueThreading.reads(in: step.rest.map(Syntax.init))))
            }
        }
        let threading = ValueThreading(handlers)
        if let name = threading.carriedVariables.first {
            throw skip("a later callback reads `var \(name)`, which a chain would hand on as a copy", at: first.call)
        }

        var head = "return \(first.invocation)"
        for index in 0..<(steps.count - 1) {
            lines.add("\(head).then(on: nil) { \(threading.parameters(of: index, valueName: steps[index].bound)) in", level)
            for item in preludes[index] {
                if let (opening, error) = try earlyFailure(item) {
                    // Inside a chain handler, a failure is a throw: it rejects the chain.
                    lines.add(opening, level + 1)
                    lines.add("throw \(error)", level + 2)
                    lines.add("}", level + 1)
                } else {
                    addVerbatim(item, to: &lines, level: level + 1)
                }
            }
            lines.add("return \(steps[index + 1].invocation)\(threading.mapping(into: index + 1))", level + 1)
            head = "}"
        }
        let parameters = threading.parameters(of: steps.count - 1, valueName: last.bound)
        if let finalValue {
            if finalValue == parameters {
                // The last call's value is the result.
                lines.add(head == "}" ? "}" : head, level)
            } else {
                lines.add("\(head).map(on: nil) { \(parameters) in", level)
                lines.add(finalValue, level + 1)
                lines.add("}", level)
            }
            return true
        }
        lines.add("\(head).then(on: nil) { \(parameters) -> \(finalType) in", level)
        let terminates = try convertBlock(last.rest, into: &lines, level: level + 1)
        lines.add("}", level)
        return terminates
    }

    /// The value a handler closure binds on success and the statements that follow, once its
    /// error-forwarding prologue is recognised and dropped.
    private func successPath(of closure: ClosureExprSyntax, parameters: [String], callee: CompletionFunction,
                             failureArgument: ExprSyntax?) throws(SkipReason) -> (bound: String?, rest: [CodeBlockItemSyntax]) {
        let statements = Array(closure.statements)
        switch callee.shape {
        case .value:
            return (parameters[0], statements)
        case .nothing:
            return (nil, statements)
        case .split(let value):
            guard let failureClosure = failureArgument?.as(ClosureExprSyntax.self),
                  let errorName = closureParameterNames(failureClosure).first,
                  try forwardsFailure(Array(failureClosure.statements), errorName: errorName) else {
                throw skip("the failure handler passed to `\(callee.swiftName)` does more than forward the error", at: closure)
            }
            return (value == nil ? nil : parameters[0], statements)
        case .result:
            guard statements.count == 1,
                  let switchExpression = expression(of: statements[0])?.as(SwitchExprSyntax.self),
                  switchExpression.subject.trimmedDescription == parameters[0] else {
                throw skip("the handler of `\(callee.swiftName)` does not `switch` on its result", at: closure)
            }
            var success: (String, [CodeBlockItemSyntax])?
            var forwards = false
            for element in switchExpression.cases {
                guard let switchCase = element.as(SwitchCaseSyntax.self) else { continue }
                let label = switchCase.label.trimmedDescription.filter { $0 != " " }
                if let name = Self.binding(in: label, case: "success") {
                    success = (name, Array(switchCase.statements))
                } else if let name = Self.binding(in: label, case: "failure") {
                    forwards = try forwardsFailure(Array(switchCase.statements), errorName: name)
                }
            }
            guard let success, forwards else {
                throw skip("the handler of `\(callee.swiftName)` does more than forward the failure", at: closure)
            }
            return (callee.shape.valueType == "Void" ? nil : success.0, success.1)
        case .optionalValueAndError, .errorAndOptionalValue, .valueAndError, .errorOnly:
            let names = callee.shape.closureParameters
            let valueName = names.firstIndex(of: "value").map { parameters[$0] }
            let errorName = parameters[names.firstIndex(of: "error")!]
            var rest = statements[...]
            // `if let error { completion(..., error); return }`
            if let first = rest.first, let ifExpression = expression(of: first)?.as(IfExprSyntax.self),
               ifExpression.elseBody == nil,
               ifExpression.conditions.trimmedDescription.hasPrefix("let \(errorName)"),
               try forwardsFailure(Array(ifExpression.body.statements), errorName: errorName) {
                rest = rest.dropFirst()
            } else if case .errorOnly = callee.shape {
                throw skip("the handler of `\(callee.swiftName)` does not start with `if let \(errorName) { ... return }`", at: closure)
            } else if case .valueAndError = callee.shape {
                throw skip("the handler of `\(callee.swiftName)` does not start with `if let \(errorName) { ... return }`", at: closure)
            }
            guard let valueName else { return (nil, Array(rest)) }
            if case .valueAndError = callee.shape { return (valueName, Array(rest)) }
            // `guard let value else { completion(nil, error); return }`
            guard let first = rest.first, let guardStatement = first.item.as(GuardStmtSyntax.self),
                  guardStatement.conditions.count == 1,
                  Self.unwraps(guardStatement.conditions.first!, valueName),
                  try forwardsFailure(Array(guardStatement.body.statements), errorName: errorName) else {
                throw skip("the handler of `\(callee.swiftName)` does not start with `guard let \(valueName) else { ... }`", at: closure)
            }
            return (valueName, Array(rest.dropFirst()))
        case .successFlag:
            throw skip("`\(callee.swiftName)` reports a success flag; --replace does not follow those yet", at: closure)
        case .tuple:
            throw skip("`\(callee.swiftName)` passes several values; --replace does not follow those yet", at: closure)
        }
    }

    /// The value statements hand to the handler when that is all they do.
    private func finalValue(of statements: [CodeBlockItemSyntax]) throws(SkipReason) -> String? {
        var items = statements
        if let last = items.last, let ret = last.item.as(ReturnStmtSyntax.self), ret.expression == nil { items.removeLast() }
        guard items.count == 1,
              let call = expression(of: items[0])?.as(FunctionCallExprSyntax.self),
              let outcome = try handlerOutcome(call),
              case .success(let value) = outcome else { return nil }
        return value ?? "()"
    }

    /// Whether statements only hand `errorName` (possibly with a fallback) to the handler.
    private func forwardsFailure(_ statements: [CodeBlockItemSyntax], errorName: String) throws(SkipReason) -> Bool {
        var items = statements
        if let last = items.last, let ret = last.item.as(ReturnStmtSyntax.self), ret.expression == nil { items.removeLast() }
        guard items.count == 1,
              let call = expression(of: items[0])?.as(FunctionCallExprSyntax.self),
              let outcome = try handlerOutcome(call, allowOptionalError: true),
              case .failure(let error) = outcome else { return false }
        return identifiers(in: error).contains(errorName)
    }

    private static func binding(in label: String, case name: String) -> String? {
        for pattern in ["case.\(name)(let", "caselet.\(name)(", "case.\(name)(var"] where label.hasPrefix(pattern) {
            let rest = label.dropFirst(pattern.count)
            guard let close = rest.firstIndex(of: ")") else { return nil }
            return String(rest[..<close])
        }
        return nil
    }

    private static func unwraps(_ condition: ConditionElementSyntax, _ name: String) -> Bool {
        guard let binding = condition.condition.as(OptionalBindingConditionSyntax.self),
              binding.pattern.trimmedDescription == name else { return false }
        return binding.initializer == nil || binding.initializer?.value.trimmedDescription == name
    }

    private func closureParameterNames(_ closure: ClosureExprSyntax) -> [String] {
        guard let signature = closure.signature else { return [] }
        switch signature.parameterClause {
        case .simpleInput(let shorthand):
            return shorthand.map(\.name.text)
        case .parameterClause(let clause):
            return clause.parameters.map { ($0.secondName ?? $0.firstName).text }
        case .none:
            return []
        }
    }

    // MARK: Handler calls

    private enum Outcome {
        case success(String?)
        case failure(String)
    }

    /// What the converted function throws where the handler was given neither a value nor an error.
    private var missingAnswerError: String {
        swiftOnly ? SwiftOnlySupport.neitherValueNorError(from: function.swiftName) : "PMKError.invalidCallingConvention"
    }

    /// What a call to this function's handler reports, or nil when the call is something else.
    private func handlerOutcome(_ call: FunctionCallExprSyntax, allowOptionalError: Bool = false) throws(SkipReason) -> Outcome? {
        var callee = call.calledExpression
        if let optional = callee.as(OptionalChainingExprSyntax.self) { callee = optional.expression }
        guard let reference = callee.as(DeclReferenceExprSyntax.self), handlerNames.contains(reference.baseName.text) else { return nil }
        let arguments = call.arguments.map(\.expression)
        let isNil: (ExprSyntax) -> Bool = { $0.is(NilLiteralExprSyntax.self) }
        func failure(_ expression: ExprSyntax) throws(SkipReason) -> Outcome {
            let text = expression.trimmedDescription
            let lowercasedIdentifier = text.first.map { $0.isLowercase } == true && !text.contains("(") && !text.contains("??")
            if lowercasedIdentifier && !allowOptionalError {
                throw skip("it passes `\(text)` to the handler, which may be nil", at: call)
            }
            return .failure(text)
        }
        // Nil for both is the broken calling convention the alternatives reject; a value that may
        // be nil cannot be returned as the non-optional result.
        func optionalSuccess(_ value: ExprSyntax) throws(SkipReason) -> Outcome {
            if isNil(value) { return .failure(missingAnswerError) }
            guard evidentlyNonOptional(value) else {
                throw skip("it passes `\(value.trimmedDescription)` to the handler as its value, which may be nil; unwrap it first (`guard let`)", at: call)
            }
            return .success(value.trimmedDescription)
        }
        if let failureIndex = function.failureIndex, reference.baseName.text == function.parameters[failureIndex].name {
            guard let error = arguments.first else { return nil }
            return .failure(error.trimmedDescription)
        }
        switch function.shape {
        case .optionalValueAndError:
            guard arguments.count == 2 else { return nil }
            if isNil(arguments[1]) { return try optionalSuccess(arguments[0]) }
            if isNil(arguments[0]) { return try failure(arguments[1]) }
            throw skip("it passes both a value and an error to the handler", at: call)
        case .valueAndError:
            guard arguments.count == 2 else { return nil }
            return isNil(arguments[1]) ? .success(arguments[0].trimmedDescription) : try failure(arguments[1])
        case .errorAndOptionalValue:
            guard arguments.count == 2 else { return nil }
            if isNil(arguments[0]) { return try optionalSuccess(arguments[1]) }
            return try failure(arguments[0])
        case .errorOnly:
            guard arguments.count == 1 else { return nil }
            return isNil(arguments[0]) ? .success(nil) : try failure(arguments[0])
        case .value:
            return .success(arguments.first?.trimmedDescription)
        case .nothing, .split:
            return .success(arguments.first?.trimmedDescription)
        case .result:
            guard arguments.count == 1, let construction = arguments[0].as(FunctionCallExprSyntax.self),
                  let member = construction.calledExpression.as(MemberAccessExprSyntax.self) else {
                throw skip("it passes a `Result` it did not build to the handler", at: call)
            }
            let payload = construction.arguments.first?.expression
            switch member.declName.baseName.text {
            case "success":
                let text = payload?.trimmedDescription
                return .success(text == "()" ? nil : text)
            case "failure":
                guard let payload else { return nil }
                return .failure(payload.trimmedDescription)
            default:
                return nil
            }
        case .successFlag, .tuple:
            return nil
        }
    }

    private func emit(_ outcome: Outcome, into lines: inout CodeLines, level: Int) {
        let isVoid = function.shape.valueType == "Void"
        switch (target, outcome) {
        case (.async, .success(let value)):
            lines.add(isVoid || value == nil ? "return" : "return \(value!)", level)
        case (.async, .failure(let error)):
            lines.add("throw \(error)", level)
        case (.promise, .success(let value)):
            lines.add(isVoid || value == nil ? "return .value(())" : "return .value(\(value!))", level)
        case (.promise, .failure(let error)):
            lines.add("return \(finalType)(error: \(error))", level)
        }
    }

    // MARK: Text

    /// The expression a statement consists of, if it is one.
    private func expression(of item: CodeBlockItemSyntax) -> ExprSyntax? {
        item.item.as(ExpressionStmtSyntax.self)?.expression ?? item.item.as(ExprSyntax.self)
    }

    private func mentionsHandler(_ node: some SyntaxProtocol) -> Bool {
        node.tokens(viewMode: .sourceAccurate).contains { token in
            if case .identifier(let name) = token.tokenKind { return handlerNames.contains(name) }
            return false
        }
    }

    private func reasonForHandlerUse(in item: CodeBlockItemSyntax) -> String {
        // The innermost call whose closure uses the handler names the API without an alternative.
        var culprit: String?
        for node in item.tokens(viewMode: .sourceAccurate) {
            guard case .identifier(let name) = node.tokenKind, handlerNames.contains(name) else { continue }
            var parent = node.parent
            while let current = parent {
                if let closure = current.as(ClosureExprSyntax.self),
                   let call = closure.parent?.as(FunctionCallExprSyntax.self) ?? closure.parent?.parent?.parent?.as(FunctionCallExprSyntax.self) {
                    // On one line: `runFunctionCommand()\n    .executeAsync` is a chain over lines.
                    culprit = call.calledExpression.tokens(viewMode: .sourceAccurate).map(\.text).joined()
                    break
                }
                parent = current.parent
            }
            if culprit != nil { break }
        }
        if let culprit {
            return "it calls the handler from a closure passed to `\(culprit)`, which has no \(target == .promise ? "promise" : "async") alternative"
        }
        // Say which statement: `do { try check() } catch { completion(.failure(error)); return }`.
        let statements = ["do": "a `do`/`catch` statement", "for": "a `for` loop", "while": "a `while` loop",
                          "repeat": "a `repeat` loop", "defer": "a `defer` block", "let": "a declaration", "var": "a declaration"]
        if let first = item.firstToken(viewMode: .sourceAccurate)?.text, let statement = statements[first] {
            return "it uses the handler inside \(statement), which --replace does not rewrite; convert this function by hand, "
                + "or add an alternative beside it (without --replace)"
        }
        return "it uses the handler in a way --replace cannot follow"
    }

    private func skip(_ reason: String, at node: some SyntaxProtocol) -> SkipReason {
        SkipReason("\(reason) (line \(node.startLocation(converter: converter).line))")
    }

    /// A statement as written, re-indented to its new level.
    private func addVerbatim(_ item: CodeBlockItemSyntax, to lines: inout CodeLines, level: Int) {
        let originalIndent = Indentation.lineIndent(in: bytes, at: item.positionAfterSkippingLeadingTrivia.utf8Offset)
        for (position, line) in item.trimmedDescription.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var text = String(line)
            if position > 0 {
                if text.hasPrefix(originalIndent) {
                    text.removeFirst(originalIndent.count)
                    lines.add(text, level)
                } else {
                    lines.add(text.trimmingLeadingWhitespace(), level)
                }
            } else {
                lines.add(text, level)
            }
        }
    }

    private func addComments(of item: CodeBlockItemSyntax, to lines: inout CodeLines, level: Int) {
        for piece in item.leadingTrivia {
            switch piece {
            case .lineComment(let text), .docLineComment(let text):
                lines.add(text, level)
            default:
                continue
            }
        }
    }
}

private extension String {
    func trimmingLeadingWhitespace() -> String {
        String(drop { $0 == " " || $0 == "\t" })
    }
}
