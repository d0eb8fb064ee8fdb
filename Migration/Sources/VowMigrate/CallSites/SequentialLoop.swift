import SwiftSyntax

/// A loop that starts the next call from the previous callback (issue 20, point 5): a local
/// function whose last statement calls a completion-handler function, whose callback calls the
/// local function again with the next arguments, started right after its declaration.
///
/// ```swift
/// func next(_ index: Int) {                     Task {
///     guard index < photos.count else {             var nextIndex: Int? = 0
///         self.finish()                             while let index = nextIndex {
///         return                                        nextIndex = nil
///     }                                                 guard index < photos.count else {
///     api.upload(photos[index]) { error in                  self.finish()
///         if let error { ...; return }                      return
///         next(index + 1)                               }
///     }                                                 <the callback's code, after `try await`>
/// }                                                     nextIndex = index + 1
/// next(0)                                           }
///                                               }
/// ```
///
/// In the async form this becomes one `Task` holding a `while` loop: each turn binds the local
/// function's parameters, runs its statements, awaits the call and runs the callback's code. A
/// recursive call becomes the assignment of the next turn's arguments; the `return` right after it,
/// if any, becomes `continue`; a path that calls neither ends the loop, as it ended the recursion,
/// and a `return` ends the task. Each turn's parameters are constants, as they were, so closures in
/// the callbacks keep the values of their own turn.
///
/// Read from syntax only; ``SequentialLoop/read(_:at:reader:)`` returns nil for anything else, and
/// the call-site stage then converts the call inside the function on its own.
struct SequentialLoop {
    let declaration: FunctionDeclSyntax
    /// `next(0)`, right after the declaration; nil for a method, whose caller starts the loop.
    let start: CodeBlockItemSyntax?
    let startCall: FunctionCallExprSyntax?
    /// A local function: it held `self` strongly for as long as its callbacks ran.
    var isLocalFunction: Bool { start != nil }
    /// The function's statements before its last one.
    let prefix: [CodeBlockItemSyntax]
    /// The function's last statement: the call of a completion-handler function.
    let pyramid: CodeBlockItemSyntax
    let pyramidCall: FunctionCallExprSyntax
    let matched: PyramidReader.MatchedCall
    /// The parameters' names inside the function and their written types.
    let parameters: [(name: String, type: String)]
    /// The recursive calls, each with the bare `return`s after it on its path.
    let sites: [(call: FunctionCallExprSyntax, returns: [CodeBlockItemSyntax])]

    /// The shape at `list[index]`, or nil.
    static func read(_ list: [CodeBlockItemSyntax], at index: Int, reader: PyramidReader) -> SequentialLoop? {
        guard index + 1 < list.count, let declaration = list[index].item.as(FunctionDeclSyntax.self),
              let startCall = PyramidReader.callStatement(list[index + 1]) else { return nil }
        let name = declaration.name.text
        guard startCall.calledExpression.is(DeclReferenceExprSyntax.self), isCall(startCall, of: name, labels: labels(of: declaration)) else { return nil }
        // Nothing else of the block names the function (`x.next` is another's member).
        for (position, item) in list.enumerated() where position != index && position != index + 1 {
            if item.tokens(viewMode: .sourceAccurate).contains(where: { isReference($0, to: name) }) { return nil }
        }
        return read(declaration, start: list[index + 1], startCall: startCall, reader: reader)
    }

    /// A method calling itself from its callback (`self.sendNext(sent: sent + 1)`), which no
    /// subclass can override (`private`, `fileprivate`, `final`, `static`, or in a struct or
    /// enum) and no other member of its type shares the name of: its body becomes the loop, the
    /// first turn's arguments its parameters.
    /// `namesakes` counts the methods of a name in a type body (read once per body: a type of
    /// thousands of methods was read again for each of them).
    static func readMethod(_ declaration: FunctionDeclSyntax, reader: PyramidReader,
                           namesakes: (String, MemberBlockSyntax) -> Int) -> SequentialLoop? {
        guard let block = declaration.parent?.parent?.parent?.as(MemberBlockSyntax.self) else { return nil }
        let owner = block.parent
        let sealed = declaration.modifiers.contains { ["private", "fileprivate", "final", "static"].contains($0.name.text) }
            || owner?.is(StructDeclSyntax.self) == true || owner?.is(EnumDeclSyntax.self) == true
            || owner?.as(ClassDeclSyntax.self)?.modifiers.contains(where: { $0.name.text == "final" }) == true
        guard sealed, owner?.is(ProtocolDeclSyntax.self) == false else { return nil }
        guard namesakes(declaration.name.text, block) == 1 else { return nil }
        return read(declaration, start: nil, startCall: nil, reader: reader, isMethod: true)
    }

    private static func labels(of declaration: FunctionDeclSyntax) -> [String?] {
        CompletionFunction.labels(of: declaration.signature.parameterClause.parameters)
    }

