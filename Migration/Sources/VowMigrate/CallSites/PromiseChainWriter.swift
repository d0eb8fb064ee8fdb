import SwiftSyntax

/// Writes a ``Pyramid`` as one flat chain:
/// `firstly { a() }.then(on: nil) { x in b(x) }.done(on: nil) { y in ... }.catch(on: nil, policy: .allErrors) { error in ... }`.
/// Values a later step reads from an earlier callback are threaded through (``ValueThreading``).
///
/// Every handler runs with `on: nil`, synchronously on the thread that settles the promise,
/// which is the thread the callee called its handler on: exactly where the callback ran. A
/// `DispatchQueue.main.async { }` that was a callback's whole body becomes `on: .mainActor`.
/// `policy: .allErrors`, because the callback also saw cancellation errors. Failure branches
/// must do the same thing (and read no earlier value) to share the one `catch`; otherwise, and
/// for a Bool flag's `false` branch, each gets a case of a small local error type (carrying the
/// earlier values it reads), and the `catch` runs that branch's code.
struct PromiseChainWriter {
    let pyramid: Pyramid
    let bytes: [UInt8]
    /// `ReloadFailure`: the local error type for Bool flags.
    let failureTypeName: String
    /// Local types cannot be declared in generic functions or methods of generic types.
    let inGenericContext: Bool

