import SwiftSyntax

/// `--to async` at call sites: an existing promise chain statement
/// (`firstly { a() }.then { x in b(x) }.map { ... }.done { ... }.catch { error in ... }`) becomes
/// straight-line `try await` code in `Task { @MainActor in do { } catch { } }`. The first call is
/// still made where the statement stood (`let tokenPromise = api.login(user)`), as `firstly` made it.
///
/// The chain's handlers name no queue, so they ran on `conf.Q`'s default, the main queue: the
/// task runs on the main actor. Its `catch` skipped cancellation errors (the default policy), so
/// the `catch` block returns early for them. Calls with an async alternative the index knows are
/// awaited directly; anything else through `.value`. The steps after the first run when the task
/// does (reported). Links with other arguments (`on:`, `policy:`), `ensure`/`finally`,
/// `recover`, `when`, and handlers that return early are refused.
struct ChainToAsync {
    let bytes: [UInt8]
    let catalog: CalleeCatalog

    private struct Link {
        var name: String
        var parameter: String?
        var statements: [CodeBlockItemSyntax]
    }

    /// Whether the statement is a chain this stage should look at (ends in `.catch { }`).
    static func isChain(_ call: FunctionCallExprSyntax) -> Bool {
        call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "catch" && call.trailingClosure != nil
    }

    func write(_ call: FunctionCallExprSyntax) throws(Refusal) -> CodeLines {
        var links: [Link] = []
        var current = ExprSyntax(call)
        // From the `catch` back to the root.
        while let link = current.as(FunctionCallExprSyntax.self), let member = link.calledExpression.as(MemberAccessExprSyntax.self),
              let base = member.base {
            let name = member.declName.baseName.text
            guard ["then", "map", "done", "get", "catch"].contains(name) else {
                throw Refusal("`.\(name)` in a promise chain is not converted to async yet", at: member.declName)
            }
            guard let closure = link.trailingClosure, link.additionalTrailingClosures.isEmpty else {
                throw Refusal("a chain link without a trailing closure", at: link)
            }
            for argument in link.arguments {
                let text = argument.trimmedDescription.filter { $0 != " " && $0 != "," }
                guard text == "on:.main" || text == "on:DispatchQueue.main" else {
                    throw Refusal("a chain link with `\(argument.detached.with(\.trailingComma, nil).trimmedDescription)`: only the default queue (main) is converted", at: argument)
                }
            }
            guard let names = PyramidReader.parameterNames(closure), names.count <= 1 else {
                throw Refusal("a chain handler names its parameters implicitly (`$0`) or takes several", at: closure)
            }
            if closure.signature?.capture != nil || closure.signature?.returnClause != nil {
                throw Refusal("a chain handler with a capture list or a return type", at: closure)
            }
            links.insert(Link(name: name, parameter: names.first, statements: Array(closure.statements)), at: 0)
            current = base
        }
        guard links.count >= 2, links.last?.name == "catch", !links.dropLast().contains(where: { $0.name == "catch" }) else {
            throw Refusal("a promise chain with `catch` in the middle", at: call)
        }
        // The root: `firstly { expression }` or the expression itself.
        var root = current
        if let firstly = root.as(FunctionCallExprSyntax.self), firstly.calledExpression.trimmedDescription == "firstly" {
            guard firstly.arguments.isEmpty, let body = firstly.trailingClosure, body.signature == nil, body.statements.count == 1,
                  let only = body.statements.first else {
                throw Refusal("a `firstly` whose body is more than one expression", at: firstly)
            }
            if let ret = only.item.as(ReturnStmtSyntax.self), let value = ret.expression {
                root = value
            } else if let expression = PyramidReader.expression(only) {
                root = expression
            } else {
                throw Refusal("a `firstly` whose body is not an expression", at: firstly)
            }
        }

        // Straight-line code declares every value in one scope: a later `avatar` becomes `avatar2`.
        var seen = Set<String>()
        var renames: [String: String] = [:]
        var resolved: [String?] = []
        for (index, link) in links.enumerated() {
            guard let parameter = link.parameter, parameter != "_" else { resolved.append(link.parameter); continue }
            // `get { profile in }.then { profile in }`: the same value, the same name.
            if index > 0, links[index - 1].name == "get", links[index - 1].parameter == parameter {
                resolved.append(resolved[index - 1])
                continue
            }
            var name = parameter
            var suffix = 2
            while seen.contains(name) { name = "\(parameter)\(suffix)"; suffix += 1 }
            seen.insert(name)
            resolved.append(name)
        }
        var body = CodeLines()
        var text = StatementText(bytes: bytes)
        // The root call starts where the statement stood, on the caller's thread, as `firstly` did.
        let started = (resolved[0].map { $0 == "_" ? "first" : $0 } ?? "first") + "Promise"
        body.add("\(binding(resolved[0]))try await \(started).value", 1)
        for (index, link) in links.dropLast().enumerated() {
            if let parameter = link.parameter, let name = resolved[index] { renames[parameter] = name }
            text.renamed = renames.filter { $0.key != $0.value }
            let next = resolved[index + 1]
            try check(link.statements)
            switch link.name {
            case "then", "map":
                guard let last = link.statements.last else { throw Refusal("an empty `\(link.name)` handler", at: call) }
                let result: ExprSyntax
                if let ret = last.item.as(ReturnStmtSyntax.self), let value = ret.expression {
                    result = value
                } else if let expression = PyramidReader.expression(last) {
                    result = expression
                } else {
                    throw Refusal("a `\(link.name)` handler that does not end with its value", at: last)
                }
                for line in text.lines(Array(link.statements.dropLast())) { body.add(line, 1) }
                let value = link.name == "then" ? awaited(result, text) : text.text(of: result)
                body.add("\(binding(next))\(value)", 1)
            case "get":
                for line in text.lines(link.statements) { body.add(line, 1) }
                if let next, next != "_", next != resolved[index] {
                    body.add("let \(next) = \(resolved[index] ?? "()")", 1)
                }
            default: // done
                for line in text.lines(link.statements) { body.add(line, 1) }
                if index + 1 != links.count - 1 { throw Refusal("`done` before the end of the chain", at: call) }
            }
        }
        let catchLink = links[links.count - 1]
        try check(catchLink.statements)
        var catchText = StatementText(bytes: bytes)
        if let name = catchLink.parameter, name != "error", name != "_" { catchText.renamed[name] = "error" }
        var lines = CodeLines()
        lines.add("let \(started) = \(text.text(of: root))", 0)
        lines.add("Task { @MainActor in", 0)
        lines.add("do {", 1)
        lines.add(body, indentedBy: 1)
        lines.add("} catch {", 1)
        lines.add("// The chain's `catch` skipped cancellations (its default policy).", 2)
        lines.add("if error.isCancelled { return }", 2)
        for line in catchText.lines(catchLink.statements) { lines.add(line, 2) }
        lines.add("}", 1)
        lines.add("}", 0)
        return lines
    }

