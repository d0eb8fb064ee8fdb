import SwiftSyntax

/// Writes a ``Pyramid`` as one flat chain:
/// `firstly { a() }.then(on: nil) { x in b(x) }.done(on: nil) { y in ... }.catch(on: nil, policy: .allErrors) { error in ... }`.
///
/// Every handler runs with `on: nil`, synchronously on the thread that settles the promise,
/// which is the thread the callee called its handler on: exactly where the callback ran. A
/// `DispatchQueue.main.async { }` that was a callback's whole body becomes `on: .mainActor`.
/// `policy: .allErrors`, because the callback also saw cancellation errors. Failure branches
/// must do the same thing to share the one `catch`; a Bool flag's `false` branch becomes a
/// rejection with a case of a small local error type, and the `catch` runs that branch's code.
struct PromiseChainWriter {
    let pyramid: Pyramid
    let bytes: [UInt8]
    /// `ReloadFailure`: the local error type for Bool flags.
    let failureTypeName: String
    /// Local types cannot be declared in generic functions or methods of generic types.
    let inGenericContext: Bool

    func write() throws(Refusal) -> CodeLines {
        let levels = pyramid.levels
        try checkScopes()

        // MARK: Failures
        let errorLevels = levels.filter { $0.failure != nil && $0.flagName == nil }
        let flagLevels = levels.filter { $0.flagName != nil }
        let errorTexts = Set(errorLevels.map { StatementText.normalized($0.failure!.statements, errorName: $0.failure!.errorName) })
        // Error branches that differ each get a case of the local error type: the callee's error
        // is wrapped where it arises, and the `catch` runs the branch of the step that failed.
        let tagged = errorTexts.count > 1
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
            let plain = text.invocation(levels[index])
            guard isTagged(index), let name = caseNames[index] else { return plain }
            return plain + ".recover(on: nil, policy: .allErrors) { error -> Promise<\(levels[index].callee.shape.valueType)> in throw \(failureTypeName).\(name)(error) }"
        }

        var lines = CodeLines()
        if !caseNames.isEmpty {
            let cases = caseNames.keys.sorted().map { isTagged($0) ? "\(caseNames[$0]!)(any Error)" : caseNames[$0]! }
            lines.add("enum \(failureTypeName): Error { case \(cases.joined(separator: ", ")) }", 0)
        }
        let text = StatementText(bytes: bytes)

        // MARK: Steps
        let first = levels[0]
        if levels.count == 1 {
            lines.add(invocation(0, text) + finalHandlerOpening(first), 0)
        } else {
            lines.add("firstly {", 0)
            lines.add(invocation(0, text), 1)
            for index in 0..<(levels.count - 1) {
                let level = levels[index]
                var body: [String] = []
                if let flag = level.flagName {
                    body.append("guard \(flag) else { throw \(failureTypeName).\(caseNames[index]!) }")
                }
                body += textFor(level).lines(level.success)
                body.append("return " + invocation(index + 1, textFor(level)))
                let mentionsSelf = StatementText.mentionsSelf(level.success) || levels[index + 1].invocation.contains("self")
                lines.add("}.then(on: nil) { \(capture(mentionsSelf))\(level.valueName ?? "_") in", 0)
                for line in body { lines.add(line, 1) }
            }
            let last = levels[levels.count - 1]
            lines.add("}" + finalHandlerOpening(last), 0)
        }
        let last = levels[levels.count - 1]
        for line in textFor(last).lines(last.successOnMain ?? last.success) { lines.add(line, 1) }