    func write() throws(Refusal) -> CodeLines {
        let levels = pyramid.levels
        let (threading, payloads) = try threadValues()

        // MARK: Failures
        let errorLevels = levels.filter { $0.failure != nil && $0.flagName == nil }
        let flagLevels = levels.filter { $0.flagName != nil }
        let errorTexts = Set(errorLevels.map { StatementText.normalized($0.failure!.statements, errorName: $0.failure!.errorName) })
        // Error branches that differ each get a case of the local error type: the callee's error
        // is wrapped where it arises, and the `catch` runs the branch of the step that failed.
        // A branch reading a value of an earlier step gets its own case too, carrying that value.
        let tagged = errorTexts.count > 1
            || levels.indices.contains { levels[$0].flagName == nil && !(payloads[$0]?.isEmpty ?? true) }
        var caseNames: [Int: String] = [:]
        var used: [String] = []
        for (index, level) in levels.enumerated() where level.flagName != nil || (tagged && level.failure != nil) {
            let base = level.callee.baseName.filter { $0 != "`" }
            var name = base
            var suffix = 2
            while used.contains(name) { name = base + "\(suffix)"; suffix += 1 }
            caseNames[index] = name
            used.append(name)
        }
        if !caseNames.isEmpty && inGenericContext {
            throw Refusal("telling the failures apart needs a local error type, which a generic context cannot declare", at: levels[0].call)
        }
        let isTagged = { (index: Int) in tagged && levels[index].flagName == nil && levels[index].failure != nil }
        let invocation = { (index: Int, text: StatementText) -> String in
            var plain = text.invocation(levels[index])
            if let type = levels[index].annotatedValueType {
                // The handler's annotation is what typed a generic callee's value.
                plain = "(\(plain) as \(levels[index].callee.producesGuarantee ? "Guarantee" : "Promise")<\(type)>)"
            }
            guard isTagged(index), let name = caseNames[index] else { return plain + threading.mapping(into: index) }
            let arguments = (["error"] + (payloads[index] ?? []).map(\.name)).joined(separator: ", ")
            return plain + ".recover(on: nil, policy: .allErrors) { error -> Promise<\(levels[index].valueType)> in throw \(failureTypeName).\(name)(\(arguments)) }"
                + threading.mapping(into: index)
        }

        var lines = CodeLines()
        if !caseNames.isEmpty {
            let cases = caseNames.keys.sorted().map { index -> String in
                let types = (isTagged(index) ? ["any Error"] : []) + (payloads[index] ?? []).map(\.type)
                return caseNames[index]! + (types.isEmpty ? "" : "(\(types.joined(separator: ", ")))")
            }
            lines.add("enum \(failureTypeName): Error { case \(cases.joined(separator: ", ")) }", 0)
        }
        let text = StatementText(bytes: bytes)

        // MARK: Steps
        let first = levels[0]
        if levels.count == 1 {
            lines.add(invocation(0, text) + finalHandlerOpening(first, parameters: threading.parameters(of: 0, valueName: first.valueName)), 0)
        } else {
            lines.add("firstly {", 0)
            lines.add(invocation(0, text), 1)
            for index in 0..<(levels.count - 1) {
                let level = levels[index]
                var body: [String] = []
                if let flag = level.flagName {
                    let carried = (payloads[index] ?? []).map(\.name)
                    body.append("guard \(flag) else { throw \(failureTypeName).\(caseNames[index]!)\(carried.isEmpty ? "" : "(\(carried.joined(separator: ", ")))") }")
                }
                body += textFor(index).lines(level.success)
                body.append("return " + invocation(index + 1, textFor(index)))
                let mentionsSelf = StatementText.mentionsSelf(level.success) || levels[index + 1].invocation.contains("self")
                lines.add("}.then(on: nil) { \(capture(mentionsSelf))\(threading.parameters(of: index, valueName: level.valueName)) in", 0)
                for line in body { lines.add(line, 1) }
            }
            let last = levels[levels.count - 1]
            lines.add("}" + finalHandlerOpening(last, parameters: threading.parameters(of: levels.count - 1, valueName: last.valueName)), 0)
        }
        let last = levels[levels.count - 1]
        if last.guardsSelf { lines.add(Self.selfGuard(using: StatementText.mentionsSelf(last.successOnMain ?? last.success)), 1) }
        for line in textFor(levels.count - 1).lines(last.successOnMain ?? last.success) { lines.add(line, 1) }

        // MARK: Catch
        guard !errorLevels.isEmpty || !flagLevels.isEmpty else {
            lines.add("}", 0)
            return lines
        }
        var branches: [(pattern: String?, statements: [CodeBlockItemSyntax], errorName: String?)] = []
        for (index, level) in levels.enumerated() {
            guard let name = caseNames[index], let failure = level.failure else { continue }
            let bound = (payloads[index] ?? []).map { "let \($0.name)" }
            if level.flagName != nil {
                branches.append(("\(failureTypeName).\(name)" + (bound.isEmpty ? "" : "(\(bound.joined(separator: ", ")))"), failure.statements, nil))
            } else {
                let all = ["let \(failure.errorName ?? "_")"] + bound
                branches.append(("\(failureTypeName).\(name)(\(all.joined(separator: ", ")))", failure.statements, nil))
            }
        }
        if !tagged, let errorLevel = errorLevels.first {
            branches.append((nil, errorLevel.failure!.statements, errorLevel.failure!.errorName))
        }
        let distinct = Set(branches.map { StatementText.normalized($0.statements, errorName: $0.errorName) })
        let hops = branches.map { $0.statements.count == 1 ? PyramidReader.mainQueueHop($0.statements[0]) : nil }
        let onMain = hops.allSatisfy { $0 != nil }
        // The `catch` takes the pyramid's capture list, not a hop's.
        if onMain, pyramid.selfCapture == nil, let list = hops.lazy.compactMap({ $0?.signature?.capture }).first {
            throw Refusal("`\(list.trimmedDescription)` on a hop to the main queue only", at: list)
        }
        let bodies: [[CodeBlockItemSyntax]] = onMain ? hops.map { Array($0!.statements) } : branches.map(\.statements)
        let queue = onMain ? ".mainActor" : "nil"
        let guardsSelf = levels.contains(where: \.guardsSelf)
        let mentionsSelf = guardsSelf || bodies.contains { StatementText.mentionsSelf($0) }
        // A carried `(T?, Error?)` value is bound unwrapped in the `catch` too.
        var catchText = text
        catchText.unwrapped = Set(levels.filter(\.unwrapsValue).compactMap(\.valueName))
        var errorText = catchText
        if let name = errorLevels.first?.failure?.errorName, name != "error" { errorText.renamed[name] = "error" }

        if distinct.count == 1 && !tagged {
            let usesError = errorLevels.first.map { level in StatementText.mentions(level.failure!.statements, level.failure!.errorName ?? "") } ?? false
            lines.add("}.catch(on: \(queue), policy: .allErrors) { \(capture(mentionsSelf))\(usesError ? "error" : "_") in", 0)
            if guardsSelf { lines.add(Self.selfGuard(using: StatementText.mentionsSelf(bodies[bodies.count - 1])), 1) }
            for line in errorText.lines(bodies[bodies.count - 1]) { lines.add(line, 1) }
            lines.add("}", 0)
            return lines
        }
        lines.add("}.catch(on: \(queue), policy: .allErrors) { \(capture(mentionsSelf))error in", 0)
        if guardsSelf { lines.add(Self.selfGuard(using: bodies.contains { StatementText.mentionsSelf($0) }), 1) }
        lines.add("switch error {", 1)
        for (index, branch) in branches.enumerated() {
            lines.add(branch.pattern.map { "case \($0):" } ?? "default:", 1)
            let body = (branch.errorName == nil ? catchText : errorText).lines(bodies[index])
            if body.isEmpty { lines.add("break", 2) }
            for line in body { lines.add(line, 2) }
        }
        if errorLevels.isEmpty || tagged {
            lines.add("default:", 1)
            lines.add("break", 2)
        }
        lines.add("}", 1)
        lines.add("}", 0)
        return lines
    }

    private func finalHandlerOpening(_ level: Pyramid.Level, parameters: String) -> String {
        let queue = level.successOnMain != nil ? ".mainActor" : "nil"
        let mentionsSelf = level.guardsSelf || StatementText.mentionsSelf(level.successOnMain ?? level.success)
        return ".done(on: \(queue)) { \(capture(mentionsSelf))\(parameters) in"
    }

    /// The callback's `guard let self else { return }` at the top of a handler: as written when
    /// the handler reads `self`, as a test otherwise (an unused `self` draws a warning).
    private static func selfGuard(using: Bool) -> String {
        using ? "guard let self else { return }" : "guard self != nil else { return }"
    }

