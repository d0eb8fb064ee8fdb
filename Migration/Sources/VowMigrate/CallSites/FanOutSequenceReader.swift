import SwiftSyntax

/// Recognises a ``FanOutSequence`` at a `group.enter()` statement of a block: that statement and
/// a call of a completion-handler function right after it, repeated, then `group.notify(queue:)
/// { }`, the group declared earlier in the block (`let group = DispatchGroup()`) and used for
/// nothing else.
///
/// Returns nil where the statements are not such a sequence (every call of the tree's, each
/// with its callback closure), and a refusal where converting it could change what it does.
///
/// The async form awaits the calls one after the other (`async let`), where the original ran
/// each callback as its call completed: the same only when the order the callbacks run in
/// cannot show. So each callback's code may only change variables of the block (declared before
/// the group) or its own, each a variable no other callback reads or changes: assignments,
/// compound assignments, and the collection methods that change a value (`append`, `insert`,
/// `remove...`, `merge`...), under `if`, `switch` and `for`. Any other call as a statement
/// (`self.show(x)`, `trace(...)`) is something a trace would see, and is refused.
struct FanOutSequenceReader {
    let reader: PyramidReader
    let target: MigrationTarget

    enum Outcome {
        case sequence(FanOutSequence)
        /// Left alone, with the index of its notify statement: the calls are reported once, here.
        case refused(Refusal, lastIndex: Int)
    }

    func read(_ list: [CodeBlockItemSyntax], at index: Int) -> Outcome? {
        guard let groupName = FanOutReader.groupCall(list[index], "enter") else { return nil }
        // `enter(); call { }` pairs, as many as there are.
        var members: [(enter: CodeBlockItemSyntax, statement: CodeBlockItemSyntax, call: FunctionCallExprSyntax, matched: PyramidReader.MatchedCall)] = []
        var position = index
        while position + 1 < list.count, FanOutReader.groupCall(list[position], "enter") == groupName {
            guard let call = PyramidReader.callStatement(list[position + 1]), case .call(let matched) = reader.match(call) else { return nil }
            members.append((list[position], list[position + 1], call, matched))
            position += 2
        }
        guard members.count >= 2, position < list.count, FanOutReader.groupCall(list[position], "notify", allowingArguments: true) == groupName,
              let declaration = list[..<index].last(where: { FanOutReader.isGroupDeclaration($0, groupName) }) else { return nil }
        let notifyStatement = list[position]
        do throws(Refusal) {
            // The group does nothing else in the block.
            let covered = Set(members.flatMap { [$0.enter.id, $0.statement.id] } + [notifyStatement.id, declaration.id])
            for item in list where !covered.contains(item.id) && StatementText.mentions([item], groupName) {
                throw Refusal("the group `\(groupName)` is used outside its calls and its notify block", at: item)
            }
            let fanOutReader = FanOutReader(reader: reader, target: target)
            guard let notify = try fanOutReader.readNotify(notifyStatement, groupName: groupName) else { return nil }
            var read: [FanOutSequence.Member] = []
            var capture: String?
            for member in members {
                let callee = member.matched.callee
                try fanOutReader.checkCallee(callee, of: member.call)
                var callbackReader = FanOutCallbackReader(reader: reader, groupName: groupName)
                callbackReader.readsSeveralValues = true
                let callback = try callbackReader.read(member.matched.handler, callee: callee)
                let memberCapture = try FanOutReader.selfCapture(member.matched.handler)
                if let memberCapture, let capture, memberCapture != capture {
                    throw Refusal("the callbacks capture `self` differently", at: member.matched.handler)
                }
                capture = capture ?? memberCapture
                read.append(FanOutSequence.Member(enter: member.enter, statement: member.statement, call: member.call, callee: callee, callback: callback))
            }
            if let closure = FanOutReader.notifyClosure(notifyStatement) {
                let notifyCapture = try FanOutReader.selfCapture(closure)
                if let notifyCapture, let capture, notifyCapture != capture, StatementText.mentionsSelf(notify.body) {
                    throw Refusal("the callbacks and the notify block capture `self` differently", at: closure)
                }
                capture = capture ?? notifyCapture
            }
            let sequence = FanOutSequence(groupDeclaration: declaration, groupName: groupName, members: read, notify: notify, selfCapture: capture,
                                          blockVariables: FanOutReader.blockVariables(before: index, in: list))
            try Self.checkOrderCannotShow(sequence)
            return .sequence(sequence)
        } catch {
            return .refused(error, lastIndex: position)
        }
    }

