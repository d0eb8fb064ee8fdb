import SwiftSyntax

/// Reads the callback of a fan-out's call into a ``FanOut/Callback``: its code split into what
/// runs with the value and what runs with the error, with the group's `leave()` taken out.
///
/// The `leave()` must run exactly once on every path, or the original's notify block would run
/// early or never: as `defer { group.leave() }` first, as the last statement (when no path
/// returns before it), or as the last statement of each branch (before the error branch's
/// `return`). Shapes read, after that:
/// - `Result`: one `switch result { case .success(let v): ... case .failure(let e): ... }`, or one
///   `if case .success(let v) = result { ... }` (or `.failure`), with or without `else`;
/// - an optional error: `if let error { ... } else { ... }`, or `if let error { ...; return }` first;
/// - a value or nothing: the whole body runs with the value.
struct FanOutCallbackReader {
    let reader: PyramidReader
    /// The `DispatchGroup` counting the callbacks; nil for a plain loop.
    let groupName: String?
    /// Callbacks of several values and no error are read (``FanOutSequence``, whose writer
    /// takes the tuple apart).
    var readsSeveralValues = false

    func read(_ closure: ClosureExprSyntax, callee: CalleeSummary) throws(Refusal) -> FanOut.Callback {
        let expected = callee.shape.closureParameters.count
        let names = PyramidReader.parameterNames(closure) ?? (expected == 0 ? [] : nil)
        guard let names, names.count == expected else {
            throw Refusal(names == nil && expected > 0 ? "the callback names its parameters implicitly (`$0`)"
                                                         : "the callback's parameters do not match the handler", at: closure)
        }
        var statements = Array(closure.statements)
        // Where the group's `leave()` stands decides which paths must be checked for it.
        var leave = groupName == nil ? LeavePlace.none : .eachBranch
        if let first = statements.first, isDeferredLeave(first) {
            statements.removeFirst()
            leave = .deferred
        } else if let last = statements.last, isLeave(last) {
            statements.removeLast()
            leave = .last
        }
        let useful = { (name: String) -> String? in name == "_" ? nil : name }
        var callback: FanOut.Callback
        var failureReturns = false
        if case .split = callee.shape {
            throw Refusal("separate success and failure callbacks are not fanned out", at: closure)
        }
        let named = names.filter { $0 != "_" }
        let ignoresOutcome = callee.shape.canFail && !named.contains { StatementText.mentions(statements, $0) }
        switch callee.shape {
        case _ where ignoresOutcome:
            callback = FanOut.Callback(valueName: nil, success: statements, ignoresOutcome: true)
        case .nothing:
            callback = FanOut.Callback(valueName: nil, success: statements)
        case .value:
            callback = FanOut.Callback(valueName: useful(names[0]), success: statements)
        case .tuple(_, nil) where readsSeveralValues:
            callback = FanOut.Callback(valueName: nil, success: statements, valueNames: names)
        case .result:
            callback = try resultSplit(statements, subject: names[0], at: closure)
        case .errorOnly:
            (callback, failureReturns) = try errorSplit(statements, errorName: names[0], at: closure)
        case .optionalValueAndError:
            (callback, failureReturns) = try errorSplit(statements, errorName: names[1], at: closure)
            callback.valueName = useful(names[0])
            if let value = callback.valueName {
                if StatementText.mentions(callback.failure ?? [], value) {
                    throw Refusal("the failure branch uses the value sent together with the error", at: closure)
                }
                try PyramidReader.requireForceUnwrappedOnly(value, in: callback.success)
                callback.unwrapsValue = true
            }
        default:
            throw Refusal("a fan-out whose callbacks take this handler shape is not converted yet; "
                          + "give the callee a `Result` or `(T?, Error?)` handler, or convert the loop by hand", at: closure)
        }
        if let typed = callee.typedFailure, let error = callback.errorName,
           PyramidReader.readsAsItsType(error, in: callback.failure ?? []) {
            throw Refusal("the failure branch reads `\(error)` as the callee's `\(typed)`, but a `catch` gets `any Error`; "
                          + "convert this call by hand (`error as? \(typed)`)", at: closure)
        }
        switch leave {
        case .none, .deferred:
            break
        case .last where failureReturns:
            // The error branch's `return` skips the last statement: it must leave itself.
            guard let last = callback.failure?.last, isLeave(last) else {
                throw Refusal("the error branch returns before `\(groupName!).leave()`, so the original never notifies after a failure; "
                              + "call `leave()` before that `return` (or use `defer { \(groupName!).leave() }`) if it should", at: closure)
            }
            callback.failure?.removeLast()
        case .last:
            break
        case .eachBranch:
            guard let last = callback.success.last, isLeave(last) else { throw leftOnSomePaths(closure) }
            callback.success.removeLast()
            if var failure = callback.failure {
                guard let last = failure.last, isLeave(last) else { throw leftOnSomePaths(closure) }
                failure.removeLast()
                callback.failure = failure
            }
        }
        for part in [callback.success, callback.failure ?? []] {
            if let groupName, StatementText.mentions(part, groupName) { throw leftOnSomePaths(closure) }
            try checkPlain(part)
        }
        return callback
    }

