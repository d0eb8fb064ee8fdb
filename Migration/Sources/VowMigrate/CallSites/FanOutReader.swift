import SwiftSyntax

/// Recognises a ``FanOut`` at a `for` statement of a block: the loop's body ends by calling a
/// completion-handler function with a closure, once per element, optionally between
/// `let group = DispatchGroup()` before the loop (`group.enter()` in it) and
/// `group.notify(queue:)` right after it.
///
/// Returns nil where the statement is not such a loop (the call-site stage reports it as
/// before), and a refusal that names the shape where a conversion would change behaviour.
struct FanOutReader {
    let reader: PyramidReader
    let target: MigrationTarget

    enum Outcome {
        case fanOut(FanOut)
        case refused(Refusal)
    }

    func read(_ list: [CodeBlockItemSyntax], at index: Int) -> Outcome? {
        guard let loop = list[index].item.as(ForStmtSyntax.self) else { return nil }
        var body = Array(loop.body.statements)
        guard let last = body.last, let call = PyramidReader.callStatement(last),
              case .call(let matched) = reader.match(call) else { return nil }
        body.removeLast()
        // Another callback started in the loop: not one call per element; reported as before.
        let checker = FanOutBodyChecker(reader: reader)
        for statement in body { checker.walk(statement) }
        if checker.knownCall != nil { return nil }
        do throws(Refusal) {
            return .fanOut(try read(list, at: index, loop: loop, preparation: body, call: call, matched: matched))
        } catch {
            return .refused(error)
        }
    }

    private func read(_ list: [CodeBlockItemSyntax], at index: Int, loop: ForStmtSyntax, preparation: [CodeBlockItemSyntax],
                      call: FunctionCallExprSyntax, matched: PyramidReader.MatchedCall) throws(Refusal) -> FanOut {
        if loop.awaitKeyword != nil || loop.tryKeyword != nil {
            throw Refusal("a loop over an async sequence around a callback", at: loop)
        }
        let callee = matched.callee
        try checkCallee(callee, of: call)

        // The group: entered once per element, before the call.
        var preparation = preparation
        var groupName: String?
        if let enter = preparation.firstIndex(where: { Self.groupCall($0, "enter") != nil }) {
            groupName = Self.groupCall(preparation[enter], "enter")
            preparation.remove(at: enter)
        }
        for statement in preparation {
            if let jump = statement.tokens(viewMode: .sourceAccurate).first(where: {
                [.keyword(.break), .keyword(.continue), .keyword(.return), .keyword(.throw)].contains($0.tokenKind)
            }) {
                throw Refusal("a `\(jump.text)` in a loop that starts callbacks; the converted loop would have to skip them the same way", at: jump)
            }
            if let groupName, StatementText.mentions([statement], groupName) {
                throw Refusal("the loop uses the group `\(groupName)` for more than one `enter()` per call", at: statement)
            }
        }

        var groupDeclaration: CodeBlockItemSyntax?
        var notify: FanOut.Notify?
        var lastStatement = list[index]
        if let groupName {
            guard let declaration = list[..<index].last(where: { Self.isGroupDeclaration($0, groupName) }) else {
                throw Refusal("the `DispatchGroup` `\(groupName)` is not declared in this block with `let \(groupName) = DispatchGroup()`", at: loop)
            }
            groupDeclaration = declaration
            if let wait = list.first(where: { $0.trimmedDescription.contains("\(groupName).wait(") }) {
                throw Refusal("`\(groupName).wait()` blocks its thread until every callback has run (forever on the main queue when they call back there); "
                              + "move the code after it into `\(groupName).notify(queue: .main) { }` right after the loop", at: wait)
            }
            guard index + 1 < list.count, let read = try readNotify(list[index + 1], groupName: groupName) else {
                throw Refusal("the loop is not followed by `\(groupName).notify(queue:) { }`, which the conversion needs to know what runs after the callbacks", at: loop)
            }
            notify = read
            lastStatement = list[index + 1]
            // The group does nothing else: no other `enter`, `wait`, or second loop.
            for (position, item) in list.enumerated() where position != index && position != index + 1 && item.id != declaration.id {
                if StatementText.mentions([item], groupName) {
                    throw Refusal("the group `\(groupName)` is used outside its loop and its notify block", at: item)
                }
            }
        }

        let callback = try FanOutCallbackReader(reader: reader, groupName: groupName).read(matched.handler, callee: callee)
        if groupName == nil, let leave = matched.handler.statements.first(where: { Self.groupCall($0, "leave") != nil }) {
            throw Refusal("the callback leaves a group the loop does not enter", at: leave)
        }
        let callbackCapture = try Self.selfCapture(matched.handler)
        var capture = callbackCapture
        if let notify, let closure = Self.notifyClosure(notify.statement) {
            let notifyCapture = try Self.selfCapture(closure)
            if notifyCapture != callbackCapture && StatementText.mentionsSelf(notify.body) && StatementText.mentionsSelf(callback.success + (callback.failure ?? [])) {
                throw Refusal("the callbacks and the notify block capture `self` differently", at: closure)
            }
            capture = capture ?? notifyCapture
        }
        return FanOut(groupDeclaration: groupDeclaration, groupName: groupName, loop: loop, preparation: preparation, call: call,
                      callee: callee, invocation: matched.invocation, callback: callback, notify: notify,
                      selfCapture: capture, lastStatement: lastStatement)
    }

