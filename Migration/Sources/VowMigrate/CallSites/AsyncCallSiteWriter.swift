import SwiftSyntax

/// Writes a ``Pyramid`` as straight-line `try await` code: in the function itself when it is
/// `async`, otherwise inside a new `Task { }` (which starts the work when the task first runs,
/// not during the call; the report says so).
///
/// Error branches that do the same thing share one `do`/`catch`; otherwise each call gets its
/// own `do`/`catch` ending in `return`, as the callback's branch did. A Bool flag's `false`
/// branch becomes `guard flag else { ...; return }`. A final `DispatchQueue.main.async { }`
/// becomes `await MainActor.run { }`.
struct AsyncCallSiteWriter {
    let pyramid: Pyramid
    let bytes: [UInt8]
    let enclosingIsAsync: Bool
    /// What the enclosing type declares: the first call may read it without `self.`.
    var selfMembers: Set<String> = []

    func write() throws(Refusal) -> CodeLines {
        let levels = pyramid.levels
        // A `Task` makes the first call later: arguments reading `self` could read a changed
        // value by then (``InlinePyramidWriter`` reads them before the task).
        if !enclosingIsAsync {
            let first = levels[0].call
            for (position, argument) in first.arguments.enumerated() where position != levels[0].callee.handlerIndex {
                if InlinePyramidWriter.selfRead(in: [Syntax(argument.expression)], members: selfMembers) != nil {
                    throw Refusal("the first call's arguments read `self`, which the task would read later", at: argument)
                }
            }
        }
        // The first call was made outside any closure, where `users.signOut` means
        // `self.users.signOut`; inside `Task { [weak self] in }` that needs `self?.`, which would
        // skip the call once `self` is gone.
        if !enclosingIsAsync, pyramid.selfCapture == "[weak self]" {
            let first = levels[0].call
            let nodes = [Syntax(first.calledExpression)] + first.arguments.enumerated()
                .filter { $0.offset != levels[0].callee.handlerIndex }.map { Syntax($0.element) }
            for name in ValueThreading.reads(in: nodes).sorted() where selfMembers.contains(name) {
                let use = nodes.lazy.compactMap { PromiseChainWriter.reference(to: name, in: $0) }.first
                throw Refusal("the first call reads `\(name)` through `self`, which a `Task { [weak self] }` could only reach as `self?.`",
                              at: use.map(Syntax.init) ?? Syntax(first))
            }
        }
        let errorLevels = levels.filter { $0.failure != nil && $0.flagName == nil }
        let errorTexts = Set(errorLevels.map { StatementText.normalized($0.failure!.statements, errorName: $0.failure!.errorName) })
        // One `do`/`catch` serves when every error branch does the same thing and reads nothing
        // bound inside the `do`; otherwise each call gets its own, where everything before it is
        // in scope.
        let boundNames = Set(levels.compactMap(\.valueName) + levels.flatMap { Self.declaredNames($0.success + ($0.successOnMain ?? [])) })
        let failureReadsBound = errorLevels.contains { !ValueThreading.reads(in: $0.failure!.statements.map(Syntax.init)).isDisjoint(with: boundNames) }
        let shared = errorTexts.count == 1 && !failureReadsBound

        // Straight-line code declares every value in one scope: later duplicates are renamed.
        var renames: [[String: String]] = []
        var taken = Set<String>()
        var current: [String: String] = [:]
        for level in levels {
            if let name = level.valueName {
                var newName = name
                var suffix = 2
                while taken.contains(newName) { newName = "\(name)\(suffix)"; suffix += 1 }
                taken.insert(newName)
                current[name] = newName
            }
            for local in Self.declaredNames(level.success + (level.successOnMain ?? [])) {
                if taken.contains(local) || current[local] != nil && current[local] != local {
                    throw Refusal("`\(local)` would be declared twice in straight-line code", at: level.call)
                }
                taken.insert(local)
            }
            renames.append(current)
        }

        var body = CodeLines()
        let level = shared ? 1 : 0
        for (index, step) in levels.enumerated() {
            // Reads of every `(T?, Error?)` value bound so far lose their `!`, in later levels too.
            let unwrappedBefore = Set(levels[..<index].filter(\.unwrapsValue).compactMap(\.valueName))
            var text = StatementText(bytes: bytes)
            text.renamed = renames[index].filter { $0.key != $0.value }
            text.unwrapped = unwrappedBefore
            if step.unwrapsValue, let name = step.valueName { text.unwrapped.insert(name) }
            // The call's arguments read the values bound before it.
            var argumentText = StatementText(bytes: bytes)
            argumentText.renamed = index > 0 ? renames[index - 1].filter { $0.key != $0.value } : [:]
            argumentText.unwrapped = unwrappedBefore
            let invocation = argumentText.invocation(step)
            let awaited = (step.callee.shape.canFail ? "try await " : "await ") + invocation
            let name = step.valueName.map { renames[index][$0] ?? $0 }
            let isVoid = step.callee.shape.valueType == "Void"
            // A value the handler's annotation typed still pins a generic callee's type.
            let discarded = step.annotatedValueType.map { "let _: " + $0 } ?? "_"

            if !shared, let failure = step.failure, step.flagName == nil {
                if let name, !isVoid {
                    body.add("let \(name): \(step.valueType)", level)
                    body.add("do {", level)
                    body.add("\(name) = \(awaited)", level + 1)
                } else {
                    body.add("do {", level)
                    body.add(isVoid ? awaited : "\(discarded) = \(awaited)", level + 1)
                }
                body.add("} catch {", level)
                var errorText = text
                if let errorName = failure.errorName, errorName != "error" { errorText.renamed[errorName] = "error" }
                for line in errorText.lines(failure.statements) { body.add(line, level + 1) }
                body.add("return", level + 1)
                body.add("}", level)
            } else if let name, !isVoid {
                body.add("let \(name)\(step.annotatedValueType.map { ": " + $0 } ?? "") = \(awaited)", level)
            } else {
                body.add(isVoid ? awaited : "\(discarded) = \(awaited)", level)
            }
            if let flag = step.flagName, let failure = step.failure {
                body.add("guard \(renames[index][flag] ?? flag) else {", level)
                for line in text.lines(failure.statements) { body.add(line, level + 1) }
                body.add("return", level + 1)
                body.add("}", level)
            }
            if let onMain = step.successOnMain {
                let captured = pyramid.selfCapture != nil && StatementText.mentionsSelf(onMain) ? "\(pyramid.selfCapture!) in" : ""
                body.add("await MainActor.run {" + (captured.isEmpty ? "" : " " + captured), level)
                for line in text.lines(onMain) { body.add(line, level + 1) }
                body.add("}", level)
            } else {
                for line in text.lines(step.success) { body.add(line, level) }
            }
        }
        if shared, let failure = errorLevels[0].failure {
            var lines = CodeLines()
            lines.add("do {", 0)
            lines.add(body, indentedBy: 0)
            lines.add("} catch {", 0)
            var text = StatementText(bytes: bytes)
            if let errorName = failure.errorName, errorName != "error" { text.renamed[errorName] = "error" }
            for line in text.lines(failure.statements) { lines.add(line, 1) }
            lines.add("}", 0)
            body = lines
        }
        if enclosingIsAsync { return body }
        let mentionsSelf = body.lines.contains { $0.text.contains("self") }
        var lines = CodeLines()
        lines.add("Task {" + (mentionsSelf && pyramid.selfCapture != nil ? " \(pyramid.selfCapture!) in" : ""), 0)
        lines.add(body, indentedBy: 1)
        lines.add("}", 0)
        return lines
    }

    /// Names the statements declare at their own level (`let x = ...`, `var (a, b) = ...`).
    static func declaredNames(_ items: [CodeBlockItemSyntax]) -> [String] {
        items.flatMap { item -> [String] in
            guard let variable = item.item.as(VariableDeclSyntax.self) else { return [] }
            return variable.bindings.flatMap { binding in
                binding.pattern.tokens(viewMode: .sourceAccurate).compactMap { token in
                    if case .identifier(let name) = token.tokenKind { return name }
                    return nil
                }
            }
        }
    }
}
