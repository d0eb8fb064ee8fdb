import SwiftSyntax

/// Reads a statement calling a completion-handler function into a ``Pyramid``, or says why it
/// cannot be flattened without changing what the code does.
///
/// The handler of each level must have one of the shapes below; anything else is refused:
/// - `Result`: `switch result { case .success(let v): ... case .failure(let e): ... }`, no `default:`;
/// - an optional error: `if let error { ...; return }` first (or `if let error { } else { }`);
/// - a Bool flag followed by another call: `if ok { next } else { ... }`, `guard ok else { ...; return }`;
/// - a value or nothing: the whole body is the success path.
struct PyramidReader {
    let catalog: CalleeCatalog
    let target: MigrationTarget

    /// A call of a known completion-handler function with its handler written as a closure.
    struct MatchedCall {
        var callee: CalleeSummary
        var handler: ClosureExprSyntax
        var invocation: String
    }

    enum Match {
        case none
        /// Several functions take the call's labels and would convert it differently.
        case ambiguous
        case call(MatchedCall)
    }

    // MARK: - Matching calls

    /// The completion-handler function `call` reaches, found as the compiler would by what syntax
    /// shows: the receiver's type (``CalleeCatalog/callees(named:calledBy:)``), the base name and
    /// argument labels, then the number of parameters the closure takes. Several matches are one
    /// callee when they convert the call alike (``CalleeSummary/convertsLike(_:)``: a protocol
    /// requirement and its implementation); otherwise the call is ambiguous.
    func match(_ call: FunctionCallExprSyntax) -> Match {
        let callee = call.calledExpression
        let base: String
        if let reference = callee.as(DeclReferenceExprSyntax.self) {
            base = reference.baseName.text
        } else if let member = callee.as(MemberAccessExprSyntax.self), member.base != nil {
            base = member.declName.baseName.text
        } else {
            return .none
        }
        let candidates = catalog.callees(named: base, calledBy: call)
        if candidates.isEmpty { return .none }
        let listed = Array(call.arguments)
        var trailing: [ClosureExprSyntax] = []
        if let closure = call.trailingClosure { trailing.append(closure) }
        if !call.additionalTrailingClosures.isEmpty { return .none }
        var found: [MatchedCall] = []
        for summary in candidates {
            let handler: ClosureExprSyntax?
            if summary.labels.count == listed.count + trailing.count {
                guard zip(summary.labels, listed).allSatisfy({ $0.0 == $0.1.label?.text }) else { continue }
                if summary.handlerIndex < listed.count {
                    handler = listed[summary.handlerIndex].expression.as(ClosureExprSyntax.self)
                } else {
                    handler = trailing.first
                }
            } else if summary.failureIndex == nil, summary.handlerIndex < summary.parameterShapes.count,
                      let slots = CallBinding.bind(call, to: summary.parameterShapes) {
                // A call leaving out defaulted parameters (`fetch { }` of `fetch(limit: Int = 20,
                // completion:)`, `ping(completion: { })` of `ping(completion:on:)`): read where the
                // handler stands in the call as it stands in the declaration, or is the trailing closure.
                switch slots[summary.handlerIndex] {
                case .argument(let position)? where position == summary.handlerIndex:
                    handler = listed[position].expression.as(ClosureExprSyntax.self)
                case .trailing(0)? where summary.handlerIndex >= listed.count:
                    handler = trailing.first
                default:
                    continue
                }
            } else {
                continue
            }
            guard let handler else { continue }
            var kept: [String] = []
            for (index, argument) in listed.enumerated() where index != summary.handlerIndex {
                kept.append(argument.detached.with(\.trailingComma, nil).trimmedDescription)
            }
            found.append(MatchedCall(callee: summary, handler: handler,
                                     invocation: "\(callee.trimmedDescription)(\(kept.joined(separator: ", ")))"))
        }
        // A closure taking one parameter is not the handler of an overload that passes two: the
        // compiler would not take it. Where it fits none of them (`database.save(zone) { record,
        // error in }` on CloudKit's database, in a tree whose own `save` answers a `Result`), the
        // call is of a function the tree does not declare.
        found = found.filter { candidate in
            ExistingCallCollector.arity(of: candidate.handler).map { $0 == candidate.callee.shape.closureParameters.count } ?? true
        }
        // `{ (result: NightscoutRequestResult<[Int]>) in }` is not the handler of the overload
        // taking `[Int]`: types the closure spells pick the overload, as they do for Swift. Only
        // a spelling that differs from every overload's but one tells; none left is no choice.
        if found.count > 1 {
            let typed = found.filter { Self.closureTypesFit($0.handler, $0.callee.handlerParameterTypes) }
            if !typed.isEmpty { found = typed }
        }
        guard let first = found.first else { return .none }
        if found.dropFirst().contains(where: { !$0.callee.convertsLike(first.callee) }) { return .ambiguous }
        return .call(first)
    }

    /// Whether the parameter types a closure spells (`(result: Result<[Int], Error>, _ extra: Int)`)
    /// are those of a handler, as the declaration spells them (whitespace aside; a type the
    /// index qualified, `Service.Result`, fits `Result`). A closure spelling none fits any.
    static func closureTypesFit(_ closure: ClosureExprSyntax, _ types: [String]) -> Bool {
        guard let clause = closure.signature?.parameterClause?.as(ClosureParameterClauseSyntax.self) else { return true }
        let parameters = Array(clause.parameters)
        guard parameters.count == types.count else { return false }
        func normalized(_ text: String) -> String { text.filter { !$0.isWhitespace } }
        return zip(parameters, types).allSatisfy { parameter, declared in
            guard let spelled = parameter.type.map({ normalized($0.trimmedDescription) }) else { return true }
            let expected = normalized(declared)
            return spelled == expected || expected.hasSuffix("." + spelled) || spelled.hasSuffix("." + expected)
        }
    }

