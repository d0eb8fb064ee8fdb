import SwiftSyntax

/// The promise form's reading of callbacks beyond the flat shapes: a callback whose whole body
/// is one `DispatchQueue.main.async { }` hop, `guard error == nil else { ...; return }` as the
/// error check, a combined `guard let user, error == nil else { ...; return }`, and the branch a
/// `(T?, Error?)` or `(Bool, Error?)` callback runs for an answer of neither a value nor an error
/// (`guard let user else { ...; return }`, `guard ok else { ...; return }` after the error check).
///
/// Each is exact in a chain: the alternative rejects that answer with
/// `PMKError.invalidCallingConvention` (Vow's `resolve(value, error)`, and the `(Bool, Error?)`
/// alternatives for `(false, nil)`), so the `catch` runs the callback's own branch for that error
/// and its error branch for any other; a combined `guard` ran the same branch for both anyway.
/// (The async form keeps such callbacks as they are: ``InlinePyramidWriter``.)
extension PyramidReader {
    /// `DispatchQueue.main.async { [weak self] in ... }` as a callback's only statement, with no
    /// call of a completion-handler function inside: the last level, whose code all runs on the
    /// main queue. `capture` is the chain's capture list (the outermost callback's).
    /// `unwrapping`: the hop began `guard let self, let user else { return }` (`let user = user`
    /// too): the name the value is bound to and the parameter it unwraps; nothing ran without it.
    func wholeBodyHop(_ statements: [CodeBlockItemSyntax], capture: String?)
        throws(Refusal) -> (hop: Pyramid.MainHop, statements: [CodeBlockItemSyntax], unwrapping: (bound: String, parameter: String)?)? {
        guard statements.count == 1, let hop = Self.mainQueueHop(statements[0]) else { return nil }
        if containsKnownCall(hop) { return nil }
        var inner = Array(hop.statements)
        guard let list = hop.signature?.capture else { return (.handlers, inner, nil) }
        let own = list.trimmedDescription.filter { $0 != " " } == "[weakself]" ? "[weak self]" : "[unowned self]"
        if own == capture { return (.handlers, inner, nil) }
        guard capture == nil, own == "[weak self]" else {
            throw Refusal("`\(list.trimmedDescription)` on a hop to the main queue inside a callback that takes `\(capture ?? "")`", at: list)
        }
        // `self` is held strongly until the answer arrives, weakly during the hop: each handler
        // keeps the hop as written.
        var guardingSelf: String?
        var unwrapping: (bound: String, parameter: String)?
        if let first = inner.first, InlinePyramidWriter.unwrapsSelf(first) {
            guardingSelf = first.trimmedDescription
            inner.removeFirst()
        } else if let first = inner.first?.item.as(GuardStmtSyntax.self), first.conditions.count == 2,
                  first.body.statements.count == 1, let ret = first.body.statements.first?.item.as(ReturnStmtSyntax.self), ret.expression == nil,
                  let selfBinding = first.conditions.first?.condition.as(OptionalBindingConditionSyntax.self),
                  ["self", "`self`"].contains(selfBinding.pattern.trimmedDescription),
                  selfBinding.initializer == nil || selfBinding.initializer?.value.trimmedDescription == "self",
                  let value = first.conditions.last?.condition.as(OptionalBindingConditionSyntax.self),
                  value.bindingSpecifier.tokenKind == .keyword(.let), let bound = value.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
            // `guard let self, let user else { return }`: the test of `self` stays first in the hop.
            guardingSelf = "guard let self else { return }"
            unwrapping = (bound, value.initializer?.value.trimmedDescription ?? bound)
            inner.removeFirst()
        }
        return (.kept(opening: "DispatchQueue.main.async { \(list.trimmedDescription) in", guardingSelf: guardingSelf), inner, unwrapping)
    }

    /// `guard error == nil else { F; return }` first: the error check, its branch reading the
    /// error as `error!` (anything else reads it as optional, which a `catch`'s error is not).
    func errorGuardSplit(_ statements: [CodeBlockItemSyntax], errorName: String) throws(Refusal) -> (success: [CodeBlockItemSyntax], failure: Pyramid.Failure)? {
        guard let guardStatement = statements.first?.item.as(GuardStmtSyntax.self), guardStatement.conditions.count == 1,
              let condition = guardStatement.conditions.first?.condition.as(ExprSyntax.self),
              Self.isNilTest(condition, errorName, equal: true),
              let failure = Self.droppingFinalReturnStatement(Array(guardStatement.body.statements)) else { return nil }
        try Self.requireForceUnwrappedOnly(errorName, in: failure, reading: "error")
        // A branch that does not read the error binds none (an unused binding draws a warning).
        let reads = mentionsName(failure, errorName)
        return (Array(statements.dropFirst()), Pyramid.Failure(statements: failure, errorName: reads ? errorName : nil, unwrapsError: reads))
    }

    /// `guard let user, error == nil else { F; return }` (either order, `let user = user` too) or,
    /// for a flag, `guard ok, error == nil else { F; return }`: one branch for an error and for
    /// neither a value nor an error, so the `catch` runs it for any error, the error declared nil
    /// for the second answer. The branch must not read the value (nil or `false` there, unless an
    /// error came with it).
    /// Returns the success statements and the branch, and the name the value is bound to.
    func combinedGuardSplit(_ statements: [CodeBlockItemSyntax], valueName: String, errorName: String,
                            isFlag: Bool) throws(Refusal) -> (success: [CodeBlockItemSyntax], failure: Pyramid.Failure, boundName: String)? {
        guard let guardStatement = statements.first?.item.as(GuardStmtSyntax.self), guardStatement.conditions.count == 2 else { return nil }
        var bound: String?
        var checksError = false
        for element in guardStatement.conditions {
            if let expression = element.condition.as(ExprSyntax.self) {
                if Self.isNilTest(expression, errorName, equal: true) { checksError = true; continue }
                if isFlag, expression.as(DeclReferenceExprSyntax.self)?.baseName.text == valueName { bound = valueName; continue }
                return nil
            }
            guard !isFlag, let name = Self.unwrappedName(element.condition, of: valueName) else { return nil }
            bound = name
        }
        guard checksError, let bound, let failure = Self.droppingFinalReturnStatement(Array(guardStatement.body.statements)) else { return nil }
        if mentionsName(failure, valueName) {
            throw Refusal("the branch of `guard \(guardStatement.conditions.trimmedDescription) else` reads `\(valueName)`, which the chain's `catch` does not have; "
                          + "write the branch without it (it is \(isFlag ? "`false`" : "nil") there unless an error came with it)", at: guardStatement)
        }
        // The error is nil there for an answer of neither: the `catch` declares it so.
        let reads = mentionsName(failure, errorName)
        return (Array(statements.dropFirst()), Pyramid.Failure(statements: failure, errorName: reads ? errorName : nil, errorIsOptional: reads), bound)
    }

    /// After the error check: `guard let user else { N; return }` (`let user = user` too) or, for a
    /// flag, `guard ok else { N; return }` / `if !ok { N; return }`: the branch for an answer of
    /// neither a value nor an error. Returns the rest, the branch, and the name the value is bound to.
    /// Code before that test (reading neither the value nor the error) runs for both answers:
    /// it begins the success path and the branch.
    func neitherSplit(_ statements: [CodeBlockItemSyntax], valueName: String, errorName: String,
                      isFlag: Bool) throws(Refusal) -> (success: [CodeBlockItemSyntax], neither: Pyramid.Failure, boundName: String)? {
        guard let index = statements.firstIndex(where: { $0.item.is(GuardStmtSyntax.self) || Self.expression($0)?.is(IfExprSyntax.self) == true }) else { return nil }
        let before = Array(statements[..<index])
        if mentionsName(before, valueName) || mentionsName(before, errorName) { return nil }
        guard let split = try neitherTest(Array(statements[index...]), valueName: valueName, errorName: errorName, isFlag: isFlag) else { return nil }
        return (before + split.success, Pyramid.Failure(statements: before + split.neither.statements, errorName: nil), split.boundName)
    }

    private func neitherTest(_ statements: [CodeBlockItemSyntax], valueName: String, errorName: String,
                             isFlag: Bool) throws(Refusal) -> (success: [CodeBlockItemSyntax], neither: Pyramid.Failure, boundName: String)? {
        guard let first = statements.first else { return nil }
        var body: CodeBlockSyntax?
        var bound = valueName
        if let guardStatement = first.item.as(GuardStmtSyntax.self), guardStatement.conditions.count == 1,
           let condition = guardStatement.conditions.first?.condition {
            if isFlag {
                guard condition.as(ExprSyntax.self)?.as(DeclReferenceExprSyntax.self)?.baseName.text == valueName else { return nil }
            } else {
                guard let name = Self.unwrappedName(condition, of: valueName) else { return nil }
                bound = name
            }
            body = guardStatement.body
        } else if isFlag, let ifExpression = Self.expression(first)?.as(IfExprSyntax.self), ifExpression.elseBody == nil,
                  ifExpression.conditions.count == 1, let prefix = ifExpression.conditions.first?.condition.as(ExprSyntax.self)?.as(PrefixOperatorExprSyntax.self),
                  prefix.operator.text == "!", prefix.expression.as(DeclReferenceExprSyntax.self)?.baseName.text == valueName {
            body = ifExpression.body
        }
        guard let body, let neither = Self.droppingFinalReturnStatement(Array(body.statements)) else { return nil }
        for name in Set([valueName, errorName]) where mentionsName(neither, name) {
            throw Refusal("the branch for an answer of neither a value nor an error reads `\(name)`, which is nil or `false` there; "
                          + "write `nil` or `false` instead", at: body)
        }
        return (Array(statements.dropFirst()), Pyramid.Failure(statements: neither, errorName: nil), bound)
    }

    /// What the promise form reads of an `(Error?)`, `(T?, Error?)` or `(Bool, Error?)` callback
    /// beyond ``errorSplit(_:errorName:at:)``; nil where that reading (or its refusal) stands.
    struct AnswerSplit {
        var success: [CodeBlockItemSyntax]
        var failure: Pyramid.Failure
        var neither: Pyramid.Failure?
        /// The name the success path gives the value (`guard let u = user`).
        var boundName: String?

        var split: (success: [CodeBlockItemSyntax], failure: Pyramid.Failure) { (success, failure) }
    }

    func answerSplit(_ statements: [CodeBlockItemSyntax], shape: HandlerShape, names: [String],
                     at closure: ClosureExprSyntax) throws(Refusal) -> AnswerSplit? {
        let isFlag = shape == .successFlag
        switch shape {
        case .errorOnly:
            if let split = try errorGuardSplit(statements, errorName: names[0]) {
                return AnswerSplit(success: split.success, failure: split.failure)
            }
            return try errorAsideSplit(statements, errorName: names[0])
        case .optionalValueAndError, .successFlag:
            let value = names[0], error = names[1]
            guard value != "_" else { return nil }
            if !isFlag, let split = try valueFirstSplit(statements, valueName: value, errorName: error) { return split }
            if let combined = try combinedGuardSplit(statements, valueName: value, errorName: error, isFlag: isFlag) {
                return AnswerSplit(success: combined.success, failure: combined.failure, boundName: combined.boundName)
            }
            var checked = try errorGuardSplit(statements, errorName: error)
            let guarded = checked != nil
            if checked == nil, let ifExpression = statements.first.flatMap(Self.expression)?.as(IfExprSyntax.self), ifExpression.elseBody == nil {
                checked = try errorSplit(statements, errorName: error, at: closure)
            }
            guard let checked else { return nil }
            if let neither = try neitherSplit(checked.success, valueName: value, errorName: error, isFlag: isFlag) {
                return AnswerSplit(success: neither.success, failure: checked.failure, neither: neither.neither, boundName: neither.boundName)
            }
            // `if let error { ...; return }` alone is the flat reading's.
            return guarded && !isFlag ? AnswerSplit(success: checked.success, failure: checked.failure, boundName: nil) : nil
        default:
            return nil
        }
    }

    /// `if let user { S } else { F }`: F runs for an error and for an answer of neither, reading
    /// the error as optional. `if let user { S } else if let error { E } else { N }` (or `else if
    /// error != nil`, `else if error == nil { N }`): each answer its own branch. Without an `else`,
    /// nothing runs for either.
    func valueFirstSplit(_ statements: [CodeBlockItemSyntax], valueName: String, errorName: String) throws(Refusal) -> AnswerSplit? {
        guard statements.count == 1, let ifExpression = statements.first.flatMap(Self.expression)?.as(IfExprSyntax.self),
              ifExpression.conditions.count == 1 else { return nil }
        if let test = ifExpression.conditions.first?.condition.as(ExprSyntax.self) {
            return try valueTestSplit(ifExpression, test: test, valueName: valueName, errorName: errorName)
        }
        guard let bound = Self.unwrappedName(ifExpression.conditions.first!.condition, of: valueName) else { return nil }
        let success = Array(ifExpression.body.statements)
        let unused = { (name: String) -> Refusal in
            Refusal("a branch for a missing value reads `\(valueName)`, which is nil there; write `nil` instead", at: ifExpression)
        }
        switch ifExpression.elseBody {
        case nil:
            return AnswerSplit(success: success, failure: Pyramid.Failure(statements: [], errorName: nil), boundName: bound)
        case .codeBlock(let block):
            let failure = Array(block.statements)
            if mentionsName(failure, valueName) { throw unused(valueName) }
            let reads = mentionsName(failure, errorName)
            return AnswerSplit(success: success, failure: Pyramid.Failure(statements: failure, errorName: reads ? errorName : nil, errorIsOptional: reads),
                               boundName: bound)
        case .ifExpr(let inner):
            guard inner.conditions.count == 1, let condition = inner.conditions.first?.condition else { return nil }
            let body = Array(inner.body.statements)
            guard let other = Self.elseStatements(of: inner) else { return nil }
            var failure: Pyramid.Failure
            var neither: [CodeBlockItemSyntax]
            if let binding = condition.as(OptionalBindingConditionSyntax.self), binding.bindingSpecifier.tokenKind == .keyword(.let),
               let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
               binding.initializer == nil ? name == errorName : binding.initializer?.value.as(DeclReferenceExprSyntax.self)?.baseName.text == errorName {
                failure = Pyramid.Failure(statements: body, errorName: mentionsName(body, name) ? name : nil)
                neither = other
            } else if let expression = condition.as(ExprSyntax.self), Self.isNilTest(expression, errorName, equal: false) {
                failure = Pyramid.Failure(statements: body, errorName: nil)
                neither = other
            } else if let expression = condition.as(ExprSyntax.self), Self.isNilTest(expression, errorName, equal: true) {
                failure = Pyramid.Failure(statements: other, errorName: nil)
                neither = body
            } else {
                return nil
            }
            if failure.errorName == nil, mentionsName(failure.statements, errorName) {
                try Self.requireForceUnwrappedOnly(errorName, in: failure.statements, reading: "error")
                failure.errorName = errorName
                failure.unwrapsError = true
            }
            for name in Set([valueName, errorName]) where mentionsName(neither, name) {
                throw Refusal("the branch for an answer of neither a value nor an error reads `\(name)`, which is nil there; write `nil` instead", at: inner)
            }
            if mentionsName(failure.statements, valueName) { throw unused(valueName) }
            return AnswerSplit(success: success, failure: failure, neither: Pyramid.Failure(statements: neither, errorName: nil), boundName: bound)
        }
    }

    /// `if let error { X }` or `if error != nil { X }` first, without a `return`, then the rest R,
    /// which does not read the error: R on success, X then R on failure.
    func errorAsideSplit(_ statements: [CodeBlockItemSyntax], errorName: String) throws(Refusal) -> AnswerSplit? {
        guard let ifExpression = statements.first.flatMap(Self.expression)?.as(IfExprSyntax.self), ifExpression.elseBody == nil,
              ifExpression.conditions.count == 1, let condition = ifExpression.conditions.first?.condition else { return nil }
        let aside = Array(ifExpression.body.statements)
        let rest = Array(statements.dropFirst())
        if aside.last?.item.is(ReturnStmtSyntax.self) == true || mentionsName(rest, errorName) { return nil }
        var failure: Pyramid.Failure
        if let binding = condition.as(OptionalBindingConditionSyntax.self), binding.bindingSpecifier.tokenKind == .keyword(.let),
           let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
           binding.initializer == nil ? name == errorName : binding.initializer?.value.as(DeclReferenceExprSyntax.self)?.baseName.text == errorName {
            failure = Pyramid.Failure(statements: aside + rest, errorName: mentionsName(aside, name) ? name : nil)
        } else if let expression = condition.as(ExprSyntax.self), Self.isNilTest(expression, errorName, equal: false) {
            failure = Pyramid.Failure(statements: aside + rest, errorName: nil)
            if mentionsName(aside, errorName) {
                try Self.requireForceUnwrappedOnly(errorName, in: aside, reading: "error")
                failure.errorName = errorName
                failure.unwrapsError = true
            }
        } else {
            return nil
        }
        failure.comments = statements[0].leadingTrivia.compactMap { piece -> String? in
            switch piece {
            case .lineComment(let text), .docLineComment(let text): return text
            default: return nil
            }
        }
        return AnswerSplit(success: rest, failure: failure)
    }

    /// `if user == nil { F } else { S }` (or `!= nil`, the branches swapped), neither reading the
    /// value: F runs for an error and for an answer of neither, reading the error as optional.
    private func valueTestSplit(_ ifExpression: IfExprSyntax, test: ExprSyntax, valueName: String, errorName: String) throws(Refusal) -> AnswerSplit? {
        guard case .codeBlock(let block)? = ifExpression.elseBody else { return nil }
        let body = Array(ifExpression.body.statements), other = Array(block.statements)
        let (success, failure): ([CodeBlockItemSyntax], [CodeBlockItemSyntax])
        if Self.isNilTest(test, valueName, equal: true) {
            (success, failure) = (other, body)
        } else if Self.isNilTest(test, valueName, equal: false) {
            (success, failure) = (body, other)
        } else {
            return nil
        }
        if mentionsName(success, valueName) || mentionsName(failure, valueName) { return nil }
        let reads = mentionsName(failure, errorName)
        return AnswerSplit(success: success, failure: Pyramid.Failure(statements: failure, errorName: reads ? errorName : nil, errorIsOptional: reads))
    }

    /// `{ switch $0 { case .success(let v): ...  case .failure(let e): ... } }` for a `Result`
    /// handler, `$0` read nowhere else (an inner closure's `$0` is its own): `["$0"]`.
    static func dollarSwitchSubject(_ closure: ClosureExprSyntax, shape: HandlerShape) -> [String]? {
        guard case .result = shape, closure.signature == nil, closure.statements.count == 1,
              let switchExpression = closure.statements.first.flatMap(Self.expression)?.as(SwitchExprSyntax.self),
              switchExpression.subject.trimmedDescription == "$0" else { return nil }
        for token in switchExpression.cases.tokens(viewMode: .sourceAccurate) {
            if case .dollarIdentifier = token.tokenKind, !StatementText.isInsideClosure(token, below: switchExpression) { return nil }
        }
        return ["$0"]
    }

    /// A `switch result` whose `.failure` cases match errors of a named type first
    /// (`case .failure(SyncError.cancelled):`), then any error: the `catch` matches them in that
    /// order. So does one whose `.success` cases test the value first (`case .success(let v)
    /// where C:`, each binding it under one name), then take any value: the handler tests it in
    /// that order. Nil when there is no such case (the flat reading's), or for anything else.
    func patternedResultSplit(_ statements: [CodeBlockItemSyntax], subject: String, typedFailure: String?)
        -> (valueName: String?, success: [CodeBlockItemSyntax], failure: Pyramid.Failure, successCases: [(conditions: [Syntax], statements: [CodeBlockItemSyntax])])? {
        guard statements.count == 1, let switchExpression = Self.expression(statements[0])?.as(SwitchExprSyntax.self),
              switchExpression.subject.trimmedDescription == subject else { return nil }
        var success: (name: String?, statements: [CodeBlockItemSyntax])?
        var tested: [(name: String, condition: ExprSyntax, statements: [CodeBlockItemSyntax])] = []
        var patterned: [(pattern: String, statements: [CodeBlockItemSyntax])] = []
        var failure: Pyramid.Failure?
        for element in switchExpression.cases {
            guard let switchCase = element.as(SwitchCaseSyntax.self), case .case(let label) = switchCase.label, label.caseItems.count == 1,
                  let item = label.caseItems.first else { return nil }
            let body = Array(switchCase.statements)
            if let condition = item.whereClause?.condition {
                guard success == nil, let name = Self.caseBinding(item.pattern, "success")?.name else { return nil }
                tested.append((name, condition, body))
            } else if let binding = Self.caseBinding(item.pattern, "success"), success == nil {
                success = (binding.name, body)
            } else if let binding = Self.caseBinding(item.pattern, "failure"), failure == nil {
                failure = Pyramid.Failure(statements: body, errorName: binding.name)
            } else if failure == nil, let pattern = Self.failurePattern(item.pattern, typedFailure: typedFailure) {
                patterned.append((pattern, body))
            } else {
                return nil
            }
        }
        guard !patterned.isEmpty || !tested.isEmpty, let success, var failure else { return nil }
        failure.patterned = patterned
        guard !tested.isEmpty else { return (success.name, success.statements, failure, []) }
        // One name for the value in every `.success` case (the last may leave it unread).
        let name = tested[0].name
        guard tested.allSatisfy({ $0.name == name }), success.name == nil || success.name == name else { return nil }
        let cases = tested.map { (conditions: [Syntax($0.condition)], statements: $0.statements) } + [(conditions: [Syntax](), statements: success.statements)]
        return (name, cases.flatMap(\.statements), failure, cases)
    }

    /// `if case .success(let v) = result, C { A } else { B }`: A when the value came and C holds,
    /// B otherwise (for any error too). B reads neither the value nor `result`.
    func ifCaseResultSplit(_ statements: [CodeBlockItemSyntax], subject: String)
        -> (valueName: String?, success: [CodeBlockItemSyntax], failure: Pyramid.Failure, successCases: [(conditions: [Syntax], statements: [CodeBlockItemSyntax])])? {
        guard statements.count == 1, let ifExpression = Self.expression(statements[0])?.as(IfExprSyntax.self),
              let first = ifExpression.conditions.first?.condition.as(MatchingPatternConditionSyntax.self),
              first.initializer.value.trimmedDescription == subject, let binding = Self.caseBinding(first.pattern, "success") else { return nil }
        guard let other = Self.elseStatements(of: ifExpression) else { return nil }
        let body = Array(ifExpression.body.statements)
        if mentionsName(other, subject) || mentionsName(body, subject) { return nil }
        if let name = binding.name, mentionsName(other, name) { return nil }
        let failure = Pyramid.Failure(statements: other, errorName: nil)
        let rest = ifExpression.conditions.dropFirst().map { Syntax($0.condition) }
        guard !rest.isEmpty else { return (binding.name, body, failure, []) }
        return (binding.name, body + other, failure, [(conditions: rest, statements: body), (conditions: [], statements: other)])
    }

    /// `if case .failure(let error) = result, case .parseError(_) = error { A } else { B }` for a
    /// `Result<T, E>` handler whose `E` the tree names (a test waiting for one error, as SDK suites
    /// do): A when that error came, B (often nothing) for a value and for any other error. The
    /// `catch` matches `E.parseError(_)` for A. And `if case .success(let v) = result { A } else
    /// if case .failure(let e) = result { B }`: A for the value, B for any error; so is `if case
    /// .failure(let e) = result { B } else { A }`. Neither A nor B reads `result`; A does not read
    /// the error (only its pattern did), B reads no value.
    func ifCaseFailureSplit(_ statements: [CodeBlockItemSyntax], subject: String, typedFailure: String?)
        -> (valueName: String?, success: [CodeBlockItemSyntax], failure: Pyramid.Failure, successCases: [(conditions: [Syntax], statements: [CodeBlockItemSyntax])])? {
        guard statements.count == 1, let ifExpression = Self.expression(statements[0])?.as(IfExprSyntax.self),
              let first = ifExpression.conditions.first?.condition.as(MatchingPatternConditionSyntax.self),
              first.initializer.value.trimmedDescription == subject else { return nil }
        let body = Array(ifExpression.body.statements)
        if let success = Self.caseBinding(first.pattern, "success") {
            // `else if case .failure(let e) = result { B }`, nothing after it.
            guard ifExpression.conditions.count == 1, case .ifExpr(let elseIf)? = ifExpression.elseBody, elseIf.elseBody == nil,
                  elseIf.conditions.count == 1, let second = elseIf.conditions.first?.condition.as(MatchingPatternConditionSyntax.self),
                  second.initializer.value.trimmedDescription == subject, let failure = Self.caseBinding(second.pattern, "failure") else { return nil }
            let other = Array(elseIf.body.statements)
            if mentionsName(body, subject) || mentionsName(other, subject) { return nil }
            if let name = success.name, mentionsName(other, name) { return nil }
            return (success.name, body, Pyramid.Failure(statements: other, errorName: failure.name), [])
        }
        // `if case .failure(let e) = result { B } else { A }`: B for any error, A (often nothing)
        // for the value, which it does not read.
        if let failure = Self.caseBinding(first.pattern, "failure"), ifExpression.conditions.count == 1 {
            guard let other = Self.elseStatements(of: ifExpression) else { return nil }
            if mentionsName(body, subject) || mentionsName(other, subject) { return nil }
            return (nil, other, Pyramid.Failure(statements: body, errorName: failure.name), [])
        }
        guard let failure = Self.caseBinding(first.pattern, "failure"), let errorName = failure.name, let typedFailure,
              typedFailure.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }),
              ifExpression.conditions.count == 2,
              let test = ifExpression.conditions.last?.condition.as(MatchingPatternConditionSyntax.self),
              test.initializer.value.trimmedDescription == errorName,
              let pattern = Self.errorCasePattern(test.pattern, typedFailure: typedFailure) else { return nil }
        guard let other = Self.elseStatements(of: ifExpression) else { return nil }
        if mentionsName(body, subject) || mentionsName(other, subject) || mentionsName(body, errorName) || mentionsName(other, errorName) { return nil }
        var caught = Pyramid.Failure(statements: other, errorName: nil)
        caught.patterned = [(pattern, body)]
        return (nil, other, caught, [])
    }

    /// `.parseError(_)`, `.unknownError`, `.unexpectedResponse(500)` (no binding) of an error of
    /// type `typedFailure`: `TaxonomyError.parseError(_)`, the type named as a `catch` needs.
    static func errorCasePattern(_ pattern: PatternSyntax, typedFailure: String) -> String? {
        guard let expression = pattern.as(ExpressionPatternSyntax.self)?.expression else { return nil }
        let member: MemberAccessExprSyntax?
        if let call = expression.as(FunctionCallExprSyntax.self) {
            guard call.trailingClosure == nil,
                  call.arguments.allSatisfy({ !$0.expression.is(PatternExprSyntax.self) }) else { return nil }
            member = call.calledExpression.as(MemberAccessExprSyntax.self)
        } else {
            member = expression.as(MemberAccessExprSyntax.self)
        }
        guard let member, member.base == nil, member.declName.argumentNames == nil else { return nil }
        for token in expression.tokens(viewMode: .sourceAccurate) where token.tokenKind == .keyword(.let) || token.tokenKind == .keyword(.var) {
            return nil
        }
        return typedFailure + expression.trimmedDescription
    }

    /// `.failure(SyncError.cancelled)`: `SyncError.cancelled` (a type named, as a `catch` needs).
    /// `.failure(.notFound)` of a `Result<User, APIError>`: `APIError.notFound`, the callee's
    /// failure type named (the alternative rejects with that error as it came).
    static func failurePattern(_ pattern: PatternSyntax, typedFailure: String?) -> String? {
        guard let call = pattern.as(ExpressionPatternSyntax.self)?.expression.as(FunctionCallExprSyntax.self),
              let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.base == nil, member.declName.baseName.text == "failure",
              call.arguments.count == 1, let argument = call.arguments.first, argument.label == nil,
              let inner = argument.expression.as(MemberAccessExprSyntax.self) else { return nil }
        if inner.base != nil { return inner.trimmedDescription }
        guard let typedFailure, inner.declName.argumentNames == nil,
              typedFailure.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }) else { return nil }
        return typedFailure + inner.trimmedDescription
    }

    // MARK: - Helpers

    /// `error == nil` (or `nil == error`), `error != nil` with `equal: false`.
    /// (The parser leaves operators unfolded: `error == nil` is a sequence of three.)
    static func isNilTest(_ expression: ExprSyntax, _ name: String, equal: Bool) -> Bool {
        guard let sequence = expression.as(SequenceExprSyntax.self), sequence.elements.count == 3 else { return false }
        let elements = Array(sequence.elements)
        guard elements[1].as(BinaryOperatorExprSyntax.self)?.operator.text == (equal ? "==" : "!=") else { return false }
        let sides = [elements[0], elements[2]]
        return sides.contains { $0.as(DeclReferenceExprSyntax.self)?.baseName.text == name } && sides.contains { $0.is(NilLiteralExprSyntax.self) }
    }

    /// `let user` or `let user = user` (or `let u = user`): the name the value is bound to.
    static func unwrappedName(_ condition: ConditionElementSyntax.Condition, of valueName: String) -> String? {
        guard let binding = condition.as(OptionalBindingConditionSyntax.self), binding.bindingSpecifier.tokenKind == .keyword(.let),
              let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else { return nil }
        let name = pattern.identifier.text
        if let initializer = binding.initializer {
            return initializer.value.as(DeclReferenceExprSyntax.self)?.baseName.text == valueName ? name : nil
        }
        return name == valueName ? name : nil
    }

    /// Every read of `name` is `name!`.
    static func requireForceUnwrappedOnly(_ name: String, in statements: [CodeBlockItemSyntax], reading what: String) throws(Refusal) {
        for statement in statements {
            for token in statement.tokens(viewMode: .sourceAccurate) where token.tokenKind == .identifier(name) {
                guard let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
                if reference.parent?.is(ForceUnwrapExprSyntax.self) == true { continue }
                if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id { continue }
                throw Refusal("a branch tests `\(name) == nil` and reads the \(what) as optional (`\(name)!` is what a `catch`'s error reads as); "
                              + "write `if let \(name) { ... }` instead", at: reference)
            }
        }
    }

    static func droppingFinalReturnStatement(_ statements: [CodeBlockItemSyntax]) -> [CodeBlockItemSyntax]? {
        guard let last = statements.last, let ret = last.item.as(ReturnStmtSyntax.self), ret.expression == nil else { return nil }
        return Array(statements.dropLast())
    }

    func mentionsName(_ statements: [CodeBlockItemSyntax], _ name: String) -> Bool {
        StatementText.mentions(statements, name)
    }

    /// The statements of an `if`'s `else` block: none without one, nil for `else if`.
    static func elseStatements(of ifExpression: IfExprSyntax) -> [CodeBlockItemSyntax]? {
        switch ifExpression.elseBody {
        case nil: return []
        case .codeBlock(let block): return Array(block.statements)
        case .ifExpr: return nil
        }
    }
}