    private func binding(_ name: String?) -> String {
        guard let name else { return "" }
        return name == "_" ? "_ = " : "let \(name) = "
    }

    /// `try await alternative(...)` where the index knows an async alternative, else `.value`.
    private func awaited(_ expression: ExprSyntax, _ text: StatementText) -> String {
        if let call = expression.as(FunctionCallExprSyntax.self), call.trailingClosure == nil,
           let base = PyramidReader.baseName(call) {
            let labels = call.arguments.map { $0.label?.text }
            let callees = catalog.callees(named: base).filter { callee in
                var alternative = callee.labels
                alternative.remove(at: callee.handlerIndex)
                return alternative == labels && callee.hasAsyncAlternative
            }
            if callees.count == 1, let callee = callees.first {
                return (callee.shape.canFail ? "try await " : "await ") + text.text(of: call)
            }
        }
        let simple = expression.is(FunctionCallExprSyntax.self) || expression.is(DeclReferenceExprSyntax.self) || expression.is(MemberAccessExprSyntax.self)
        let base = text.text(of: expression)
        return "try await " + (simple ? base : "(\(base))") + ".value"
    }

    private func check(_ statements: [CodeBlockItemSyntax]) throws(Refusal) {
        for (index, statement) in statements.enumerated() {
            for node in statement.tokens(viewMode: .sourceAccurate) {
                guard node.tokenKind == .keyword(.return) || node.tokenKind == .keyword(.guard) || node.tokenKind == .keyword(.defer) else { continue }
                // Inside a nested closure or function it belongs to that.
                var parent = node.parent
                var nested = false
                while let current = parent, current.id != statement.id {
                    if current.is(ClosureExprSyntax.self) || current.is(FunctionDeclSyntax.self) { nested = true; break }
                    parent = current.parent
                }
                if nested { continue }
                if node.tokenKind == .keyword(.return) && index == statements.count - 1 && statement.item.is(ReturnStmtSyntax.self) { continue }
                throw Refusal("a chain handler that leaves early (`\(node.text)`)", at: node)
            }
        }
    }
}
