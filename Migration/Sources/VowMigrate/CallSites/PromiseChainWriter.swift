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
        // A branch the callback ran inside its whole-body hop differs from the same code run at once.
        let errorTexts = Set(errorLevels.map { level in
            (level.mainHop == nil ? "" : "hop ") + StatementText.normalized(level.failure!.statements, errorName: level.failure!.errorName)
                + level.failure!.patterned.map { " case \($0.pattern): " + StatementText.normalized($0.statements, errorName: nil) }.joined()
        })
        // Error branches that differ each get a case of the local error type: the callee's error
        // is wrapped where it arises, and the `catch` runs the branch of the step that failed.
        // A branch reading a value of an earlier step gets its own case too, carrying that value.
        // So does a step whose answer of neither a value nor an error has a branch of its own,
        // when another step could fail too (with the same error, for all the `catch` could tell).
        // Errors matched as their callees' own types share a branch only when the type is one.
        let tagged = errorTexts.count > 1
            || (errorLevels.contains { $0.failure!.typedAs != nil } && Set(errorLevels.map { $0.failure!.typedAs ?? "" }).count > 1)
            || levels.indices.contains { levels[$0].flagName == nil && !(payloads[$0]?.isEmpty ?? true) }
            || levels.indices.contains { index in
                levels[index].neither != nil && levels.indices.contains { $0 != index && levels[$0].failure != nil && levels[$0].flagName == nil }
            }
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
        // A step that returned early stops the chain with a case of its own, which the `catch` ignores.
        let stops = levels.dropLast().contains { $0.exitGuard != nil || !$0.earlyReturns.isEmpty }
        var stopName = "returned"
        var stopSuffix = 2
        while used.contains(stopName) { stopName = "returned\(stopSuffix)"; stopSuffix += 1 }
        if (!caseNames.isEmpty || stops) && inGenericContext {
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
        if !caseNames.isEmpty || stops {
            let cases = caseNames.keys.sorted().map { index -> String in
                let types = (isTagged(index) ? ["any Error"] : []) + (payloads[index] ?? []).map(\.type)
                return caseNames[index]! + (types.isEmpty ? "" : "(\(types.joined(separator: ", ")))")
            } + (stops ? [stopName] : [])
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
                var body: [(text: String, level: Int)] = []
                if let flag = level.flagName {
                    let carried = (payloads[index] ?? []).map(\.name)
                    body.append(("guard \(flag) else { throw \(failureTypeName).\(caseNames[index]!)\(carried.isEmpty ? "" : "(\(carried.joined(separator: ", ")))") }", 0))
                }
                var stepText = textFor(index)
                for exit in level.earlyReturns { stepText.replacedReturns[exit.returnKeyword.positionAfterSkippingLeadingTrivia.utf8Offset] = "throw \(failureTypeName).\(stopName)" }
                body += exitGuardLines(level.exitGuard, text: stepText, leaving: "throw \(failureTypeName).\(stopName)")
                body += stepText.lines(level.success).map { ($0, 0) }
                body.append(("return " + invocation(index + 1, textFor(index)), 0))
                let mentionsSelf = StatementText.mentionsSelf(level.success + (level.exitGuard.map { [$0.statement] } ?? []))
                    || levels[index + 1].invocation.contains("self")
                lines.add("}.then(on: nil) { \(capture(mentionsSelf))\(threading.parameters(of: index, valueName: level.valueName)) in", 0)
                for line in body { lines.add(line.text, line.level + 1) }
            }
            let last = levels[levels.count - 1]
            lines.add("}" + finalHandlerOpening(last, parameters: threading.parameters(of: levels.count - 1, valueName: last.valueName)), 0)
        }
        let last = levels[levels.count - 1]
        var successBody: [(text: String, level: Int)] = []
        if last.guardsSelf { successBody.append((Self.selfGuard(using: StatementText.mentionsSelf(last.successOnMain ?? last.success)), 0)) }
        let lastText = textFor(levels.count - 1)
        successBody += exitGuardLines(last.exitGuard, text: lastText, leaving: "return")
        if let inner = last.innerChain, last.successOnMain == nil {
            for line in lastText.lines(Array(last.success.dropLast())) { successBody.append((line, 0)) }
            successBody += try innerChainLines(inner)
        } else if last.successCases.isEmpty {
            for line in lastText.lines(last.successOnMain ?? last.success) { successBody.append((line, 0)) }
        } else {
            // `case .success(let v) where C:` cases, in order, then the one for any value.
            for (position, successCase) in last.successCases.enumerated() {
                let test = successCase.conditions.isEmpty ? "{" : "if \(successCase.conditions.map { lastText.text(of: $0) }.joined(separator: ", ")) {"
                successBody.append(((position == 0 ? "" : "} else ") + test, 0))
                for line in lastText.lines(successCase.statements) { successBody.append((line, 1)) }
            }
            successBody.append(("}", 0))
        }
        // A whole-body hop with `.handlers` is the handler's own queue; a kept one stays around the code.
        let keptHop: Pyramid.MainHop? = if case .kept? = last.mainHop { last.mainHop } else { nil }
        for line in Self.keepingHop(keptHop, successBody, text: text) { lines.add(line.text, line.level + 1) }

        // MARK: Catch
        guard !errorLevels.isEmpty || !flagLevels.isEmpty || stops else {
            lines.add("}", 0)
            return lines
        }
        var branches: [Branch] = []
        if stops {
            branches.append(Branch(pattern: "\(failureTypeName).\(stopName)", failure: Pyramid.Failure(statements: [], errorName: nil), level: 0,
                                   isSharedError: false, isStop: true))
        }
        for (index, level) in levels.enumerated() {
            guard let name = caseNames[index], let failure = level.failure else { continue }
            // A carried value a branch does not read is matched as `_` (the two branches of a step share them).
            let boundIn = { (statements: [CodeBlockItemSyntax]) in
                (payloads[index] ?? []).map { StatementText.mentions(statements, $0.name) ? "let \($0.name)" : "_" }
            }
            let bound = boundIn(failure.statements)
            if level.flagName != nil {
                branches.append(Branch(pattern: "\(failureTypeName).\(name)" + (bound.isEmpty ? "" : "(\(bound.joined(separator: ", ")))"),
                                       failure: failure, level: index, isSharedError: false))
            } else {
                // The answer of neither a value nor an error first: the alternative's own error for it.
                if let neither = level.neither {
                    let all = ["PMKError.invalidCallingConvention"] + boundIn(neither.statements)
                    branches.append(Branch(pattern: "\(failureTypeName).\(name)(\(all.joined(separator: ", ")))", failure: neither, level: index, isSharedError: false))
                }
                for (pattern, statements) in failure.patterned {
                    let all = [pattern] + boundIn(statements)
                    branches.append(Branch(pattern: "\(failureTypeName).\(name)(\(all.joined(separator: ", ")))",
                                           failure: Pyramid.Failure(statements: statements, errorName: nil), level: index, isSharedError: false))
                }
                let all = [failure.errorName.map { name in "let \(name)" + (failure.typedAs.map { " as \($0)" } ?? "") } ?? "_"] + bound
                branches.append(Branch(pattern: "\(failureTypeName).\(name)(\(all.joined(separator: ", ")))", failure: failure, level: index, isSharedError: false))
            }
        }
        if !tagged, let errorIndex = levels.firstIndex(where: { $0.failure != nil && $0.flagName == nil }) {
            if let neither = levels[errorIndex].neither {
                branches.append(Branch(pattern: "PMKError.invalidCallingConvention", failure: neither, level: errorIndex, isSharedError: false))
            }
            for (pattern, statements) in levels[errorIndex].failure!.patterned {
                branches.append(Branch(pattern: pattern, failure: Pyramid.Failure(statements: statements, errorName: nil), level: errorIndex, isSharedError: false))
            }
            // An error read as its callee's type is matched as that type (all the alternatives reject with).
            let typed = levels[errorIndex].failure!.typedAs.map { "let error as \($0)" }
            branches.append(Branch(pattern: typed, failure: levels[errorIndex].failure!, level: errorIndex, isSharedError: true))
        }
        let sharedIsTyped = branches.contains { $0.isSharedError && $0.pattern != nil }
        // A branch that was one hop to the main queue runs `on: .mainActor` when they all were,
        // and so does a callback's whole-body hop; a hop's own capture list that the chain's
        // handlers do not take stays as written, in a `catch` on the thread that settles it.
        let hops = branches.map { branch -> ClosureExprSyntax? in
            guard levels[branch.level].mainHop == nil, branch.failure.statements.count == 1,
                  let hop = PyramidReader.mainQueueHop(branch.failure.statements[0]) else { return nil }
            return hop.signature?.capture != nil && pyramid.selfCapture == nil ? nil : hop
        }
        // A callback's `guard let self` ran before its hops: the `catch` that tests it first keeps them.
        let guardsBeforeHops = levels.contains { $0.guardsSelf && $0.mainHop == nil }
        let onMain = !guardsBeforeHops && branches.indices.allSatisfy { index in
            // (The case for a step that returned early runs nothing: any queue does.)
            if branches[index].isStop { return true }
            if case .handlers? = levels[branches[index].level].mainHop { return true }
            return hops[index] != nil
        }
        let guardsSelf = levels.contains(where: \.guardsSelf)
        // A carried `(T?, Error?)` value is bound unwrapped in the `catch` too.
        var catchText = text
        catchText.unwrapped = Set(levels.filter(\.unwrapsValue).compactMap(\.valueName))
        let statements: [[CodeBlockItemSyntax]] = branches.indices.map { index in
            onMain ? (hops[index].map { Array($0.statements) } ?? branches[index].failure.statements) : branches[index].failure.statements
        }
        let bodies: [[(text: String, level: Int)]] = branches.indices.map { index in
            let branch = branches[index]
            var branchText = catchText
            if branch.isSharedError, let name = branch.failure.errorName, name != "error" { branchText.renamed[name] = "error" }
            if branch.failure.unwrapsError, let name = branch.failure.errorName { branchText.unwrapped.insert(name) }
            var body = (branch.failure.comments + branchText.lines(statements[index])).map { (text: $0, level: 0) }
            if branch.failure.errorIsOptional, let name = branch.failure.errorName {
                // The branch ran for an error and for neither a value nor an error: nil for that one.
                let caught = branch.isSharedError ? "error" : name
                body.insert(("let \(caught): (any Error)? = if case PMKError.invalidCallingConvention = \(caught) { nil } else { \(caught) }", 0), at: 0)
            }
            return onMain || branch.isStop ? body : Self.keepingHop(levels[branch.level].mainHop, body, text: text)
        }
        // Branches doing the same thing token for token (the shared error's name aside), in the
        // same hop, share one body.
        let distinct = Set(branches.map { branch in
            let level = levels[branch.level]
            return (level.mainHop == nil ? "" : "hop ") + (branch.failure.errorIsOptional ? "optional " : "")
                + StatementText.normalized(branch.failure.statements, errorName: branch.isSharedError ? branch.failure.errorName : nil)
        })
        let queue = onMain ? ".mainActor" : "nil"
        let mentionsSelf = guardsSelf || statements.contains { StatementText.mentionsSelf($0) }

        if distinct.count == 1 && !tagged && !sharedIsTyped && !stops && !levels.contains(where: { $0.neither != nil || !($0.failure?.patterned.isEmpty ?? true) }) {
            let usesError = errorLevels.first.map { level in StatementText.mentions(level.failure!.statements, level.failure!.errorName ?? "") } ?? false
            lines.add("}.catch(on: \(queue), policy: .allErrors) { \(capture(mentionsSelf))\(usesError ? "error" : "_") in", 0)
            if guardsSelf { lines.add(Self.selfGuard(using: StatementText.mentionsSelf(statements[statements.count - 1])), 1) }
            for line in bodies[bodies.count - 1] { lines.add(line.text, line.level + 1) }
            lines.add("}", 0)
            return lines
        }
        lines.add("}.catch(on: \(queue), policy: .allErrors) { \(capture(mentionsSelf))error in", 0)
        if guardsSelf { lines.add(Self.selfGuard(using: statements.contains { StatementText.mentionsSelf($0) }), 1) }
        lines.add("switch error {", 1)
        for (index, branch) in branches.enumerated() {
            lines.add(branch.pattern.map { "case \($0):" } ?? "default:", 1)
            if bodies[index].isEmpty { lines.add("break", 2) }
            for line in bodies[index] { lines.add(line.text, line.level + 2) }
        }
        if errorLevels.isEmpty || tagged || sharedIsTyped {
            lines.add("default:", 1)
            lines.add("break", 2)
        }
        lines.add("}", 1)
        lines.add("}", 0)
        return lines
    }

    /// A branch of the `catch`: its pattern (nil: `default:`), its code, and the level it belongs to.
    private struct Branch {
        var pattern: String?
        var failure: Pyramid.Failure
        var level: Int
        /// The one branch every level's error runs (no local error type): its error is `error`.
        var isSharedError: Bool
        /// The case for a step that returned early: nothing runs.
        var isStop = false
    }

    /// `guard C else { B; <leaving> }`: an ``Pyramid/ExitGuard`` at the top of its handler.
    private func exitGuardLines(_ exit: Pyramid.ExitGuard?, text: StatementText, leaving: String) -> [(text: String, level: Int)] {
        guard let exit else { return [] }
        return [("guard \(exit.conditions.map { text.text(of: $0) }.joined(separator: ", ")) else {", 0)]
            + text.lines(exit.statements).map { ($0, 1) } + [(leaving, 1), ("}", 0)]
    }

    /// A handler's lines inside the hop its callback's whole body was, when the handler does not
    /// run `on: .mainActor` itself.
    /// A hop with nothing in it did nothing: it is left out.
    private static func keepingHop(_ hop: Pyramid.MainHop?, _ body: [(text: String, level: Int)], text: StatementText) -> [(text: String, level: Int)] {
        if hop != nil && body.isEmpty { return [] }
        switch hop {
        case nil:
            return body
        case .handlers:
            return [("DispatchQueue.main.async {", 0)] + body.map { ($0.text, $0.level + 1) } + [("}", 0)]
        case .kept(let opening, let guardingSelf):
            let guardLines = guardingSelf.map { [(text: $0, level: 1)] } ?? []
            return [(opening, 0)] + guardLines + body.map { ($0.text, $0.level + 1) } + [("}", 0)]
        }
    }

    private func finalHandlerOpening(_ level: Pyramid.Level, parameters: String) -> String {
        var queue = level.successOnMain != nil ? ".mainActor" : "nil"
        if case .handlers? = level.mainHop { queue = ".mainActor" }
        let mentionsSelf = level.guardsSelf || StatementText.mentionsSelf((level.successOnMain ?? level.success) + (level.exitGuard.map { [$0.statement] } ?? []))
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
            // (An exit guard's conditions are tested in the handler, declaring what they bind.)
            let code = (level.exitGuard.map { [$0.statement] } ?? []) + level.success + (level.successOnMain ?? [])
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
            // (The branch for an answer of neither and those for error patterns share the case, and so its values.)
            let branchStatements = failure.statements + (level.neither?.statements ?? []) + failure.patterned.flatMap(\.statements)
            let reads = ValueThreading.reads(in: branchStatements.map(Syntax.init))
            var carried: [CarriedValue] = []
            for name in order where reads.contains(name) && !carried.contains(where: { $0.name == name }) {
                guard let type = visible[name] ?? nil else {
                    let use = branchStatements.lazy.compactMap { Self.reference(to: name, in: Syntax($0)) }.first
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
        if let index = levels.firstIndex(where: \.passesSeveralValues), !threading.mapping(into: index).isEmpty {
            throw Refusal("the last callback takes several values and reads a value of an earlier one; a chain would nest the tuples", at: levels[index].call)
        }
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