    /// Where the callback calls the group's `leave()`.
    private enum LeavePlace {
        /// A plain loop: no group.
        case none
        /// `defer { group.leave() }` first: every path.
        case deferred
        /// The last statement: every path that does not return before it.
        case last
        /// The last statement of each branch.
        case eachBranch
    }

    private func leftOnSomePaths(_ closure: ClosureExprSyntax) -> Refusal {
        Refusal("the callback calls `\(groupName ?? "group").leave()` on some paths only, or more than once; "
                + "the group's notify block depends on every path calling it once (use `defer { \(groupName ?? "group").leave() }`)", at: closure)
    }

    // MARK: - Shapes

    /// `switch result { case .success(let v): S  case .failure(let e): F }`.
    private func resultSplit(_ statements: [CodeBlockItemSyntax], subject: String, at closure: ClosureExprSyntax) throws(Refusal) -> FanOut.Callback {
        if let callback = ifCaseSplit(statements, subject: subject) { return callback }
        guard statements.count == 1, let switchExpression = PyramidReader.expression(statements[0])?.as(SwitchExprSyntax.self),
              switchExpression.subject.trimmedDescription == subject else {
            throw Refusal("the callback does not consist of one `switch \(subject)`", at: closure)
        }
        var success: (String?, [CodeBlockItemSyntax])?
        var failure: (String?, [CodeBlockItemSyntax])?
        for element in switchExpression.cases {
            guard let switchCase = element.as(SwitchCaseSyntax.self), case .case(let label) = switchCase.label,
                  label.caseItems.count == 1, let item = label.caseItems.first, item.whereClause == nil else {
                throw Refusal("a switch on Result with `default:` or several patterns in a case", at: element)
            }
            var body = Array(switchCase.statements)
            if StatementText.mentions(body, subject) {
                throw Refusal("a case of the switch reads `\(subject)` itself, which the converted code does not have", at: switchCase)
            }
            // `case .failure: break` does nothing.
            if body.count == 1, body[0].item.is(BreakStmtSyntax.self) { body = [] }
            if let name = PyramidReader.caseBinding(item.pattern, "success") {
                success = (name.name, body)
            } else if let name = PyramidReader.caseBinding(item.pattern, "failure") {
                failure = (name.name, body)
            } else {
                throw Refusal("a case of the switch on Result this tool does not read", at: switchCase)
            }
        }
        guard let success, let failure else { throw Refusal("the switch on Result lacks a case", at: switchExpression) }
        return FanOut.Callback(valueName: success.0, success: success.1, errorName: failure.0, failure: failure.1)
    }

    /// `if case .success(let v) = result { S }` (the failure does nothing), `if case .failure(let e)
    /// = result { F }` (the success does nothing), either with an `else` running the other.
    private func ifCaseSplit(_ statements: [CodeBlockItemSyntax], subject: String) -> FanOut.Callback? {
        guard statements.count == 1, let ifExpression = PyramidReader.expression(statements[0])?.as(IfExprSyntax.self),
              ifExpression.conditions.count == 1, let condition = ifExpression.conditions.first?.condition.as(MatchingPatternConditionSyntax.self),
              condition.initializer.value.trimmedDescription == subject else { return nil }
        guard let elseStatements = PyramidReader.elseStatements(of: ifExpression) else { return nil }
        let body = Array(ifExpression.body.statements)
        // The converted code has no `result` to read (the writers bind the value or the error).
        if StatementText.mentions(body + elseStatements, subject) { return nil }
        if let success = PyramidReader.caseBinding(condition.pattern, "success") {
            return FanOut.Callback(valueName: success.name, success: body, errorName: nil, failure: elseStatements)
        }
        if let failure = PyramidReader.caseBinding(condition.pattern, "failure") {
            return FanOut.Callback(valueName: nil, success: elseStatements, errorName: failure.name, failure: body)
        }
        return nil
    }

