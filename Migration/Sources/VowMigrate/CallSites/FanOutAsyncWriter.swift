import Foundation
import SwiftSyntax

/// Writes a ``FanOut`` in async form: a task group whose children make the calls, and a
/// `for await` over the group that runs each callback's code in the parent task, one result at
/// a time, as the calls complete; then the notify block on the main actor.
///
/// ```swift
/// Task {
///     let executor = FanOutExecutor()
///     await withTaskExecutorPreference(executor) {
///         await withTaskGroup { group in
///             for id in ids {
///                 group.addTask {
///                     await executor.answer {
///                         do { return (id, Swift.Result<_, any Error>.success(try await api.item(id))) } catch { return (id, .failure(error)) }
///                     }
///                 }
///             }
///             for await (id, result) in group {
///                 switch result {
///                 case .success(let item):
///                     self.items.append(item)
///                 case .failure(let error):
///                     self.show("item \(id) failed: \(error)")
///                 }
///             }
///         }
///     }
///     await MainActor.run {
///         self.show(self.items)
///     }
/// }
/// ```
///
/// Why the serial executor (``FanOutExecutor``, added once to the file): on the shared pool,
/// children resumed one after another by the callee's queue finish in any order, so results
/// that came back in one order would be handled in another. Preferring one serial executor,
/// the children run one at a time: each makes its call in loop order, and each finishes in the
/// order the callee answered, which is the order the group hands the results to the parent
/// (completion order, never sorted). One case needs more: a call answered before its child
/// suspended returns within the job that made it, ahead of children answered earlier whose
/// resumptions wait in the queue; `answer` sends such a child to the back of the queue first.
/// (Without it, a callee answering on a serial queue at once had, now and then, two results
/// handled the other way round.) The callbacks' code runs in the parent, never concurrently, as
/// a serial callback queue ran it.
struct FanOutAsyncWriter {
    let fanOut: FanOut
    let bytes: [UInt8]
    let enclosingIsAsync: Bool
    /// Identifiers the function already uses: the task group gets a name none of them has.
    let takenNames: Set<String>
    /// `var`s the block declares before the loop: the notify block, on the main actor, reads copies.
    let localVariables: Set<String>
    /// Members of `self` the call reads without `self.` (`service.item(id)`): a child task's
    /// closure must spell `self.`.
    var implicitSelfReads: Set<String> = []

    func write() -> CodeLines {
        let callback = fanOut.callback
        var text = StatementText(bytes: bytes)
        let groupName = fanOut.groupName ?? (["group", "calls", "pendingCalls"].first { !takenNames.contains($0) } ?? "pendingCalls")
        let valueIsVoid = fanOut.callee.shape.valueType == "Void"
        let canFail = callback.failure != nil
        // The loop's element and what the loop body declares, as far as the callback's code reads
        // them, go with each result: the code runs after the loop, where they are out of scope.
        let code = callback.success + (callback.failure ?? [])
        let carried = (fanOut.loopNames + AsyncCallSiteWriter.declaredNames(fanOut.preparation)).filter { StatementText.mentions(code, $0) }
        let resultName = ["result", "outcome", "answer"].first { !takenNames.contains($0) } ?? "answer"
        let answerName = canFail ? resultName : (valueIsVoid ? "_" : callback.valueName ?? "_")
        let tuple = { (answer: String) in carried.isEmpty ? answer : "(" + (carried + [answer]).joined(separator: ", ") + ")" }
        // The code ignores the answer: the children carry only what it reads.
        let carriedOnly = carried.count == 1 ? carried[0] : "(" + carried.joined(separator: ", ") + ")"

        let invocation = childInvocation()
        // Code runs per result: each child makes its call through the executor, which keeps
        // the order the calls answered in (see the type's comment).
        let perResult = !(callback.ignoresOutcome && callback.success.isEmpty)
        let executorName = ["executor", "fanOutExecutor", "callExecutor"].first { !takenNames.contains($0) } ?? "callExecutor"
        var body = CodeLines()
        // The children's result type is inferred from what they return (Swift 6.1).
        if perResult {
            body.add("let \(executorName) = \(FanOutExecutor.name)()", 0)
            body.add("await withTaskExecutorPreference(\(executorName)) {", 0)
        } else {
            body.add("await withTaskExecutorPreference(\(FanOutExecutor.name)()) {", 0)
        }
        body.add("await withTaskGroup { \(groupName) in", 1)
        body.add(fanOut.loopHeader(in: bytes) + " {", 2)
        for line in text.lines(fanOut.preparation) { body.add(line, 3) }
        body.add("\(groupName).addTask {", 3)
        let depth = perResult ? 5 : 4
        if perResult { body.add("await \(executorName).answer {", 4) }
        if callback.ignoresOutcome {
            body.add("_ = try? await \(invocation)", depth)
            if perResult { body.add("return \(carried.isEmpty ? "()" : carriedOnly)", depth) }
        } else if canFail && valueIsVoid {
            body.add("do { try await \(invocation); return \(tuple("Swift.Result<Void, any Error>.success(())")) } "
                     + "catch { return \(tuple(".failure(error)")) }", depth)
        } else if canFail {
            body.add("do { return \(tuple("Swift.Result<_, any Error>.success(try await \(invocation))")) } "
                     + "catch { return \(tuple(".failure(error)")) }", depth)
        } else {
            body.add("return \(tuple("await \(invocation)"))", depth)
        }
        if perResult { body.add("}", 4) }
        body.add("}", 3)
        body.add("}", 2)
        if callback.unwrapsValue, let name = callback.valueName { text.unwrapped.insert(name) }
        if !perResult {
            // Nothing to run per result: the group waits for its children as it ends.
        } else if callback.ignoresOutcome {
            body.add("for await \(carried.isEmpty ? "_" : carriedOnly) in \(groupName) {", 2)
        } else {
            body.add("for await \(carried.isEmpty ? answerName : tuple(answerName)) in \(groupName) {", 2)
        }
        if canFail {
            body.add("switch \(resultName) {", 3)
            body.add(valueIsVoid || callback.valueName == nil ? "case .success:" : "case .success(let \(callback.valueName!)):", 3)
            addCase(callback.success, to: &body, text: text)
            body.add(callback.errorName.map { "case .failure(let \($0)):" } ?? "case .failure:", 3)
            addCase(callback.failure ?? [], to: &body, text: text)
            body.add("}", 3)
        } else {
            for line in text.lines(callback.success) { body.add(line, 3) }
        }
        if perResult { body.add("}", 2) }
        body.add("}", 1)
        body.add("}", 0)
        return Self.finish(body, notify: fanOut.notify, selfCapture: fanOut.selfCapture, localVariables: localVariables,
                           bytes: bytes, enclosingIsAsync: enclosingIsAsync)
    }

