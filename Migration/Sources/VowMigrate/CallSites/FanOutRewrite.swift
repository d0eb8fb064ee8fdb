import SwiftSyntax

/// The call-site stage's fan-outs: at a `for` statement of a block, reads a ``FanOut`` and
/// writes it in the target's form, or says why it is left alone. The stage calls this first for
/// every statement and takes what it returns (the edits, one report, and how many statements
/// the fan-out covered); nil means the statement is not a fan-out.
struct FanOutRewrite {
    let bytes: [UInt8]
    let target: MigrationTarget
    let reader: PyramidReader
    let unit: String

    /// What the enclosing function tells about the place.
    struct Place {
        var functionBody: CodeBlockSyntax
        var enclosingIsAsync: Bool
        /// An earlier statement started a callback, which could run before a new `Task` starts its calls.
        var startedCallback: Bool
        /// Code after the block runs after it.
        var codeAfterBlock: Bool
        /// What the enclosing type declares: the calls may read it without `self.`.
        var selfMembers: Set<String>
    }

    struct Outcome {
        /// The index of the last statement of the block the fan-out covered.
        var lastIndex: Int
        var edits: [TextEdit] = []
        /// The report's message when converted, or why not.
        var converted: String?
        var refusal: Refusal?
        var node: Syntax
        /// The calls a converted fan-out makes through their alternatives.
        var calls: [FunctionCallExprSyntax] = []
    }

    func rewrite(_ list: [CodeBlockItemSyntax], at index: Int, place: Place) -> Outcome? {
        guard let read = FanOutReader(reader: reader, target: target).read(list, at: index) else { return nil }
        let fanOut: FanOut
        switch read {
        case .refused(let refusal): return Outcome(lastIndex: index, refusal: refusal, node: refusal.node)
        case .fanOut(let found): fanOut = found
        }
        let lastIndex = list.firstIndex { $0.id == fanOut.lastStatement.id } ?? index
        // Each call runs in a child task of a task group, on the thread pool, whatever the code
        // around it is isolated to.
        if target == .async && fanOut.callee.checksThreadAtOnce {
            let refusal = Refusal("each call would run in a task group's child task, on the thread pool, but the callee checks which thread "
                                  + "it runs on before it returns; `--to promise` keeps it", at: fanOut.call)
            return Outcome(lastIndex: lastIndex, refusal: refusal, node: refusal.node)
        }
        do throws(Refusal) {
            let lines = try write(fanOut, list: list, index: index, lastIndex: lastIndex, place: place)
            var edits: [TextEdit] = []
            if let declaration = fanOut.groupDeclaration { edits.append(removal(of: declaration)) }
            let start = list[index].positionAfterSkippingLeadingTrivia.utf8Offset
            let end = fanOut.lastStatement.endPositionBeforeTrailingTrivia.utf8Offset
            let indent = Indentation.lineIndent(in: bytes, at: start)
            let rendered = String(lines.render(baseIndent: indent, unit: unit).drop { $0 == " " || $0 == "\t" })
            edits.append(TextEdit(offset: start, removing: end - start, text: rendered))
            if target == .async, let executor = FanOutExecutor.edit(in: bytes) { edits.append(executor) }
            return Outcome(lastIndex: lastIndex, edits: edits, converted: message(fanOut, place), node: Syntax(list[index]), calls: [fanOut.call])
        } catch {
            return Outcome(lastIndex: lastIndex, refusal: error, node: error.node)
        }
    }

