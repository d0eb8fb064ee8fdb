import SwiftSyntax

/// What runs after a call where it is written: whether code follows it before its function
/// returns, or which function it ends. A synchronous function whose callback pyramid becomes a
/// `Task` makes its first call only when the task runs: a caller running code after calling it
/// (`model.refresh(); XCTAssertEqual(model.items, ["a"])`) would see the call not made yet, so the
/// call-site stage asks the index for such callers (``MigrationIndex/callWithCodeAfter(_:)``).
enum CallContinuation {
    /// `followed`: code runs after the call before the function (or closure, or file) it is in
    /// ends; `ends`: the function the call ends, when it is directly in one.
    /// A call whose value the statement uses is followed by that use.
    /// Not calls of a function of the tree's, and so neither: `super.viewDidLoad()` (it reaches
    /// the superclass's method, not the override it is written in), `.postComment(id)` (an
    /// enum case, or a static member), a call in a pattern (`case .search(let query):`).
    static func after(_ call: FunctionCallExprSyntax) -> (followed: Bool, ends: ExistingCall.EndedFunction?) {
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.base == nil || member.base?.is(SuperExprSyntax.self) == true {
            return (false, nil)
        }
        var node = Syntax(call)
        while let parent = node.parent, !parent.is(CodeBlockItemSyntax.self) {
            if parent.is(ClosureExprSyntax.self) || parent.is(MemberBlockItemSyntax.self) { return (true, nil) }
            if parent.is(ExpressionPatternSyntax.self) || parent.is(SwitchCaseLabelSyntax.self) || parent.is(MatchingPatternConditionSyntax.self) {
                return (false, nil)
            }
            node = parent
        }
        guard var item = node.parent?.as(CodeBlockItemSyntax.self), isWholeStatement(item, call) else { return (true, nil) }
        while true {
            guard let list = item.parent?.as(CodeBlockItemListSyntax.self) else { return (true, nil) }
            let rest = list.drop { $0.id != item.id }.dropFirst()
            if !rest.isEmpty && !(rest.count == 1 && rest.first!.item.as(ReturnStmtSyntax.self)?.expression == nil && rest.first!.item.is(ReturnStmtSyntax.self)) {
                return (true, nil)
            }
            guard let holder = list.parent else { return (true, nil) }
            if holder.is(SourceFileSyntax.self) || holder.is(ClosureExprSyntax.self) { return (false, nil) }
            if let block = holder.as(CodeBlockSyntax.self) {
                let owner = block.parent
                if let function = owner?.as(FunctionDeclSyntax.self) {
                    return (false, ended(function.name.text, function.signature.parameterClause.parameters))
                }
                if let initializer = owner?.as(InitializerDeclSyntax.self) {
                    return (false, ended("init", initializer.signature.parameterClause.parameters))
                }
                if owner?.is(AccessorDeclSyntax.self) == true || owner?.is(DeinitializerDeclSyntax.self) == true
                    || owner?.is(GuardStmtSyntax.self) == true || owner?.is(DeferStmtSyntax.self) == true {
                    return (false, nil)
                }
                if owner?.is(ForStmtSyntax.self) == true || owner?.is(WhileStmtSyntax.self) == true || owner?.is(RepeatStmtSyntax.self) == true {
                    return (true, nil)
                }
            }
            // An `if`, `switch`, `do` or `#if` block: what follows the statement holding it.
            var outer = Syntax(holder)
            while let parent = outer.parent, !parent.is(CodeBlockItemSyntax.self) {
                if parent.is(ClosureExprSyntax.self) || parent.is(MemberBlockItemSyntax.self) { return (true, nil) }
                outer = parent
            }
            guard let next = outer.parent?.as(CodeBlockItemSyntax.self) else { return (true, nil) }
            item = next
        }
    }

    private static func ended(_ name: String, _ parameters: FunctionParameterListSyntax) -> ExistingCall.EndedFunction {
        ExistingCall.EndedFunction(swiftName: CompletionFunction.swiftName(name, labels: CompletionFunction.labels(of: parameters)),
                                   parameters: parameters.map(ParameterShape.init))
    }

    /// The statement is the call, possibly tried, awaited, returned or discarded (`_ = load()`).
    private static func isWholeStatement(_ item: CodeBlockItemSyntax, _ call: FunctionCallExprSyntax) -> Bool {
        var expression: ExprSyntax?
        if let returned = item.item.as(ReturnStmtSyntax.self) {
            expression = returned.expression
        } else {
            expression = item.item.as(ExprSyntax.self)
        }
        while let current = expression {
            if current.id == call.id { return true }
            if let tried = current.as(TryExprSyntax.self) { expression = tried.expression; continue }
            if let awaited = current.as(AwaitExprSyntax.self) { expression = awaited.expression; continue }
            if let sequence = current.as(SequenceExprSyntax.self), sequence.elements.count == 3,
               sequence.elements.first?.is(DiscardAssignmentExprSyntax.self) == true, sequence.elements.dropFirst().first?.is(AssignmentExprSyntax.self) == true {
                expression = sequence.elements.last
                continue
            }
            if let assignment = current.as(InfixOperatorExprSyntax.self), assignment.leftOperand.is(DiscardAssignmentExprSyntax.self) {
                expression = assignment.rightOperand
                continue
            }
            return false
        }
        return false
    }
}
