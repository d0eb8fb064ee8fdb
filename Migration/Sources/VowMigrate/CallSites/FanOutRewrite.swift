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
    /// ``MigrationOptions/earlyDeployment``.
    var earlyDeployment: String?

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
        // Different calls counted by one group: the async form awaits them (`async let`); the
        // promise form's handlers could not share the block's variables they fill.
        if target == .async, let read = FanOutSequenceReader(reader: reader, target: target).read(list, at: index) {
            return rewriteSequence(read, list: list, index: index, place: place)
        }
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
            let edits = replacement(from: list[index], through: fanOut.lastStatement, with: lines, groupDeclaration: fanOut.groupDeclaration)
            return Outcome(lastIndex: lastIndex, edits: edits, converted: message(fanOut, place), node: Syntax(list[index]), calls: [fanOut.call])
        } catch {
            return Outcome(lastIndex: lastIndex, refusal: error, node: error.node)
        }
    }

    private func write(_ fanOut: FanOut, list: [CodeBlockItemSyntax], index: Int, lastIndex: Int, place: Place) throws(Refusal) -> CodeLines {
        let variables = FanOutReader.blockVariables(before: index, in: list)
        let callbackCode = fanOut.callback.success + (fanOut.callback.failure ?? [])
        switch target {
        case .promise:
            for name in variables.sorted() where StatementText.mentions(callbackCode + (fanOut.notify?.body ?? []), name) {
                throw Refusal("the callbacks use the local `var \(name)`, which a promise handler (`@Sendable`) cannot share; "
                              + "keep it in a property, or use --to async", at: fanOut.call)
            }
            return FanOutPromiseWriter(fanOut: fanOut, bytes: bytes).write()
        case .async:
            try checkDeployment(at: fanOut.call)
            try checkAsyncPlace(list: list, index: index, lastIndex: lastIndex, place: place, callees: [(fanOut.callee, fanOut.call)],
                                notify: fanOut.notify, selfCapture: fanOut.selfCapture,
                                callNodes: [Syntax(fanOut.call.calledExpression)] + fanOut.call.arguments.map(Syntax.init)
                                    + fanOut.preparation.map(Syntax.init) + [Syntax(fanOut.loop.sequence)], what: "the loop")
            if let statement = fanOut.preparation.first(where: { !$0.item.is(VariableDeclSyntax.self) }) {
                throw Refusal("the loop runs code before each call, which the task group would run before all of the calls; "
                              + "move it into the callback or out of the loop", at: statement)
            }
            let taken = place.functionBody.identifierNames
            var writer = FanOutAsyncWriter(fanOut: fanOut, bytes: bytes, enclosingIsAsync: place.enclosingIsAsync,
                                           takenNames: taken, localVariables: variables)
            writer.implicitSelfReads = Self.implicitSelfReads([fanOut.call], place: place, alsoDeclared: fanOut.loopNames)
            return writer.write()
        }
    }

    /// The async form runs the calls on the file's `FanOutExecutor`, a `TaskExecutor`, which an
    /// Apple target deploying to earlier versions does not build.
    private func checkDeployment(at node: some SyntaxProtocol) throws(Refusal) {
        guard let earlyDeployment else { return }
        throw Refusal("the async form runs the calls on a `TaskExecutor` (iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2), but "
                      + earlyDeployment + "; `--to promise` converts it", at: node)
    }

    private func rewriteSequence(_ read: FanOutSequenceReader.Outcome, list: [CodeBlockItemSyntax], index: Int, place: Place) -> Outcome {
        let sequence: FanOutSequence
        switch read {
        case .refused(let refusal, let lastIndex): return Outcome(lastIndex: lastIndex, refusal: refusal, node: refusal.node)
        case .sequence(let found): sequence = found
        }
        let lastIndex = list.firstIndex { $0.id == sequence.lastStatement.id } ?? index
        do throws(Refusal) {
            try checkDeployment(at: sequence.members[0].call)
            for member in sequence.members where member.callee.checksThreadAtOnce {
                throw Refusal("each call would run in a task of its own, on the thread pool, but the callee checks which thread "
                              + "it runs on before it returns; `--to promise` keeps it", at: member.call)
            }
            let calls = sequence.members.map(\.call)
            try checkAsyncPlace(list: list, index: index, lastIndex: lastIndex, place: place, callees: sequence.members.map { ($0.callee, $0.call) },
                                notify: sequence.notify, selfCapture: sequence.selfCapture,
                                callNodes: calls.flatMap { [Syntax($0.calledExpression)] + $0.arguments.map(Syntax.init) }, what: "the calls")
            var writer = FanOutSequenceWriter(sequence: sequence, bytes: bytes, enclosingIsAsync: place.enclosingIsAsync,
                                              takenNames: place.functionBody.identifierNames,
                                              localVariables: sequence.blockVariables)
            writer.implicitSelfReads = Self.implicitSelfReads(calls, place: place)
            let edits = replacement(from: list[index], through: sequence.lastStatement, with: writer.write(), groupDeclaration: sequence.groupDeclaration)
            let message = "converted \(calls.count) calls counted by a `DispatchGroup` to `async let`"
                + (place.enclosingIsAsync ? "" : " inside a new `Task { }`, which starts the work when the task runs instead of during the call")
                + "; the callbacks' code runs in the order of the calls, which nothing in it can tell from the order they completed in"
            return Outcome(lastIndex: lastIndex, edits: edits, converted: message, node: Syntax(list[index]), calls: calls)
        } catch {
            return Outcome(lastIndex: lastIndex, refusal: error, node: error.node)
        }
    }

    /// The edits putting `lines` in place of the statements from `first` through `last` (and
    /// removing the group's declaration), plus the serial executor the async form needs.
    private func replacement(from first: CodeBlockItemSyntax, through last: CodeBlockItemSyntax, with lines: CodeLines,
                             groupDeclaration: CodeBlockItemSyntax?) -> [TextEdit] {
        var edits: [TextEdit] = []
        if let groupDeclaration { edits.append(removal(of: groupDeclaration)) }
        let start = first.positionAfterSkippingLeadingTrivia.utf8Offset
        let end = last.endPositionBeforeTrailingTrivia.utf8Offset
        let indent = Indentation.lineIndent(in: bytes, at: start)
        let rendered = String(lines.render(baseIndent: indent, unit: unit).drop { $0 == " " || $0 == "\t" })
        edits.append(TextEdit(offset: start, removing: end - start, text: rendered))
        if target == .async, let executor = FanOutExecutor.edit(in: bytes) { edits.append(executor) }
        return edits
    }

    /// Members of `self` the calls read without `self.` (a task's closure must spell it): names
    /// the type declares that the function does not (a parameter, a local, `alsoDeclared`).
    private static func implicitSelfReads(_ calls: [FunctionCallExprSyntax], place: Place, alsoDeclared: [String] = []) -> Set<String> {
        let declaredHere = Set(parameterNames(of: place.functionBody) + alsoDeclared + place.functionBody.tokens(viewMode: .sourceAccurate).compactMap { token in
            if case .identifier(let name) = token.tokenKind, token.parent?.is(IdentifierPatternSyntax.self) == true { return name }
            return nil
        })
        let callNodes = calls.flatMap { [Syntax($0.calledExpression)] + $0.arguments.map(Syntax.init) }
        return ValueThreading.reads(in: callNodes).filter { place.selfMembers.contains($0) && !declaredHere.contains($0) }
    }

    /// What stops the async form of a fan-out (loop or sequence) where it stands: code after
    /// it, an earlier callback, `self` read through `[weak self]`, no Dispatch, a notify queue
    /// async code cannot name.
    private func checkAsyncPlace(list: [CodeBlockItemSyntax], index: Int, lastIndex: Int, place: Place,
                                 callees: [(CalleeSummary, FunctionCallExprSyntax)], notify: FanOut.Notify?, selfCapture: String?,
                                 callNodes: [Syntax], what: String) throws(Refusal) {
        let rest = list[(lastIndex + 1)...]
        let codeAfter = place.codeAfterBlock || !(rest.isEmpty || (rest.count == 1 && Self.isBareReturn(rest.first!)))
        if codeAfter && !place.enclosingIsAsync {
            throw Refusal("code after the callbacks would run before them inside a `Task`", at: list[index])
        }
        if codeAfter {
            throw Refusal("code after the callbacks would run after them once they are awaited", at: list[index])
        }
        if place.enclosingIsAsync {
            for (callee, call) in callees { try CalleeSummary.checkAnswers(callee, at: call) }
        }
        if place.startedCallback && !place.enclosingIsAsync {
            throw Refusal("a callback started earlier in the function could run before the new `Task` makes its first call", at: list[index])
        }
        if !place.enclosingIsAsync, selfCapture == "[weak self]" {
            // Inside `Task { [weak self] in }` the calls could reach `self` only as `self?.`.
            let names = ValueThreading.reads(in: callNodes).filter(place.selfMembers.contains).sorted()
                + (callNodes.contains { $0.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .keyword(.self) } } ? ["self"] : [])
            if let name = names.first {
                throw Refusal("\(what) reads `\(name)` through `self`, which a `Task { [weak self] }` could only reach as `self?.`", at: list[index])
            }
        }
        // The file's own text (a piece of a large file sees its imports there too).
        let source = String(decoding: bytes, as: UTF8.self)
        if !["Foundation", "Dispatch", "UIKit", "AppKit", "SwiftUI"].contains(where: { source.contains("import \($0)") }) {
            throw Refusal("the file imports neither Foundation nor Dispatch, which the serial executor of the task group needs", at: list[index])
        }
        if let notify, let queue = notify.queue, !notify.onGlobalQueue {
            throw Refusal("the notify block runs on `\(queue.trimmedDescription)`, which async code cannot name; "
                          + "notify on `.main` or `.global()`, or convert to promises", at: notify.statement)
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