    /// The notify block after the calls' code (in the task for `.global()`, on the main actor
    /// reading copies of the block's variables for `.main`), all in a new `Task` unless the
    /// function is async. Shared with ``FanOutSequenceWriter``.
    static func finish(_ calls: CodeLines, notify: FanOut.Notify?, selfCapture: String?, localVariables: Set<String>,
                       bytes: [UInt8], enclosingIsAsync: Bool) -> CodeLines {
        var body = calls
        let text = StatementText(bytes: bytes)
        if let notify, notify.onGlobalQueue {
            // A global queue's block runs on any background thread: the task's will do.
            for line in text.lines(notify.body) { body.add(line, 0) }
        } else if let notify {
            // The block ran on the main queue after the last `leave()`; nothing changes the
            // variables any more, so it reads copies (a closure sent to the main actor cannot
            // share a `var`).
            let copied = localVariables.filter { StatementText.mentions(notify.body, $0) }.sorted()
            let captured = (selfCapture.flatMap { StatementText.mentionsSelf(notify.body) ? [$0.dropFirst().dropLast()] : nil } ?? [])
                + copied.map { Substring($0) }
            body.add("await MainActor.run {" + (captured.isEmpty ? "" : " [\(captured.joined(separator: ", "))] in"), 0)
            for line in text.lines(notify.body) { body.add(line, 1) }
            body.add("}", 0)
        }
        if enclosingIsAsync { return body }
        let mentionsSelf = body.lines.contains { $0.text.contains("self") }
        var lines = CodeLines()
        lines.add("Task {" + (mentionsSelf && selfCapture != nil ? " \(selfCapture!) in" : ""), 0)
        lines.add(body, indentedBy: 1)
        lines.add("}", 0)
        return lines
    }

    private func addCase(_ statements: [CodeBlockItemSyntax], to body: inout CodeLines, text: StatementText) {
        let lines = text.lines(statements)
        if lines.isEmpty { body.add("break", 4) }
        for line in lines { body.add(line, 4) }
    }

    /// `api.item(id)`, with `self.` before the members of `self` it reads.
    private func childInvocation() -> String {
        var text = StatementText(bytes: bytes)
        text.renamed = Dictionary(uniqueKeysWithValues: implicitSelfReads.map { ($0, "self.\($0)") })
        let arguments = fanOut.call.arguments.enumerated().filter { $0.offset != fanOut.callee.handlerIndex }.map { entry in
            (entry.element.label.map { $0.text + ": " } ?? "") + text.text(of: entry.element.expression)
        }
        return text.text(of: fanOut.call.calledExpression) + "(" + arguments.joined(separator: ", ") + ")"
    }
}