    private func write(_ fanOut: FanOut, list: [CodeBlockItemSyntax], index: Int, lastIndex: Int, place: Place) throws(Refusal) -> CodeLines {
        let variables = Set(list[..<index].flatMap { item -> [String] in
            guard let variable = item.item.as(VariableDeclSyntax.self), variable.bindingSpecifier.tokenKind == .keyword(.var) else { return [] }
            return AsyncCallSiteWriter.declaredNames([item])
        })
        let callbackCode = fanOut.callback.success + (fanOut.callback.failure ?? [])
        switch target {
        case .promise:
            for name in variables.sorted() where StatementText.mentions(callbackCode + (fanOut.notify?.body ?? []), name) {
                throw Refusal("the callbacks use the local `var \(name)`, which a promise handler (`@Sendable`) cannot share; "
                              + "keep it in a property, or use --to async", at: fanOut.call)
            }
            return FanOutPromiseWriter(fanOut: fanOut, bytes: bytes).write()
        case .async:
            let rest = list[(lastIndex + 1)...]
            let codeAfter = place.codeAfterBlock || !(rest.isEmpty || (rest.count == 1 && Self.isBareReturn(rest.first!)))
            if codeAfter && !place.enclosingIsAsync {
                throw Refusal("code after the callbacks would run before them inside a `Task`", at: list[index])
            }
            if codeAfter {
                throw Refusal("code after the callbacks would run after them once they are awaited", at: list[index])
            }
            if place.enclosingIsAsync { try CalleeSummary.checkAnswers(fanOut.callee, at: fanOut.call) }
            if place.startedCallback && !place.enclosingIsAsync {
                throw Refusal("a callback started earlier in the function could run before the new `Task` makes its first call", at: list[index])
            }
            if !place.enclosingIsAsync, fanOut.selfCapture == "[weak self]" {
                // Inside `Task { [weak self] in }` the calls could reach `self` only as `self?.`.
                let nodes = [Syntax(fanOut.call.calledExpression)] + fanOut.call.arguments.map(Syntax.init)
                    + fanOut.preparation.map(Syntax.init) + [Syntax(fanOut.loop.sequence)]
                let names = ValueThreading.reads(in: nodes).filter(place.selfMembers.contains).sorted()
                    + (nodes.contains { $0.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .keyword(.self) } } ? ["self"] : [])
                if let name = names.first {
                    throw Refusal("the loop reads `\(name)` through `self`, which a `Task { [weak self] }` could only reach as `self?.`", at: fanOut.loop)
                }
            }
            if let statement = fanOut.preparation.first(where: { !$0.item.is(VariableDeclSyntax.self) }) {
                throw Refusal("the loop runs code before each call, which the task group would run before all of the calls; "
                              + "move it into the callback or out of the loop", at: statement)
            }
            // The file's own text (a piece of a large file sees its imports there too).
            let source = String(decoding: bytes, as: UTF8.self)
            if !["Foundation", "Dispatch", "UIKit", "AppKit", "SwiftUI"].contains(where: { source.contains("import \($0)") }) {
                throw Refusal("the file imports neither Foundation nor Dispatch, which the serial executor of the task group needs", at: fanOut.loop)
            }
            if let notify = fanOut.notify, notify.queue != nil, !notify.onGlobalQueue {
                throw Refusal("the notify block runs on `\(notify.queue!.trimmedDescription)`, which async code cannot name; "
                              + "notify on `.main` or `.global()`, or convert to promises", at: notify.statement)
            }
            let taken = place.functionBody.identifierNames
            var writer = FanOutAsyncWriter(fanOut: fanOut, bytes: bytes, enclosingIsAsync: place.enclosingIsAsync,
                                           takenNames: taken, localVariables: variables)
            // A name the function declares (a parameter, a local, the loop's element) is not `self`'s.
            let declaredHere = Set(Self.parameterNames(of: place.functionBody) + fanOut.loopNames + place.functionBody.tokens(viewMode: .sourceAccurate).compactMap { token in
                if case .identifier(let name) = token.tokenKind, token.parent?.is(IdentifierPatternSyntax.self) == true { return name }
                return nil
            })
            let callNodes = [Syntax(fanOut.call.calledExpression)] + fanOut.call.arguments.map(Syntax.init)
            writer.implicitSelfReads = ValueThreading.reads(in: callNodes).filter { place.selfMembers.contains($0) && !declaredHere.contains($0) }
            return writer.write()
        }
    }

    private func message(_ fanOut: FanOut, _ place: Place) -> String {
        let loop = fanOut.groupName == nil ? "a loop of callbacks" : "a loop of callbacks and its `DispatchGroup`"
        switch target {
        case .promise:
            return "converted \(loop) to promises" + (fanOut.notify == nil ? "" : " joined by `when(guarantees:)`")
        case .async:
            return "converted \(loop) to a task group"
                + (place.enclosingIsAsync ? "" : " inside a new `Task { }`, which starts the work when the task runs instead of during the call")
        }
    }

    /// The whole line of `let group = DispatchGroup()`, when nothing else is on it.
    private func removal(of item: CodeBlockItemSyntax) -> TextEdit {
        var start = item.positionAfterSkippingLeadingTrivia.utf8Offset
        var end = item.endPositionBeforeTrailingTrivia.utf8Offset
        var lineStart = start
        while lineStart > 0, bytes[lineStart - 1] == UInt8(ascii: " ") || bytes[lineStart - 1] == UInt8(ascii: "\t") { lineStart -= 1 }
        var lineEnd = end
        while lineEnd < bytes.count, bytes[lineEnd] == UInt8(ascii: " ") || bytes[lineEnd] == UInt8(ascii: "\t") || bytes[lineEnd] == UInt8(ascii: "\r") {
            lineEnd += 1
        }
        if (lineStart == 0 || bytes[lineStart - 1] == UInt8(ascii: "\n")) && lineEnd < bytes.count && bytes[lineEnd] == UInt8(ascii: "\n") {
            start = lineStart
            end = lineEnd + 1
        }
        return TextEdit(offset: start, removing: end - start, text: "")
    }

    private static func isBareReturn(_ item: CodeBlockItemSyntax) -> Bool {
        item.item.as(ReturnStmtSyntax.self).map { $0.expression == nil } ?? false
    }

    /// The parameters of the function or initializer whose body this is.
    private static func parameterNames(of body: CodeBlockSyntax) -> [String] {
        let clause = body.parent?.as(FunctionDeclSyntax.self)?.signature.parameterClause
            ?? body.parent?.as(InitializerDeclSyntax.self)?.signature.parameterClause
        return clause?.parameters.map { ($0.secondName ?? $0.firstName).text } ?? []
    }
}