    // MARK: - Reading a pyramid

    func read(_ statement: CodeBlockItemSyntax, call: FunctionCallExprSyntax, matched: MatchedCall) throws(Refusal) -> Pyramid {
        var levels: [Pyramid.Level] = []
        var current: (call: FunctionCallExprSyntax, matched: MatchedCall)? = (call, matched)
        var capture: String?
        var kept: Refusal?
        while let (call, matched) = current {
            let outcome: (level: Pyramid.Level, next: (FunctionCallExprSyntax, MatchedCall)?)
            let captured = capture
            do throws(Refusal) {
                // (Where an earlier callback cannot start a chain of several steps, an early exit
                // is not read either: the callback stays as it was, kept in the handler before it.)
                outcome = try readLevel(call: call, matched: matched, isOutermost: levels.isEmpty, capture: &capture,
                                        readsEarlyExits: !levels.contains { $0.guardsSelf || $0.hasCodeAround })
            } catch let refusal {
                // Promise form: an inner callback the chain cannot hold stays as it was, the last
                // statement of the handler before it (a call site of its own, reported). It must
                // read no parameter of the callback around it but the value the handler before it
                // takes (an `error` or `result` there is not in the chain).
                guard target == .promise, let last = levels.indices.last, levels[last].flagName == nil,
                      let item = levels[last].nextStatement, case .call(let around) = match(levels[last].call),
                      ValueThreading.reads(in: [Syntax(item)]).isDisjoint(with: Set(Self.parameterNames(around.handler) ?? ["$0"])
                        .subtracting([levels[last].valueName].compactMap { $0 })) else { throw refusal }
                // Where it then stands, it is refused for a reason of its own (`[weak self]` on an
                // inner callback only is not one), or it is a chain of its own, in that handler:
                // what a second run would make of it (PromiseChainWriter+InnerChains.swift).
                var alone: Refusal?
                var inner: Pyramid?
                do throws(Refusal) { inner = try read(item, call: call, matched: matched) } catch { alone = error }
                levels[last].success.append(item)
                levels[last].nextStatement = nil
                levels[last].innerChain = inner
                capture = captured
                // (A callback the inner chain keeps is reported as this one's.)
                kept = alone ?? inner?.keptCallback
                break
            }
            levels.append(outcome.level)
            current = outcome.next
        }
        // Code around the check of the last callback runs in its handler and in its case of the
        // `catch` (its failure has a case of its own, being different from the others').
        if levels.count > 1, let level = levels.dropLast().first(where: { $0.guardsSelf || $0.hasCodeAround }) ?? levels.last.flatMap({ $0.guardsSelf ? $0 : nil }) {
            throw Refusal(level.guardsSelf ? "a `guard` inside a callback" : "code before the error check, or around the `switch`, in a callback of nested calls",
                          at: level.call)
        }
        if let level = levels.dropLast().first(where: \.passesSeveralValues) {
            throw Refusal("callbacks passing several values are flattened as the last callback only", at: level.call)
        }
        if let level = levels.first, level.guardsSelf, level.successOnMain != nil {
            throw Refusal("a `guard` inside a callback", at: level.call)
        }
        return Pyramid(statement: statement, levels: levels, selfCapture: capture, keptCallback: kept)
    }

    /// The statements before the callback's error check (or `switch`) and after its `switch`, and
    /// the check itself with what follows it; nil when there is nothing around it, or it reads the
    /// callback's parameters (a chain's handlers do not have them).
    private static func codeAround(_ statements: [CodeBlockItemSyntax], shape: HandlerShape, names: [String])
        -> (before: [CodeBlockItemSyntax], check: [CodeBlockItemSyntax], after: [CodeBlockItemSyntax])? {
        let index: Int?
        var isSwitch = false
        switch shape {
        case .result:
            guard let subject = names.first else { return nil }
            index = statements.firstIndex { expression($0)?.as(SwitchExprSyntax.self)?.subject.trimmedDescription == subject }
            isSwitch = true
        case .errorOnly, .optionalValueAndError, .valueAndError:
            let errorName = names.last ?? ""
            // `if let error` or, for `(T?, Error?)`, `if let value` (``valueFirstSplit``).
            var checked = [errorName]
            if case .optionalValueAndError = shape, names[0] != "_" { checked.append(names[0]) }
            index = statements.firstIndex { item in
                guard let ifExpression = expression(item)?.as(IfExprSyntax.self), ifExpression.conditions.count == 1,
                      let binding = ifExpression.conditions.first?.condition.as(OptionalBindingConditionSyntax.self) else { return false }
                return checked.contains(binding.initializer == nil ? binding.pattern.trimmedDescription : binding.initializer?.value.trimmedDescription ?? "")
            }
        default:
            return nil
        }
        guard let index else { return nil }
        let before = Array(statements[..<index])
        let after = isSwitch ? Array(statements[(index + 1)...]) : []
        guard !before.isEmpty || !after.isEmpty else { return nil }
        let parameters = Set(names)
        if !ValueThreading.reads(in: (before + after).map(Syntax.init)).isDisjoint(with: parameters) { return nil }
        return (before, isSwitch ? [statements[index]] : Array(statements[index...]), after)
    }