    // MARK: - The order the callbacks run in

    /// Methods that change the value they are called on (`items.append(x)`): a change of that
    /// variable, not a call anything else sees.
    private static let changingMethods: Set<String> = [
        "append", "insert", "remove", "removeAll", "removeFirst", "removeLast", "removeValue", "merge", "formUnion",
        "formIntersection", "subtract", "updateValue", "sort", "reverse", "shuffle", "popLast",
    ]

    /// Refuses a sequence whose callbacks' code could show the order it ran in.
    static func checkOrderCannotShow(_ sequence: FanOutSequence) throws(Refusal) {
        let blockVariables = sequence.blockVariables
        var changes: [Set<String>] = []
        var mentions: [Set<String>] = []
        for member in sequence.members {
            let code = member.callback.success + (member.callback.failure ?? [])
            var own = Set(member.callback.valueNames ?? []).union([member.callback.valueName, member.callback.errorName].compactMap { $0 })
            var changed: Set<String> = []
            try readChanges(code, blockVariables: blockVariables, own: &own, changed: &changed)
            changes.append(changed)
            mentions.append(Set(ValueThreading.reads(in: code.map(Syntax.init))).subtracting(own))
        }
        for (position, changed) in changes.enumerated() {
            for (other, read) in mentions.enumerated() where other != position {
                if let shared = changed.intersection(read.union(changes[other])).sorted().first {
                    throw Refusal("two callbacks of the group use `\(shared)`, which one of them changes: the order they run in would show, "
                                  + "and the converted code awaits the calls in order", at: sequence.members[position].call)
                }
            }
        }
    }

    /// The block variables `code` changes, or a refusal naming what else it does. `own`: names
    /// the callback declares (changing them shows nowhere).
    private static func readChanges(_ code: [CodeBlockItemSyntax], blockVariables: Set<String>, own: inout Set<String>,
                                    changed: inout Set<String>) throws(Refusal) {
        func changes(_ target: ExprSyntax, at node: some SyntaxProtocol) throws(Refusal) {
            guard let root = rootName(target) else {
                throw Refusal("a callback of the group changes `\(target.trimmedDescription)`, which the order the callbacks run in could show", at: node)
            }
            if own.contains(root) { return }
            guard blockVariables.contains(root) else {
                throw Refusal("a callback of the group changes `\(target.trimmedDescription)`, not a variable of this block, which the order "
                              + "the callbacks run in could show", at: node)
            }
            changed.insert(root)
        }
        for item in code {
            switch item.item {
            case .decl(let declaration):
                guard declaration.is(VariableDeclSyntax.self) else {
                    throw Refusal("a declaration other than a variable in a callback of the group", at: declaration)
                }
                own.formUnion(AsyncCallSiteWriter.declaredNames([item]))
            case .stmt(let statement):
                if let forStatement = statement.as(ForStmtSyntax.self) {
                    own.formUnion(forStatement.pattern.tokens(viewMode: .sourceAccurate).compactMap { token in
                        if case .identifier(let name) = token.tokenKind { return name }
                        return nil
                    })
                    try readChanges(Array(forStatement.body.statements), blockVariables: blockVariables, own: &own, changed: &changed)
                } else if let expressionStatement = statement.as(ExpressionStmtSyntax.self) {
                    try readExpression(expressionStatement.expression, blockVariables: blockVariables, own: &own, changed: &changed)
                } else if statement.is(BreakStmtSyntax.self) || statement.is(ContinueStmtSyntax.self) {
                    continue
                } else {
                    throw Refusal("a callback of the group does more than change variables of this block", at: statement)
                }
            case .expr(let expression):
                if let sequenceExpression = expression.as(SequenceExprSyntax.self) {
                    let elements = Array(sequenceExpression.elements)
                    if elements.count == 3, isAssignment(elements[1]) {
                        try changes(elements[0], at: expression)
                        continue
                    }
                }
                if let call = expression.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
                   changingMethods.contains(member.declName.baseName.text), let base = member.base {
                    try changes(base, at: expression)
                    continue
                }
                try readExpression(expression, blockVariables: blockVariables, own: &own, changed: &changed)
            }
        }
    }