    /// `if let error { F } else { S }`, or `if let error { F; return } S` (also `if let e = error`),
    /// as ``PyramidReader/errorSplit(_:errorName:at:)`` reads it. Returns whether the error
    /// branch ended with a `return` (the form without `else`).
    private func errorSplit(_ statements: [CodeBlockItemSyntax], errorName: String,
                            at closure: ClosureExprSyntax) throws(Refusal) -> (FanOut.Callback, Bool) {
        let split = try reader.errorSplit(statements, errorName: errorName, at: closure)
        let returns = statements.first.flatMap { PyramidReader.expression($0)?.as(IfExprSyntax.self) }?.elseBody == nil
        return (FanOut.Callback(success: split.success, errorName: split.failure.errorName, failure: split.failure.statements), returns)
    }

    // MARK: - Checks

    /// `group.leave()`.
    private func isLeave(_ item: CodeBlockItemSyntax) -> Bool {
        guard let groupName, let call = PyramidReader.callStatement(item), call.arguments.isEmpty, call.trailingClosure == nil,
              let member = call.calledExpression.as(MemberAccessExprSyntax.self) else { return false }
        return member.declName.baseName.text == "leave" && member.base?.trimmedDescription == groupName
    }

    /// `defer { group.leave() }`.
    private func isDeferredLeave(_ item: CodeBlockItemSyntax?) -> Bool {
        guard let deferStatement = item?.item.as(DeferStmtSyntax.self), deferStatement.body.statements.count == 1,
              let only = deferStatement.body.statements.first else { return false }
        return isLeave(only)
    }

    /// Code moved into a promise handler or a loop over results must not leave it early, and
    /// must not start another callback (that one would stay nested).
    private func checkPlain(_ statements: [CodeBlockItemSyntax]) throws(Refusal) {
        let finder = FanOutBodyChecker(reader: reader)
        for statement in statements {
            finder.walk(statement)
            if let (reason, node) = finder.problem { throw Refusal(reason, at: node) }
        }
    }
}

/// Finds what stops a fan-out callback's code from running unchanged in a promise handler or
/// in the body of a `for await` loop.
final class FanOutBodyChecker: SyntaxVisitor {
    let reader: PyramidReader
    private(set) var problem: (String, Syntax)?
    /// The first call of a completion-handler function, at any depth.
    private(set) var knownCall: FunctionCallExprSyntax?
    private var closureDepth = 0

    init(reader: PyramidReader) {
        self.reader = reader
        super.init(viewMode: .sourceAccurate)
    }

    private func note(_ reason: String, _ node: some SyntaxProtocol) -> SyntaxVisitorContinueKind {
        if problem == nil { problem = (reason, Syntax(node)) }
        return .skipChildren
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { closureDepth += 1; return .visitChildren }
    override func visitPost(_ node: ClosureExprSyntax) { closureDepth -= 1 }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind {
        closureDepth == 0 ? note("an early `return` inside a fan-out's callback", node) : .visitChildren
    }
    override func visit(_ node: GuardStmtSyntax) -> SyntaxVisitorContinueKind {
        closureDepth == 0 ? note("a `guard` inside a fan-out's callback", node) : .visitChildren
    }
    override func visit(_ node: DeferStmtSyntax) -> SyntaxVisitorContinueKind {
        closureDepth == 0 ? note("`defer` inside a fan-out's callback", node) : .visitChildren
    }
    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if case .none = reader.match(node) { return .visitChildren }
        if knownCall == nil { knownCall = node }
        return note("a callback started inside a fan-out's callback (convert the inner call first, or by hand)", node)
    }
}