    private func readLevel(call: FunctionCallExprSyntax, matched: MatchedCall, isOutermost: Bool,
                           capture: inout String?, readsEarlyExits: Bool = true) throws(Refusal) -> (level: Pyramid.Level, next: (FunctionCallExprSyntax, MatchedCall)?) {
        let callee = matched.callee
        guard callee.hasAlternative(for: target) else {
            if let reason = callee.noAlternativeReasons[target] {
                throw Refusal("the callee gets no alternative: \(reason)", at: call)
            }
            throw Refusal("the callee has no \(target == .promise ? "promise" : "async") alternative yet (add them first: --stage declarations, or --stage all)", at: call)
        }
        if target == .promise && callee.handlerIsActorIsolated {
            throw Refusal("the callback is isolated to a global actor (its type says `@MainActor`), which a chain's handlers are not", at: call)
        }
        if call.calledExpression.tokens(viewMode: .sourceAccurate).contains(where: { $0.tokenKind == .postfixQuestionMark }) {
            throw Refusal("the callee is reached through `?.`, so the call may not happen at all", at: call.calledExpression)
        }
        let closure = matched.handler
        if let list = closure.signature?.capture {
            let text = list.trimmedDescription.filter { $0 != " " }
            guard text == "[weakself]" || text == "[unownedself]" else {
                throw Refusal("the callback's capture list is not `[weak self]`", at: list)
            }
            guard isOutermost || capture != nil else {
                throw Refusal("`\(list.trimmedDescription)` on an inner callback only", at: list)
            }
            capture = text == "[weakself]" ? "[weak self]" : "[unowned self]"
        }
        let expected = callee.shape.closureParameters.count
        // A closure without a signature takes no parameters, or uses `$0`; the promise form
        // reads `{ switch $0 { ... } }` as a `switch result` (``dollarSwitchSubject``).
        let names = Self.parameterNames(closure) ?? (expected == 0 ? [] : nil)
            ?? (target == .promise ? Self.dollarSwitchSubject(closure, shape: callee.shape) : nil)
        guard let names, names.count == expected else {
            throw Refusal(names == nil && expected > 0 ? "the callback names its parameters implicitly (`$0`)"
                                                         : "the callback's parameters do not match the handler", at: closure)
        }
        var statements = Array(closure.statements)
        // Promise form, one call: a `[weak self]` callback's `guard let self else { return }`
        // goes first in each handler of the chain, and code before the error check (or around
        // the `switch`) runs in both, as it ran whatever the answer. (The async form keeps such
        // callbacks as they are: ``InlinePyramidWriter``.)
        var guardsSelf = false
        // Promise form: a callback that is one `DispatchQueue.main.async { }` hop is read
        // through it (PyramidReader+PromiseShapes.swift).
        var mainHop: Pyramid.MainHop?
        var hopUnwrapping: (bound: String, parameter: String)?
        if target == .promise, let (hop, inner, unwrapping) = try wholeBodyHop(statements, capture: capture) {
            mainHop = hop
            statements = inner
            hopUnwrapping = unwrapping
        }
        let weakCallback = closure.signature?.capture?.trimmedDescription.filter({ $0 != " " }) == "[weakself]"
            || (mainHop.map { if case .handlers = $0 { true } else { false } } ?? false) && capture == "[weak self]"
        if target == .promise, weakCallback,
           let first = statements.first, InlinePyramidWriter.unwrapsSelf(first) {
            statements.removeFirst()
            guardsSelf = true
        }
        var around: (before: [CodeBlockItemSyntax], after: [CodeBlockItemSyntax]) = ([], [])
        if target == .promise, let (before, check, after) = Self.codeAround(statements, shape: callee.shape, names: names) {
            around = (before, after)
            statements = check
        }
        var answers = target == .promise ? try answerSplit(statements, shape: callee.shape, names: names, at: closure) : nil
        if let unwrapping = hopUnwrapping {
            // `guard let self, let user else { return }`: without the value, nothing ran.
            guard case .optionalValueAndError = callee.shape, unwrapping.parameter == names[0], answers == nil,
                  !mentions(statements, names[1]) else {
                throw Refusal("`guard let self` together with another condition in a hop to the main queue", at: closure)
            }
            answers = AnswerSplit(success: statements, failure: Pyramid.Failure(statements: [], errorName: nil), boundName: unwrapping.bound)
        }
        var guardCase: (valueName: String?, success: [CodeBlockItemSyntax], failure: Pyramid.Failure, exit: Pyramid.ExitGuard?)?
        if target == .promise, readsEarlyExits, case .result = callee.shape, let subject = names.first { guardCase = guardCaseResultSplit(statements, subject: subject) }
        // A `guard` or `return` the shapes below do not read is the most useful thing to report.
        if answers == nil, guardCase == nil, let guardStatement = statements.first?.item.as(GuardStmtSyntax.self), callee.shape.canFail || callee.shape.valueType != "Bool" {
            throw Refusal("a `guard` inside a callback", at: guardStatement)
        }
        var level = Pyramid.Level(call: call, callee: callee, invocation: matched.invocation, valueName: nil,
                                  success: statements, failure: nil)
        level.annotatedValueType = Self.annotatedValueType(closure, shape: callee.shape)
        let useful = { (name: String) -> String? in name == "_" ? nil : name }

        switch callee.shape {
        case .nothing:
            break
        case .value(let type):
            level.valueName = useful(names[0])
            if type == "Bool", let name = level.valueName, let split = try flagSplit(statements, flag: name),
               nextCall(in: split.success) != nil {
                level.flagName = name
                level.success = split.success
                level.failure = Pyramid.Failure(statements: split.failure, errorName: nil)
            }
        case .result:
            let split: (valueName: String?, success: [CodeBlockItemSyntax], failure: Pyramid.Failure)
            if target == .promise, let patterned = patternedResultSplit(statements, subject: names[0], typedFailure: callee.typedFailure) ?? ifCaseResultSplit(statements, subject: names[0])
                ?? ifCaseFailureSplit(statements, subject: names[0], typedFailure: callee.typedFailure) {
                split = (patterned.valueName, patterned.success, patterned.failure)
                level.successCases = patterned.successCases
            } else if let guarded = guardCase {
                split = (guarded.valueName, guarded.success, guarded.failure)
                level.exitGuard = guarded.exit
            } else {
                split = try resultSplit(statements, subject: names[0], at: closure)
            }
            level.valueName = callee.shape.valueType == "Void" ? nil : split.valueName.flatMap(useful)
            level.success = split.success
            level.failure = split.failure
            level.failure?.typedAs = try typedErrorUse(split.failure, callee: callee, at: closure)
        case .errorOnly:
            let split: (success: [CodeBlockItemSyntax], failure: Pyramid.Failure)
            if let answers { split = answers.split } else { split = try errorSplit(statements, errorName: names[0], at: closure) }
            level.success = split.success
            level.failure = split.failure
            level.failure?.typedAs = try typedErrorUse(split.failure, callee: callee, at: closure)
        case .optionalValueAndError, .valueAndError:
            let split: (success: [CodeBlockItemSyntax], failure: Pyramid.Failure)
            if let answers { split = answers.split } else { split = try errorSplit(statements, errorName: names[1], at: closure) }
            level.valueName = useful(names[0])
            level.success = split.success
            level.failure = split.failure
            level.failure?.typedAs = try typedErrorUse(split.failure, callee: callee, at: closure)
            if let value = level.valueName {
                if mentions(split.failure.statements, value) {
                    throw Refusal("the failure branch uses the value sent together with the error", at: closure)
                }
                if let answers, let bound = answers.boundName {
                    // `guard let user else { ...; return }`: the success path reads the unwrapped value.
                    if bound != value, mentions(split.success, value) {
                        throw Refusal("the callback reads `\(value)` as optional after unwrapping it as `\(bound)`", at: closure)
                    }
                    level.valueName = bound
                    level.neither = answers.neither
                } else if case .optionalValueAndError = callee.shape {
                    try Self.requireForceUnwrappedOnly(value, in: split.success)
                    level.unwrapsValue = true
                }
            }
        case .successFlag:
            // `guard ok, error == nil else`, or the error check then `guard ok else`: the
            // alternative's rejection for `(false, nil)` runs the callback's own branch.
            guard let answers else {
                throw Refusal("a (Bool, Error?) answer of `(false, nil)` would become a rejection the callback did not have", at: closure)
            }
            if mentions(answers.success, names[0]) || mentions(answers.failure.statements, names[0]) {
                throw Refusal("the callback reads `\(names[0])` after testing it; the alternative's promise has no flag to read", at: closure)
            }
            level.success = answers.success
            level.failure = answers.failure
            level.failure?.typedAs = try typedErrorUse(answers.failure, callee: callee, at: closure)
            level.neither = answers.neither
        case .errorAndOptionalValue:
            throw Refusal("(Error?, T?) callbacks are not flattened", at: closure)
        case .split:
            throw Refusal("separate success and failure callbacks are not flattened", at: closure)
        case .tuple(_, let errorIndex):
            // Promise form: several values and no error are the alternative's labelled tuple
            // (a `Guarantee`), which the last handler takes apart: `.done(on: nil) { a, b in }`.
            guard target == .promise, errorIndex == nil else {
                throw Refusal(target == .promise ? "callbacks passing several values and an error are not flattened yet" : "callbacks passing several values are not flattened yet",
                              at: closure)
            }
            level.valueName = names.joined(separator: ", ")
            level.passesSeveralValues = true
        }

        level.guardsSelf = guardsSelf
        level.mainHop = mainHop
        if !level.successCases.isEmpty && (!around.before.isEmpty || !around.after.isEmpty) {
            throw Refusal("code around a `switch` whose `.success` cases test the value", at: closure)
        }
        if !around.before.isEmpty || !around.after.isEmpty {
            level.success = around.before + level.success + around.after
            if var failure = level.failure {
                failure.statements = around.before + failure.statements + around.after
                level.failure = failure
            }
            if var neither = level.neither {
                neither.statements = around.before + neither.statements + around.after
                level.neither = neither
            }
            if var failure = level.failure {
                failure.patterned = failure.patterned.map { ($0.pattern, around.before + $0.statements + around.after) }
                level.failure = failure
            }
            level.hasCodeAround = true
        }
        // Promise form: each failure branch is a body of its own in the `catch` (a whole closure,
        // or a `case` nothing follows), where its `return`s and `guard`s leave what they left; its
        // `defer`s run where they ran unless code after a `switch result` joined the branch.
        let exits = target == .promise
        let defers = exits && !level.hasCodeAround
        if let failure = level.failure {
            try checkPlain(failure.statements, where: "a failure branch", allowingExits: exits, allowingDefer: defers)
        }
        if let neither = level.neither {
            try checkPlain(neither.statements, where: "a failure branch", allowingExits: exits, allowingDefer: defers)
        }
        for branch in level.failure?.patterned ?? [] {
            try checkPlain(branch.statements, where: "a failure branch", allowingExits: exits, allowingDefer: defers)
            if let value = level.valueName, mentions(branch.statements, value) {
                throw Refusal("the failure branch uses the value sent together with the error", at: closure)
            }
        }
        // The last statement may be the next level; everything before it runs first.
        var next: (FunctionCallExprSyntax, MatchedCall)?
        if !level.successCases.isEmpty {
            // The cases' code stays in them: a call there is on one branch only (checked below).
        } else if let (nextCall, nextMatched) = nextCall(in: level.success) {
            next = (nextCall, nextMatched)
            level.nextStatement = level.success.removeLast()
        } else if level.mainHop == nil, !level.guardsSelf, level.success.count == 1, let hop = Self.mainQueueHop(level.success[0]) {
            // (After `guard let self`, which ran before the hop, the hop stays as written.)
            if containsKnownCall(hop) { throw Refusal("a nested callback inside a hop to the main queue", at: level.success[0]) }
            // The generated handler takes the pyramid's capture list, not the hop's. The promise
            // form keeps such a hop as written in a handler `on: nil` (what the callback did).
            if let list = hop.signature?.capture, capture == nil {
                if target == .async { throw Refusal("`\(list.trimmedDescription)` on a hop to the main queue only", at: list) }
            } else {
                level.successOnMain = Array(hop.statements)
            }
        }
        // Promise form: a callback that returns early before its next call stops the chain there
        // (PyramidReader+PromiseExits.swift).
        if target == .promise, next != nil, readsEarlyExits, !level.guardsSelf, !level.hasCodeAround, let exits = earlyExits(level.success) {
            level.earlyReturns = exits.map(\.exit)
            try checkPlain(level.success.filter { item in !exits.contains { $0.statement.id == item.id } }, where: "a callback")
        } else {
            // Promise form: the last callback's code is the last handler's body, as written (with
            // the code after a `switch result`, whose `defer`s would then run after that code).
            let lastHandler = target == .promise && next == nil
            try checkPlain(level.success, where: "a callback", allowingExits: lastHandler, allowingDefer: lastHandler && !level.hasCodeAround)
        }
        if let exit = level.exitGuard {
            try checkPlain(exit.statements, where: "a callback")
            for condition in exit.conditions { try checkPlainNode(condition) }
        }
        if let hop = level.successOnMain { try checkPlain(hop, where: "a callback") }
        return (level, next)
    }

