import SwiftSyntax

/// The answers ``InlinePyramidWriter`` takes another way than through the alternative's
/// `do`/`catch`: a split `success:`/`failure:` pair's failure callback, whose code goes into the
/// `catch`; and values a handler passes beside its error, which the alternative would drop,
/// awaited through a continuation around the original call.
extension InlinePyramidWriter {
    /// The `catch` of a split `success:`/`failure:` pair: the failure callback's code, its error
    /// bound by the `catch`, then `return`, since the call was the last thing on its path (the
    /// success callback's code follows the `do`, where only a value gets).
    mutating func failureBranch(call: FunctionCallExprSyntax, callee: CalleeSummary, success: ClosureExprSyntax,
                                        isOutermost: Bool, constants: [String], renamed: [String: String]) throws(Refusal) -> CodeLines {
        guard let index = callee.failureIndex else { return CodeLines() }
        let arguments = Array(call.arguments)
        let expression = index < arguments.count ? arguments[index].expression : call.trailingClosure.map(ExprSyntax.init)
        guard let failure = expression?.as(ClosureExprSyntax.self) else {
            throw Refusal("the failure callback is not a closure written at the call; write it as one, or convert this call by hand", at: call)
        }
        let errorType = (callee.failureHandlerType ?? "").filter { $0 != " " }
        if !["(Error)->", "(anyError)->", "(Swift.Error)->"].contains(where: errorType.contains) {
            throw Refusal("the failure callback takes a typed error, which a `catch` gives as `any Error`; convert this call by hand", at: failure)
        }
        if let list = failure.signature?.capture {
            let text = list.trimmedDescription.filter { $0 != " " }
            if !isOutermost || text != success.signature?.capture?.trimmedDescription.filter({ $0 != " " }) {
                throw Refusal("the failure callback's capture list is not the success callback's, which the task's code shares", at: list)
            }
        }
        if enclosingIsAsync && enclosingReturnsValue {
            throw Refusal("the failure callback's path ends the async function, which returns a value", at: failure)
        }
        let statements = Array(failure.statements)
        let finder = KnownCallFinder(reader: reader)
        for statement in statements { finder.walk(statement) }
        if let (inner, _, _) = finder.calls.first {
            throw Refusal("the failure callback calls a completion-handler function too, which is not flattened; convert it by hand", at: inner)
        }
        var renamed = renamed
        var name = PyramidReader.parameterNames(failure)?.first
        if failure.signature == nil {
            let usesDollar = statements.contains { statement in
                statement.tokens(viewMode: .sourceAccurate).contains {
                    $0.tokenKind == .dollarIdentifier("$0") && !StatementText.isInsideClosure($0, below: statement)
                }
            }
            name = usesDollar ? fresh("error") : nil
            if let name { renamed["$0"] = name }
        }
        let read = ValueThreading.reads(in: statements.map(Syntax.init)).union(Self.shorthandBindings(in: statements))
        if let clash = constants.first(where: read.contains), clash != name {
            throw Refusal("the failure callback reads `\(clash)`, which the success callback's value would hide in straight-line code", at: failure)
        }
        if let name, name != "_", read.contains(name) || renamed["$0"] == name { renamed[name] = nil } else { name = nil }
        convertedHandlers.append(failure)
        var lines = CodeLines()
        // `catch _`: an implicit `error` would hide one the callback reads from outside.
        lines.add("} catch " + (name.map { "let \($0)" } ?? "_") + " {", 0)
        for item in statements {
            for line in text(of: item, renamed: renamed, replacing: []) { lines.add(line, 1) }
        }
        if !(statements.last?.item.is(ReturnStmtSyntax.self) ?? false) { lines.add("return", 1) }
        return lines
    }

    /// Every value the handler passes as it passes them, a value given with its error too,
    /// awaited through a continuation around the original call: the alternative throws the error
    /// and drops the values that came with it, which the callback may read (`(0, 0, error)`).
    /// The continuation is resumed once, as the alternative's would be: the index gave the callee
    /// an alternative only because it calls its handler once on every path.
    mutating func continuation(callee: CalleeSummary, call: FunctionCallExprSyntax, called: String, arguments: [String],
                                       constants: [String?], types: [String]) -> CodeLines {
        let continuation = fresh("continuation")
        let values = types.indices.map { "$\($0)" }.joined(separator: ", ")
        let resume = "{ \(continuation).resume(returning: (\(values))) }"
        var invocation: String
        if call.trailingClosure != nil && callee.handlerIndex >= call.arguments.count {
            invocation = called + (arguments.isEmpty ? "" : "(" + arguments.joined(separator: ", ") + ")") + " " + resume
        } else {
            var all = arguments
            let label = callee.labels[callee.handlerIndex].map { $0 + ": " } ?? ""
            all.insert(label + resume, at: min(callee.handlerIndex, all.count))
            invocation = called + "(" + all.joined(separator: ", ") + ")"
        }
        var lines = CodeLines()
        let opening = "await withCheckedContinuation { \(continuation) in"
        if constants.allSatisfy({ $0 == nil }) {
            lines.add("_ = " + opening, 0)
        } else {
            lines.add("let (\(constants.map { $0 ?? "_" }.joined(separator: ", "))): (\(types.joined(separator: ", "))) = " + opening, 0)
        }
        lines.add(invocation, 1)
        lines.add("}", 0)
        return lines
    }
}
