import SwiftSyntax

/// The promise form's reading of callbacks that stop early: `guard case .success(let invites) =
/// result, let invite = invites.first(where: ...) else { B; return }` before the next call, and
/// `if C { X; return }` / `guard C else { X; return }` among the statements a callback runs before
/// the next call.
///
/// Each is exact in a chain: the handler tests the same conditions at the same point, on the
/// same thread, and runs the same code when one fails; a handler that has a next step then throws
/// a case of the local error type meaning "the callback returned here", which the `catch` matches
/// first and ignores, so nothing after it runs, as nothing did after the `return` (the last
/// handler keeps its `return`).
extension PyramidReader {
    /// `guard case .success(let v) = result, C... else { B; return }` first, then the rest R:
    /// R on success; B for any error (it reads neither the value nor `result`), and where C
    /// fails, which the handler tests before R (`exit`, the guard kept for what it declares).
    func guardCaseResultSplit(_ statements: [CodeBlockItemSyntax], subject: String)
        -> (valueName: String?, success: [CodeBlockItemSyntax], failure: Pyramid.Failure, exit: Pyramid.ExitGuard?)? {
        guard let first = statements.first, let guardStatement = first.item.as(GuardStmtSyntax.self),
              let pattern = guardStatement.conditions.first?.condition.as(MatchingPatternConditionSyntax.self),
              pattern.initializer.value.trimmedDescription == subject, let binding = Self.caseBinding(pattern.pattern, "success"),
              let branch = Self.droppingFinalReturnStatement(Array(guardStatement.body.statements)) else { return nil }
        let rest = Array(statements.dropFirst())
        if mentionsName(branch, subject) || mentionsName(rest, subject) { return nil }
        if let name = binding.name, mentionsName(branch, name) { return nil }
        let conditions = guardStatement.conditions.dropFirst().map { Syntax($0.condition) }
        let failure = Pyramid.Failure(statements: branch, errorName: nil)
        guard !conditions.isEmpty else { return (binding.name, rest, failure, nil) }
        // A later condition reading `result` again is not one this reading can move.
        if conditions.contains(where: { ValueThreading.reads(in: [$0]).contains(subject) }) { return nil }
        return (binding.name, rest, failure, Pyramid.ExitGuard(statement: first, conditions: conditions, statements: branch))
    }

    /// Top-level `if C { X; return }` (no `else`) and `guard C else { X; return }` among the
    /// statements a callback runs before its next call: the `return`s that end them (a handler
    /// with a next step writes each as `throw Failure.returned`). Nil when a statement leaves
    /// early any other way, or hides a callback in its test or branch.
    func earlyExits(_ statements: [CodeBlockItemSyntax]) -> [(statement: CodeBlockItemSyntax, exit: ReturnStmtSyntax)]? {
        var exits: [(statement: CodeBlockItemSyntax, exit: ReturnStmtSyntax)] = []
        for statement in statements {
            let branch: CodeBlockSyntax
            let conditions: ConditionElementListSyntax
            if let guardStatement = statement.item.as(GuardStmtSyntax.self) {
                (branch, conditions) = (guardStatement.body, guardStatement.conditions)
            } else if let ifExpression = Self.expression(statement)?.as(IfExprSyntax.self), ifExpression.elseBody == nil,
                      ifExpression.body.statements.last?.item.is(ReturnStmtSyntax.self) == true {
                (branch, conditions) = (ifExpression.body, ifExpression.conditions)
            } else {
                continue
            }
            guard let last = branch.statements.last?.item.as(ReturnStmtSyntax.self), last.expression == nil,
                  let code = Self.droppingFinalReturnStatement(Array(branch.statements)),
                  (try? checkPlain(code, where: "a callback")) != nil, (try? checkPlainNode(Syntax(conditions))) != nil else { return nil }
            exits.append((statement, last))
        }
        return exits.isEmpty ? nil : exits
    }
}