    /// The next level: the last statement, when it calls a known completion-handler function.
    private func nextCall(in statements: [CodeBlockItemSyntax]) -> (FunctionCallExprSyntax, MatchedCall)? {
        guard let last = statements.last, let call = Self.callStatement(last),
              case .call(let matched) = match(call) else { return nil }
        return (call, matched)
    }

    // MARK: - Branch shapes

    /// `if ok { S } else { F }`, `if !ok { F } else { S }`, `if !ok { F; return } S`, `guard ok else { F; return } S`.
    private func flagSplit(_ statements: [CodeBlockItemSyntax], flag: String) throws(Refusal) -> (success: [CodeBlockItemSyntax], failure: [CodeBlockItemSyntax])? {
        guard let first = statements.first else { return nil }
        if let guardStatement = first.item.as(GuardStmtSyntax.self), Self.isCondition(guardStatement.conditions, flag, negated: false) {
            guard let failure = Self.droppingFinalReturn(Array(guardStatement.body.statements)) else { return nil }
            return (Array(statements.dropFirst()), failure)
        }
        guard let ifExpression = Self.expression(first)?.as(IfExprSyntax.self) else { return nil }
        let positive = Self.isCondition(ifExpression.conditions, flag, negated: false)
        let negative = Self.isCondition(ifExpression.conditions, flag, negated: true)
        guard positive || negative else { return nil }
        switch ifExpression.elseBody {
        case .codeBlock(let elseBlock) where statements.count == 1:
            let body = Array(ifExpression.body.statements), other = Array(elseBlock.statements)
            return positive ? (body, other) : (other, body)
        case .none where negative:
            guard let failure = Self.droppingFinalReturn(Array(ifExpression.body.statements)) else { return nil }
            return (Array(statements.dropFirst()), failure)
        default:
            return nil
        }
    }