    /// Refuses a call whose callee has no alternative in the target form, or which is reached
    /// through `?.` (and so may not happen at all).
    func checkCallee(_ callee: CalleeSummary, of call: FunctionCallExprSyntax) throws(Refusal) {
        guard callee.hasAlternative(for: target) else {
            if let reason = callee.noAlternativeReasons[target] { throw Refusal("the callee gets no alternative: \(reason)", at: call) }
            throw Refusal("the callee has no \(target == .promise ? "promise" : "async") alternative yet (add them first: --stage declarations, or --stage all)", at: call)
        }
        if call.calledExpression.tokens(viewMode: .sourceAccurate).contains(where: { $0.tokenKind == .postfixQuestionMark }) {
            throw Refusal("the callee is reached through `?.`, so the call may not happen at all", at: call.calledExpression)
        }
    }

    /// The `var`s the block declares before `index`: what a fan-out's callbacks may fill.
    static func blockVariables(before index: Int, in list: [CodeBlockItemSyntax]) -> Set<String> {
        Set(list[..<index].flatMap { item -> [String] in
            guard let variable = item.item.as(VariableDeclSyntax.self), variable.bindingSpecifier.tokenKind == .keyword(.var) else { return [] }
            return AsyncCallSiteWriter.declaredNames([item])
        })
    }

    // MARK: - The group

    /// `group.notify(queue: .main) { ... }` (or `execute: { ... }`); nil when the statement is not a notify.
    func readNotify(_ item: CodeBlockItemSyntax, groupName: String) throws(Refusal) -> FanOut.Notify? {
        guard Self.groupCall(item, "notify", allowingArguments: true) == groupName, let call = PyramidReader.callStatement(item),
              let closure = Self.notifyClosure(item) else { return nil }
        let arguments = Array(call.arguments)
        guard let queue = arguments.first, queue.label?.text == "queue",
              arguments.count == (call.trailingClosure == nil ? 2 : 1) else {
            throw Refusal("`\(groupName).notify` with arguments other than `queue:` and its block", at: call)
        }
        if let signature = closure.signature, signature.parameterClause != nil {
            throw Refusal("the notify block's signature", at: signature)
        }
        // The block stays a closure (`return` and `guard` keep their meaning), but a callback
        // started in it would stay nested and unreported.
        let finder = FanOutBodyChecker(reader: reader)
        finder.walk(closure)
        if let call = finder.knownCall {
            throw Refusal("a callback started inside the notify block (convert the inner call first, or by hand)", at: call)
        }
        let text = queue.expression.trimmedDescription
        let isMain = text == ".main" || text == "DispatchQueue.main"
        let isGlobal = text.hasPrefix(".global(") || text.hasPrefix("DispatchQueue.global(")
        return FanOut.Notify(statement: item, queue: isMain ? nil : queue.expression, onGlobalQueue: isGlobal, body: Array(closure.statements))
    }

    static func notifyClosure(_ item: CodeBlockItemSyntax) -> ClosureExprSyntax? {
        guard let call = PyramidReader.callStatement(item) else { return nil }
        if let trailing = call.trailingClosure { return trailing }
        return call.arguments.first { $0.label?.text == "execute" }?.expression.as(ClosureExprSyntax.self)
    }

    /// `name.enter()` and the like: the receiver's name.
    static func groupCall(_ item: CodeBlockItemSyntax, _ method: String, allowingArguments: Bool = false) -> String? {
        guard let call = PyramidReader.callStatement(item), allowingArguments || (call.arguments.isEmpty && call.trailingClosure == nil),
              let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == method,
              let base = member.base?.as(DeclReferenceExprSyntax.self) else { return nil }
        return base.baseName.text
    }

    /// `let group = DispatchGroup()`.
    static func isGroupDeclaration(_ item: CodeBlockItemSyntax, _ name: String) -> Bool {
        guard let variable = item.item.as(VariableDeclSyntax.self), variable.bindingSpecifier.tokenKind == .keyword(.let),
              variable.bindings.count == 1, let binding = variable.bindings.first,
              binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name,
              let call = binding.initializer?.value.as(FunctionCallExprSyntax.self) else { return false }
        return call.calledExpression.trimmedDescription == "DispatchGroup" && call.arguments.isEmpty
    }

    /// `[weak self]` or `[unowned self]`; any other capture list is refused.
    static func selfCapture(_ closure: ClosureExprSyntax) throws(Refusal) -> String? {
        guard let list = closure.signature?.capture else { return nil }
        switch list.trimmedDescription.filter({ $0 != " " }) {
        case "[weakself]": return "[weak self]"
        case "[unownedself]": return "[unowned self]"
        default: throw Refusal("the callback's capture list is not `[weak self]`", at: list)
        }
    }
}