        // MARK: Catch
        guard !errorLevels.isEmpty || !flagLevels.isEmpty else {
            lines.add("}", 0)
            return lines
        }
        var branches: [(pattern: String?, statements: [CodeBlockItemSyntax], errorName: String?)] = []
        for (index, level) in levels.enumerated() {
            guard let name = caseNames[index], let failure = level.failure else { continue }
            if level.flagName != nil {
                branches.append(("\(failureTypeName).\(name)", failure.statements, nil))
            } else {
                branches.append(("\(failureTypeName).\(name)(let \(failure.errorName ?? "_"))", failure.statements, nil))
            }
        }
        if !tagged, let errorLevel = errorLevels.first {
            branches.append((nil, errorLevel.failure!.statements, errorLevel.failure!.errorName))
        }
        let distinct = Set(branches.map { StatementText.normalized($0.statements, errorName: $0.errorName) })
        let hops = branches.map { $0.statements.count == 1 ? PyramidReader.mainQueueHop($0.statements[0]) : nil }
        let onMain = hops.allSatisfy { $0 != nil }
        let bodies: [[CodeBlockItemSyntax]] = onMain ? hops.map { Array($0!.statements) } : branches.map(\.statements)
        let queue = onMain ? ".mainActor" : "nil"
        let mentionsSelf = bodies.contains { StatementText.mentionsSelf($0) }
        var errorText = text
        if let name = errorLevels.first?.failure?.errorName, name != "error" { errorText.renamed[name] = "error" }

        if distinct.count == 1 && !tagged {
            let usesError = errorLevels.first.map { level in StatementText.mentions(level.failure!.statements, level.failure!.errorName ?? "") } ?? false
            lines.add("}.catch(on: \(queue), policy: .allErrors) { \(capture(mentionsSelf))\(usesError ? "error" : "_") in", 0)
            for line in errorText.lines(bodies[bodies.count - 1]) { lines.add(line, 1) }
            lines.add("}", 0)
            return lines
        }
        lines.add("}.catch(on: \(queue), policy: .allErrors) { \(capture(mentionsSelf))error in", 0)
        lines.add("switch error {", 1)
        for (index, branch) in branches.enumerated() {
            lines.add(branch.pattern.map { "case \($0):" } ?? "default:", 1)
            let body = (branch.errorName == nil ? text : errorText).lines(bodies[index])
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

    private func finalHandlerOpening(_ level: Pyramid.Level) -> String {
        let queue = level.successOnMain != nil ? ".mainActor" : "nil"
        let mentionsSelf = StatementText.mentionsSelf(level.successOnMain ?? level.success)
        return ".done(on: \(queue)) { \(capture(mentionsSelf))\(level.valueName ?? "_") in"
    }

    private func capture(_ mentionsSelf: Bool) -> String {
        guard mentionsSelf, let capture = pyramid.selfCapture else { return "" }
        return capture + " "
    }

    private func textFor(_ level: Pyramid.Level) -> StatementText {
        var text = StatementText(bytes: bytes)
        if level.unwrapsValue, let name = level.valueName { text.unwrapped.insert(name) }
        return text
    }

    /// Each handler of the chain sees only its own value; a step that reads an earlier one is refused.
    private func checkScopes() throws(Refusal) {
        let levels = pyramid.levels
        for (index, level) in levels.enumerated() {
            let earlier = levels[..<index].compactMap(\.valueName).filter { $0 != level.valueName }
            var nodes: [Syntax] = level.success.map(Syntax.init) + (level.successOnMain ?? []).map(Syntax.init)
            if index + 1 < levels.count { nodes += levels[index + 1].call.arguments.map(Syntax.init) }
            for name in earlier {
                if let use = nodes.lazy.compactMap({ Self.reference(to: name, in: $0) }).first {
                    throw Refusal("a later step reads `\(name)` from an earlier callback", at: use)
                }
            }
            if let failure = level.failure {
                let visible = levels[...index].compactMap(\.valueName)
                for name in visible {
                    if let use = failure.statements.lazy.compactMap({ Self.reference(to: name, in: Syntax($0)) }).first {
                        throw Refusal("a failure branch reads `\(name)`, which the shared `catch` cannot see", at: use)
                    }
                }
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