    /// `if let error { F; return } S` or `if let error { F } else { S }` (also `if let e = error`).
    func errorSplit(_ statements: [CodeBlockItemSyntax], errorName: String, at closure: ClosureExprSyntax) throws(Refusal) -> (success: [CodeBlockItemSyntax], failure: Pyramid.Failure) {
        guard let first = statements.first, let ifExpression = Self.expression(first)?.as(IfExprSyntax.self),
              ifExpression.conditions.count == 1,
              let binding = ifExpression.conditions.first?.condition.as(OptionalBindingConditionSyntax.self),
              binding.bindingSpecifier.tokenKind == .keyword(.let),
              binding.initializer == nil ? binding.pattern.trimmedDescription == errorName
                                         : binding.initializer?.value.trimmedDescription == errorName else {
            throw Refusal("the callback does not start by checking its error (`if let \(errorName) { ... return }`)", at: closure)
        }
        let bound = binding.pattern.trimmedDescription
        let body = Array(ifExpression.body.statements)
        switch ifExpression.elseBody {
        case .codeBlock(let elseBlock) where statements.count == 1:
            return (Array(elseBlock.statements), Pyramid.Failure(statements: body, errorName: bound))
        case .none:
            guard let failure = Self.droppingFinalReturn(body) else {
                throw Refusal("the error branch does not end with `return`, so the success path runs after it too", at: ifExpression)
            }
            return (Array(statements.dropFirst()), Pyramid.Failure(statements: failure, errorName: bound))
        default:
            throw Refusal("an `else if` after the error check", at: ifExpression)
        }
    }