    private func capture(_ mentionsSelf: Bool) -> String {
        guard mentionsSelf, let capture = pyramid.selfCapture else { return "" }
        return capture + " "
    }

    /// The text of handler `index`'s code: reads of `(T?, Error?)` values it can see lose their `!`.
    private func textFor(_ index: Int) -> StatementText {
        var text = StatementText(bytes: bytes)
        for level in pyramid.levels[...index] where level.unwrapsValue {
            if let name = level.valueName { text.unwrapped.insert(name) }
        }
        return text
    }

    /// A value a failure branch reads, carried to the `catch` in the case of the local error type.
    struct CarriedValue {
        var name: String
        var type: String
    }

    /// Each handler of the chain sees only its own value: what a later step reads from an earlier
    /// callback is threaded through (``ValueThreading``). What a failure branch reads of the
    /// values before it travels in its case of the local error type (by level).
    private func threadValues() throws(Refusal) -> (ValueThreading, [Int: [CarriedValue]]) {
        let levels = pyramid.levels
        var handlers: [ValueThreading.Handler] = []
        for (index, level) in levels.enumerated() {
            let code = level.success + (level.successOnMain ?? [])
            var nodes = code.map(Syntax.init)
            if index + 1 < levels.count {
                let next = levels[index + 1]
                nodes += next.call.arguments.enumerated().filter { $0.offset != next.callee.handlerIndex }.map { Syntax($0.element) }
                nodes.append(Syntax(next.call.calledExpression))
            }
            let declarations = ValueThreading.declarations(in: code)
            handlers.append(ValueThreading.Handler(valueName: level.valueName, declared: declarations.map(\.name),
                                                   variables: Set(declarations.filter(\.isVariable).map(\.name)),
                                                   reads: ValueThreading.reads(in: nodes)))
        }
        var payloads: [Int: [CarriedValue]] = [:]
        for (index, level) in levels.enumerated() {
            guard let failure = level.failure else { continue }
            // What the branch can see: the values of the callbacks around it (its own only for a
            // flag, which is `false` there) and what their code declared before this call.
            var visible: [String: String?] = [:]
            var order: [String] = []
            for earlier in 0...index {
                if let name = levels[earlier].valueName, earlier < index || level.flagName != nil {
                    visible[name] = levels[earlier].valueType
                    order.append(name)
                }
                if earlier < index {
                    for (name, type) in Self.declaredTypes(in: levels[earlier].success) {
                        visible[name] = type
                        order.append(name)
                    }
                }
            }
            let reads = ValueThreading.reads(in: failure.statements.map(Syntax.init))
            var carried: [CarriedValue] = []
            for name in order where reads.contains(name) && !carried.contains(where: { $0.name == name }) {
                guard let type = visible[name] ?? nil else {
                    let use = failure.statements.lazy.compactMap { Self.reference(to: name, in: Syntax($0)) }.first
                    throw Refusal("a failure branch reads `\(name)`, whose type the shared `catch` cannot name", at: use.map(Syntax.init) ?? Syntax(level.call))
                }
                carried.append(CarriedValue(name: name, type: type))
            }
            guard !carried.isEmpty else { continue }
            payloads[index] = carried
            // The error is wrapped where the call is made (the handler before), a flag's `false`
            // in its own handler: the carried values must be there.
            let handler = level.flagName != nil ? index : index - 1
            if handler >= 0 { handlers[handler].reads.formUnion(carried.map(\.name)) }
        }
        let threading = ValueThreading(handlers)
        if let name = threading.carriedVariables.first {
            let use = levels.lazy.flatMap { $0.success }.compactMap { Self.reference(to: name, in: Syntax($0)) }.first
            throw Refusal("a later step reads `var \(name)` from an earlier callback; a chain would hand it a copy", at: use.map(Syntax.init) ?? Syntax(levels[0].call))
        }
        return (threading, payloads)
    }

    /// The locals statements declare, with their type where the declaration spells it
    /// (`let x: T = ...`, `let x = T(...)`).
    private static func declaredTypes(in items: [CodeBlockItemSyntax]) -> [(String, String?)] {
        items.flatMap { item -> [(String, String?)] in
            guard let variable = item.item.as(VariableDeclSyntax.self) else { return [] }
            return variable.bindings.compactMap { binding -> (String, String?)? in
                guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else { return nil }
                if let annotation = binding.typeAnnotation { return (identifier.identifier.text, annotation.type.trimmedDescription) }
                if let call = binding.initializer?.value.as(FunctionCallExprSyntax.self),
                   let type = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
                   type.first?.isUppercase == true {
                    return (identifier.identifier.text, type)
                }
                return (identifier.identifier.text, nil)
            }
        }
    }

    static func reference(to name: String, in node: Syntax) -> DeclReferenceExprSyntax? {
        for token in node.tokens(viewMode: .sourceAccurate) where token.tokenKind == .identifier(name) {
            guard let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
            if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id { continue }
            return reference
        }
        return nil
    }
}