    /// The function's own shape: plain parameters, a body ending in a call of a
    /// completion-handler function, and every other mention of it a recursive call that is the
    /// last thing on its path.
    private static func read(_ declaration: FunctionDeclSyntax, start: CodeBlockItemSyntax?, startCall: FunctionCallExprSyntax?,
                             reader: PyramidReader, isMethod: Bool = false) -> SequentialLoop? {
        guard let body = declaration.body, declaration.genericParameterClause == nil,
              declaration.signature.effectSpecifiers == nil, declaration.signature.returnClause == nil else { return nil }
        let name = declaration.name.text
        // The parameters: plain values, each passed by the start call and every recursive one.
        var parameters: [(name: String, type: String)] = []
        for parameter in declaration.signature.parameterClause.parameters {
            guard parameter.ellipsis == nil, !parameter.type.is(AttributedTypeSyntax.self) else { return nil }
            parameters.append(((parameter.secondName ?? parameter.firstName).text, parameter.type.trimmedDescription))
        }
        guard FunctionBodyFinder.closureParameterNames(declaration.signature.parameterClause.parameters).isEmpty else { return nil }
        let labels = labels(of: declaration)
        let statements = Array(body.statements)
        guard let last = statements.last, let pyramidCall = PyramidReader.callStatement(last),
              case .call(let matched) = reader.matchByShape(pyramidCall) else { return nil }
        let prefix = Array(statements.dropLast())
        if prefix.contains(where: { $0.item.is(DeferStmtSyntax.self) }) { return nil }
        // Every other mention of the function is a recursive call, the last thing on its path
        // (a method's on `self`, written or not).
        var sites: [(FunctionCallExprSyntax, [CodeBlockItemSyntax])] = []
        for token in body.tokens(viewMode: .sourceAccurate) where token.tokenKind == .identifier(name) {
            guard let reference = token.parent?.as(DeclReferenceExprSyntax.self) else {
                if token.parent?.is(IdentifierPatternSyntax.self) == true { return nil }
                continue
            }
            var called = ExprSyntax(reference)
            if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id {
                // `backend.upload` is another's member; a method's `self.sendNext` is its own.
                guard isMethod, member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) else { continue }
                called = ExprSyntax(member)
            }
            guard let call = called.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == called.id,
                  isCall(call, of: name, labels: labels),
                  let item = call.parent?.as(CodeBlockItemSyntax.self),
                  let returns = lastOnItsPath(item, body: body) else { return nil }
            sites.append((call, returns))
        }
        guard !sites.isEmpty else { return nil }
        return SequentialLoop(declaration: declaration, start: start, startCall: startCall, prefix: prefix,
                              pyramid: last, pyramidCall: pyramidCall, matched: matched, parameters: parameters, sites: sites)
    }

    /// `name` read as itself, not as a member (`backend.upload`) or an argument label.
    private static func isReference(_ token: TokenSyntax, to name: String) -> Bool {
        guard token.tokenKind == .identifier(name) else { return false }
        guard let reference = token.parent?.as(DeclReferenceExprSyntax.self) else {
            // A label, a declaration's name, a type: not a use of the function, but a pattern
            // binding the name again would hide it; such code is left alone.
            return token.parent?.is(IdentifierPatternSyntax.self) == true
        }
        if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id { return false }
        return true
    }

    /// `next(index + 1)` (or `self.next(index + 1)`): a call of the function with its labels, no
    /// trailing closure.
    private static func isCall(_ call: FunctionCallExprSyntax, of name: String, labels: [String?]) -> Bool {
        let called = call.calledExpression.as(DeclReferenceExprSyntax.self) ?? call.calledExpression.as(MemberAccessExprSyntax.self)?.declName
        guard let called, called.baseName.text == name,
              call.trailingClosure == nil, call.additionalTrailingClosures.isEmpty, call.leftParen != nil else { return false }
        return call.arguments.map { $0.label?.text } == labels
    }

    /// Nothing runs after `item` up to the end of the closure or function body it is in, or up
    /// to a bare `return` right after it or after a block holding it, with no loop, `defer` or
    /// nested declaration between; a `guard`'s `else` ends the walk, since it leaves anyway.
    /// Returns that `return` (it becomes `continue`), or nil.
    static func lastOnItsPath(_ item: CodeBlockItemSyntax, body: CodeBlockSyntax) -> [CodeBlockItemSyntax]? {
        var returns: [CodeBlockItemSyntax] = []
        var current = item
        while true {
            guard let list = current.parent?.as(CodeBlockItemListSyntax.self),
                  let position = list.firstIndex(where: { $0.id == current.id }) else { return nil }
            let after = list[list.index(after: position)...]
            if let only = after.first, only.item.as(ReturnStmtSyntax.self).map({ $0.expression == nil }) == true {
                // The path leaves here (what follows the `return` never runs).
                returns.append(only)
                return returns
            } else if !after.isEmpty {
                return nil
            }
            guard let holder = list.parent else { return nil }
            // The end of the function's body or of a closure (the callback, checked by the caller).
            if holder.id == body.id { return returns }
            if holder.is(ClosureExprSyntax.self) { return returns }
            var node = Syntax(holder)
            while let parent = node.parent, !parent.is(CodeBlockItemSyntax.self) {
                if parent.is(GuardStmtSyntax.self) { return returns }
                guard parent.is(CodeBlockSyntax.self) || parent.is(IfExprSyntax.self) || parent.is(ExpressionStmtSyntax.self)
                        || parent.is(SwitchCaseSyntax.self) || parent.is(SwitchCaseListSyntax.self) || parent.is(SwitchExprSyntax.self)
                        || parent.is(DoStmtSyntax.self) || parent.is(CatchClauseSyntax.self) || parent.is(CatchClauseListSyntax.self)
                        || parent.is(IfConfigClauseSyntax.self) || parent.is(IfConfigClauseListSyntax.self) || parent.is(IfConfigDeclSyntax.self)
                else { return nil }
                node = parent
            }
            guard let statement = node.parent?.as(CodeBlockItemSyntax.self) else { return nil }
            current = statement
        }
    }

    /// The closure a recursive call is in, if any (the callback it ends), or nil for the
    /// function's own statements.
    func closure(around call: FunctionCallExprSyntax) -> ClosureExprSyntax? {
        var node = call.parent
        while let current = node, current.id != declaration.id {
            if let closure = current.as(ClosureExprSyntax.self) { return closure }
            node = current.parent
        }
        return nil
    }

    /// The names the loop declares: the variable holding the next turn's arguments.
    struct Names {
        /// `nextIndex` (one parameter), `nextTurn` (several), `again` (none).
        var variable: String
        /// `turn`: what `while let` binds, for several parameters.
        var turn = "turn"
    }

    /// The replacements of the recursive calls (and the `return` after each) in the code moved
    /// into the loop: `nextIndex = index + 1`, `(nextA, nextB)`-style for several parameters.
    func replacements(_ names: Names) -> [(Range<Int>, String)] {
        var result: [(Range<Int>, String)] = []
        for site in sites {
            let call = site.call
            let start = call.positionAfterSkippingLeadingTrivia.utf8Offset
            let end = call.endPositionBeforeTrailingTrivia.utf8Offset
            let arguments = Array(call.arguments)
            switch arguments.count {
            case 0:
                result.append((start..<end, "\(names.variable) = true"))
            case 1:
                let expression = arguments[0].expression
                result.append((start..<expression.positionAfterSkippingLeadingTrivia.utf8Offset, "\(names.variable) = "))
                result.append((expression.endPositionBeforeTrailingTrivia.utf8Offset..<end, ""))
            default:
                // `next(index + 1, collected: soFar)` -> `nextStep = (index + 1, soFar)`.
                result.append((start..<arguments[0].expression.positionAfterSkippingLeadingTrivia.utf8Offset, "\(names.variable) = ("))
                for (previous, argument) in zip(arguments, arguments.dropFirst()) {
                    result.append((previous.expression.endPositionBeforeTrailingTrivia.utf8Offset
                                   ..< argument.expression.positionAfterSkippingLeadingTrivia.utf8Offset, ", "))
                }
                result.append((arguments.last!.expression.endPositionBeforeTrailingTrivia.utf8Offset..<end, ")"))
            }
            for following in site.returns {
                let range = following.item.positionAfterSkippingLeadingTrivia.utf8Offset..<following.item.endPositionBeforeTrailingTrivia.utf8Offset
                if !result.contains(where: { $0.0 == range }) { result.append((range, "continue")) }
            }
        }
        return result
    }

    /// The loop's head: the variable, set from the start call's arguments (`starts`, their text
    /// or the constants holding them), then `while` binding each turn's parameters.
    func head(_ names: Names, starts: [String]) -> [(String, Int)] {
        switch parameters.count {
        case 0:
            return [("var \(names.variable) = true", 0), ("while \(names.variable) {", 0), ("\(names.variable) = false", 1)]
        case 1:
            let parameter = parameters[0]
            return [("var \(names.variable): \(parameter.type)? = \(starts[0])", 0),
                    ("while let \(parameter.name) = \(names.variable) {", 0),
                    ("\(names.variable) = nil", 1)]
        default:
            let type = "(" + parameters.map { "\($0.name): \($0.type)" }.joined(separator: ", ") + ")"
            let step = names.turn
            return [("var \(names.variable): \(type)? = (\(starts.joined(separator: ", ")))", 0),
                    ("while let \(step) = \(names.variable) {", 0),
                    ("\(names.variable) = nil", 1),
                    ("let (\(parameters.map(\.name).joined(separator: ", "))) = \(step)", 1)]
        }
    }
}