    /// `switch result { case .success(let v): S  case .failure(let e): F }`.
    private func resultSplit(_ statements: [CodeBlockItemSyntax], subject: String, at closure: ClosureExprSyntax) throws(Refusal) -> (valueName: String?, success: [CodeBlockItemSyntax], failure: Pyramid.Failure) {
        guard statements.count == 1, let switchExpression = Self.expression(statements[0])?.as(SwitchExprSyntax.self),
              switchExpression.subject.trimmedDescription == subject else {
            throw Refusal("the callback does not consist of one `switch \(subject)`", at: closure)
        }
        var success: (String?, [CodeBlockItemSyntax])?
        var failure: Pyramid.Failure?
        for element in switchExpression.cases {
            guard let switchCase = element.as(SwitchCaseSyntax.self) else { throw Refusal("`#if` inside the switch", at: element) }
            guard case .case(let label) = switchCase.label, label.caseItems.count == 1, let item = label.caseItems.first,
                  item.whereClause == nil else {
                throw Refusal("a switch on Result with `default:` or several patterns in a case", at: switchCase)
            }
            let body = Array(switchCase.statements)
            if let binding = Self.caseBinding(item.pattern, "success") {
                success = (binding.name, body)
            } else if let binding = Self.caseBinding(item.pattern, "failure") {
                failure = Pyramid.Failure(statements: body, errorName: binding.name)
            } else {
                throw Refusal("a case of the switch on Result this tool does not read", at: switchCase)
            }
        }
        guard let success, let failure else { throw Refusal("the switch on Result lacks a case", at: switchExpression) }
        return (success.0, success.1, failure)
    }

    /// `.success(let v)`, `let .success(v)`, `.success(_)`, `.success`: the bound name (nil for none).
    struct CaseBinding { var name: String? }

    static func caseBinding(_ pattern: PatternSyntax, _ caseName: String) -> CaseBinding? {
        var pattern = pattern
        // `var .success(route)`, `.success(var route)`: the code changes its copy, which a
        // handler's parameter or an awaited constant would not let it (read as no binding).
        if pattern.tokens(viewMode: .sourceAccurate).contains(where: { $0.tokenKind == .keyword(.var) }) { return nil }
        if let valueBinding = pattern.as(ValueBindingPatternSyntax.self) { pattern = valueBinding.pattern }
        guard let expression = pattern.as(ExpressionPatternSyntax.self)?.expression else { return nil }
        if let member = expression.as(MemberAccessExprSyntax.self), member.base == nil, member.declName.baseName.text == caseName {
            return CaseBinding(name: nil)
        }
        guard let call = expression.as(FunctionCallExprSyntax.self),
              let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.base == nil,
              member.declName.baseName.text == caseName, call.arguments.count == 1,
              let argument = call.arguments.first, argument.label == nil else { return nil }
        let inner = argument.expression
        if let binding = inner.as(PatternExprSyntax.self) {
            let innerPattern = binding.pattern.as(ValueBindingPatternSyntax.self)?.pattern ?? binding.pattern
            if let identifier = innerPattern.as(IdentifierPatternSyntax.self) { return CaseBinding(name: identifier.identifier.text) }
            if innerPattern.is(WildcardPatternSyntax.self) { return CaseBinding(name: nil) }
            return nil
        }
        if let reference = inner.as(DeclReferenceExprSyntax.self) { return CaseBinding(name: reference.baseName.text) }
        if inner.is(DiscardAssignmentExprSyntax.self) { return CaseBinding(name: nil) }
        return nil
    }

    // MARK: - Checks

    /// Statements copied into a handler must not leave it early or hide another callback.
    /// `allowingExits`: the statements are a closure's whole body in the output (a promise
    /// chain's last handler), where a `return` or a `guard` leaves what it left in the callback:
    /// the rest of the callback's code. `allowingDefer`: and they were the callback's whole body
    /// (or a block nothing followed), so a `defer` runs where it ran, last.
    func checkPlain(_ statements: [CodeBlockItemSyntax], where place: String, allowingExits: Bool = false,
                    allowingDefer: Bool = false) throws(Refusal) {
        for statement in statements {
            try checkPlainNode(Syntax(statement), where: place, allowingExits: allowingExits, allowingDefer: allowingDefer)
        }
    }

    /// ``checkPlain(_:where:allowingExits:allowingDefer:)`` for any node (a condition).
    func checkPlainNode(_ node: Syntax, where place: String = "a callback", allowingExits: Bool = false,
                        allowingDefer: Bool = false) throws(Refusal) {
        let finder = ControlFlowFinder(reader: self)
        finder.allowsExits = allowingExits
        finder.allowsDefer = allowingDefer
        finder.walk(node)
        if let (reason, node) = finder.problem { throw Refusal(reason.replacingPlace(with: place), at: node) }
    }

    fileprivate func isKnownCall(_ call: FunctionCallExprSyntax) -> Bool {
        switch match(call) {
        case .none: return false
        case .ambiguous, .call: return true
        }
    }