    /// `if`, `switch` and `do` bodies read as code; anything else is not only a change of variables.
    private static func readExpression(_ expression: ExprSyntax, blockVariables: Set<String>, own: inout Set<String>,
                                       changed: inout Set<String>) throws(Refusal) {
        if let ifExpression = expression.as(IfExprSyntax.self) {
            var inner = own
            for condition in ifExpression.conditions {
                if let binding = condition.condition.as(OptionalBindingConditionSyntax.self) {
                    inner.formUnion(binding.pattern.tokens(viewMode: .sourceAccurate).compactMap { token in
                        if case .identifier(let name) = token.tokenKind { return name }
                        return nil
                    })
                }
            }
            try readChanges(Array(ifExpression.body.statements), blockVariables: blockVariables, own: &inner, changed: &changed)
            switch ifExpression.elseBody {
            case .codeBlock(let block): try readChanges(Array(block.statements), blockVariables: blockVariables, own: &own, changed: &changed)
            case .ifExpr(let elseIf): try readExpression(ExprSyntax(elseIf), blockVariables: blockVariables, own: &own, changed: &changed)
            case nil: break
            }
            return
        }
        if let switchExpression = expression.as(SwitchExprSyntax.self) {
            for element in switchExpression.cases {
                guard let switchCase = element.as(SwitchCaseSyntax.self) else {
                    throw Refusal("an `#if` inside a switch in a callback of the group", at: element)
                }
                var inner = own
                inner.formUnion(switchCase.label.tokens(viewMode: .sourceAccurate).compactMap { token in
                    if case .identifier(let name) = token.tokenKind { return name }
                    return nil
                })
                try readChanges(Array(switchCase.statements), blockVariables: blockVariables, own: &inner, changed: &changed)
            }
            return
        }
        throw Refusal("a callback of the group runs `\(expression.trimmedDescription.prefix(40))`, which the order the callbacks run in could show",
                      at: expression)
    }

    /// `=` or a compound assignment (`+=`).
    private static func isAssignment(_ expression: ExprSyntax) -> Bool {
        if expression.is(AssignmentExprSyntax.self) { return true }
        guard let text = expression.as(BinaryOperatorExprSyntax.self)?.operator.text else { return false }
        return text.hasSuffix("=") && !["==", "!=", "<=", ">=", "===", "!=="].contains(text)
    }

    /// The variable an expression changes: `items` of `items[3].name`, `result!.count`.
    private static func rootName(_ expression: ExprSyntax) -> String? {
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base {
            if base.is(DeclReferenceExprSyntax.self) && base.trimmedDescription == "self" { return nil }
            return rootName(base)
        }
        if let subscriptCall = expression.as(SubscriptCallExprSyntax.self) { return rootName(subscriptCall.calledExpression) }
        if let unwrap = expression.as(ForceUnwrapExprSyntax.self) { return rootName(unwrap.expression) }
        if let chain = expression.as(OptionalChainingExprSyntax.self) { return rootName(chain.expression) }
        return nil
    }
}