    func containsKnownCall(_ closure: ClosureExprSyntax) -> Bool {
        let finder = ControlFlowFinder(reader: self)
        finder.walk(closure)
        return finder.knownCall != nil
    }

    /// Every read of `name` must be `name!`; anything else treats a missing value as an answer.
    static func requireForceUnwrappedOnly(_ name: String, in statements: [CodeBlockItemSyntax]) throws(Refusal) {
        for statement in statements {
            for token in statement.tokens(viewMode: .sourceAccurate) where token.tokenKind == .identifier(name) {
                guard let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
                if reference.parent?.is(ForceUnwrapExprSyntax.self) == true { continue }
                if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id { continue }
                throw Refusal("the callback reads `\(name)` as optional, so a `(nil, nil)` answer means something to it", at: reference)
            }
        }
    }

    /// `case .failure(let error): self.show(error)` with `show(_: NetworkError)`: the shared
    /// `catch` gives `any Error`, so the converted code would not compile. The promise form
    /// matches the error as that type instead (`case let error as NetworkError:`): the type to
    /// match it as, nil when the branch does not need it. Not where the branch also runs for an
    /// answer of neither (it reads the error as optional), nor for a type naming the callee's
    /// generic parameters (a call site cannot spell them).
    private func typedErrorUse(_ failure: Pyramid.Failure, callee: CalleeSummary, at closure: ClosureExprSyntax) throws(Refusal) -> String? {
        guard let typed = callee.typedFailure, let error = failure.errorName, Self.readsAsItsType(error, in: failure.statements) else { return nil }
        if target == .promise, !failure.errorIsOptional,
           !callee.genericParameterNames.contains(where: { name in typed.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }).contains { $0 == name } }) {
            return typed
        }
        throw Refusal("the failure branch reads `\(error)` as the callee's `\(typed)`, but a `catch` gets `any Error`; "
                      + "convert this call by hand (`error as? \(typed)`)", at: closure)
    }

    /// Whether statements use `name` where its own type matters: not only in `"\(error)"`,
    /// `print(error)` or `error.localizedDescription`, which take any error alike.
    static func readsAsItsType(_ name: String, in statements: [CodeBlockItemSyntax]) -> Bool {
        for statement in statements {
            for token in statement.tokens(viewMode: .sourceAccurate) where token.tokenKind == .identifier(name) {
                guard let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { return true }
                if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.base?.id == reference.id {
                    if member.declName.baseName.text == "localizedDescription" { continue }
                    return true
                }
                guard let argument = reference.parent?.as(LabeledExprSyntax.self) else { return true }
                if argument.parent?.parent?.is(ExpressionSegmentSyntax.self) == true { continue }
                if let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self),
                   let callee = call.calledExpression.as(DeclReferenceExprSyntax.self),
                   ["print", "debugPrint", "dump", "String"].contains(callee.baseName.text) {
                    continue
                }
                return true
            }
        }
        return false
    }

    private func mentions(_ statements: [CodeBlockItemSyntax], _ name: String) -> Bool {
        statements.contains { $0.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .identifier(name) } }
    }

    // MARK: - Syntax helpers

    static func parameterNames(_ closure: ClosureExprSyntax) -> [String]? {
        guard let signature = closure.signature else { return nil }
        switch signature.parameterClause {
        case .simpleInput(let shorthand): return shorthand.map(\.name.text)
        case .parameterClause(let clause): return clause.parameters.map { ($0.secondName ?? $0.firstName).text }
        case .none: return []
        }
    }

    /// The value's type as the closure's annotated parameters spell it (`Result<V, E>` and `V?`
    /// read as `V`), when it differs from the callee's own spelling; nil without annotations.
    static func annotatedValueType(_ closure: ClosureExprSyntax, shape: HandlerShape) -> String? {
        guard shape.valueType != "Void", case .parameterClause(let clause)? = closure.signature?.parameterClause,
              let type = clause.parameters.first?.type else { return nil }
        let spelled: String?
        switch shape {
        case .result:
            let result = type.as(IdentifierTypeSyntax.self).map { ($0.name.text, $0.genericArgumentClause) }
                ?? type.as(MemberTypeSyntax.self).map { ($0.baseType.trimmedDescription + "." + $0.name.text, $0.genericArgumentClause) }
            guard let (name, arguments) = result, name == "Result" || name == "Swift.Result",
                  let value = arguments?.arguments.first else { return nil }
            spelled = value.argument.trimmedDescription
        case .value:
            spelled = type.trimmedDescription
        case .valueAndError, .optionalValueAndError:
            spelled = (type.as(OptionalTypeSyntax.self)?.wrappedType ?? type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self)?.wrappedType
                ?? type).trimmedDescription
        default:
            spelled = nil
        }
        return spelled == shape.valueType ? nil : spelled
    }

    static func expression(_ item: CodeBlockItemSyntax) -> ExprSyntax? {
        item.item.as(ExpressionStmtSyntax.self)?.expression ?? item.item.as(ExprSyntax.self)
    }

    static func callStatement(_ item: CodeBlockItemSyntax) -> FunctionCallExprSyntax? {
        expression(item)?.as(FunctionCallExprSyntax.self)
    }

    /// `DispatchQueue.main.async { ... }`: its closure.
    static func mainQueueHop(_ item: CodeBlockItemSyntax) -> ClosureExprSyntax? {
        guard let call = callStatement(item), call.arguments.isEmpty, call.additionalTrailingClosures.isEmpty,
              call.calledExpression.trimmedDescription == "DispatchQueue.main.async",
              let closure = call.trailingClosure else { return nil }
        // No parameters; at most the `[weak self]` the chain's handlers get anyway.
        if let signature = closure.signature {
            guard signature.parameterClause == nil, let capture = signature.capture,
                  ["[weakself]", "[unownedself]"].contains(capture.trimmedDescription.filter { $0 != " " }) else { return nil }
        }
        return closure
    }

    private static func isCondition(_ conditions: ConditionElementListSyntax, _ flag: String, negated: Bool) -> Bool {
        guard conditions.count == 1, let expression = conditions.first?.condition.as(ExprSyntax.self) else { return false }
        if negated {
            guard let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" else { return false }
            return prefix.expression.as(DeclReferenceExprSyntax.self)?.baseName.text == flag
        }
        return expression.as(DeclReferenceExprSyntax.self)?.baseName.text == flag
    }

    /// The statements without their final bare `return`, or nil when they do not end with one.
    private static func droppingFinalReturn(_ statements: [CodeBlockItemSyntax]) -> [CodeBlockItemSyntax]? {
        guard let last = statements.last, let ret = last.item.as(ReturnStmtSyntax.self), ret.expression == nil else { return nil }
        return Array(statements.dropLast())
    }
}

extension PyramidReader {
    /// A function declared anywhere in `closure` that makes a call of a completion-handler
    /// function this reader knows.
    static func localFunctionMakingKnownCall(in closure: ClosureExprSyntax, reader: PyramidReader) -> FunctionDeclSyntax? {
        final class Finder: SyntaxVisitor {
            let reader: PyramidReader
            var found: FunctionDeclSyntax?
            init(reader: PyramidReader) {
                self.reader = reader
                super.init(viewMode: .sourceAccurate)
            }
            override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
                guard found == nil else { return .skipChildren }
                let calls = LocalFunctionCallFinder(reader: reader)
                calls.walk(node)
                if calls.found { found = node }
                return .skipChildren
            }
        }
        let finder = Finder(reader: reader)
        finder.walk(closure)
        return finder.found
    }
}

/// Whether a node holds a call of a completion-handler function the reader knows.
private final class LocalFunctionCallFinder: SyntaxVisitor {
    let reader: PyramidReader
    private(set) var found = false

    init(reader: PyramidReader) {
        self.reader = reader
        super.init(viewMode: .sourceAccurate)
    }

    /// A call of a completion-handler function with its closure, or of its alternative (what a
    /// first run made of such a call): a second run decides as the first did.
    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if reader.isKnownCall(node) || PyramidReader.baseName(node).map({ !reader.catalog.callees(named: $0).isEmpty }) == true {
            found = true
        }
        return found ? .skipChildren : .visitChildren
    }
}

/// Finds what stops a statement from being moved into a chain handler unchanged.
private final class ControlFlowFinder: LoopTrackingVisitor {
    enum Reason {
        case earlyReturn, guardStatement, deferStatement, loop, nestedCallback, queueHop, localFunction

        func replacingPlace(with place: String) -> String {
            switch self {
            case .earlyReturn: return "an early `return` inside \(place)"
            case .guardStatement: return "a `guard` inside \(place)"
            case .deferStatement: return "`defer` inside \(place)"
            case .loop: return "a loop around a callback"
            case .nestedCallback: return "a callback called on some paths only, or before other code"
            case .queueHop: return "a queue hop around a callback"
            case .localFunction:
                return "a function declared inside \(place) calls a completion-handler function (its own call site, converted on its own)"
            }
        }
    }

    let reader: PyramidReader
    /// `return` and `guard` outside closures are no problem (``PyramidReader/checkPlain(_:where:allowingExits:allowingDefer:)``).
    var allowsExits = false
    /// Nor is `defer`.
    var allowsDefer = false
    private(set) var problem: (Reason, Syntax)?
    private(set) var knownCall: FunctionCallExprSyntax?
    private var closureDepth = 0

    init(reader: PyramidReader) {
        self.reader = reader
        super.init()
    }

    private func note(_ reason: Reason, _ node: some SyntaxProtocol) -> SyntaxVisitorContinueKind {
        if problem == nil { problem = (reason, Syntax(node)) }
        return .skipChildren
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { closureDepth += 1; return .visitChildren }
    override func visitPost(_ node: ClosureExprSyntax) { closureDepth -= 1 }
    /// A local function is a place of its own, whose call sites are converted on their own: one
    /// holding a known call cannot also move with the code around it.
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        let calls = LocalFunctionCallFinder(reader: reader)
        calls.walk(node)
        return calls.found ? note(.localFunction, node.name) : .skipChildren
    }
    override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind {
        closureDepth == 0 && !allowsExits ? note(.earlyReturn, node) : .visitChildren
    }
    override func visit(_ node: GuardStmtSyntax) -> SyntaxVisitorContinueKind {
        closureDepth == 0 && !allowsExits ? note(.guardStatement, node) : .visitChildren
    }
    override func visit(_ node: DeferStmtSyntax) -> SyntaxVisitorContinueKind {
        closureDepth == 0 && !allowsDefer ? note(.deferStatement, node) : .visitChildren
    }
    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if reader.isKnownCall(node) {
            if knownCall == nil { knownCall = node }
            return note(loopDepth > 0 ? .loop : .nestedCallback, node)
        }
        return .visitChildren
    }
}
