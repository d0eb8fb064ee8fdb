import Foundation
import SwiftSyntax

/// Writes a ``FanOut`` in async form: a task group whose children make the calls, and a
/// `for await` over the group that runs each callback's code in the parent task, one result at
/// a time, as the calls complete; then the notify block on the main actor.
///
/// ```swift
/// Task {
///     await withTaskGroup(of: Result<Item, any Error>.self) { group in
///         for id in ids {
///             group.addImmediateTask {
///                 do { return .success(try await api.item(id)) } catch { return .failure(error) }
///             }
///         }
///         for await result in group {
///             switch result {
///             case .success(let item):
///                 self.items.append(item)
///             case .failure(let error):
///                 self.failures += 1
///             }
///         }
///     }
///     await MainActor.run {
///         self.show(self.items)
///     }
/// }
/// ```
///
/// Why `addImmediateTask` (Swift 6.2): each child runs at once, on the parent's thread, up to
/// the alternative's first suspension, which is after the original call was made; so the calls
/// start in loop order, all before any result is handled, as the loop started them. Children
/// added with `addTask` would start in any order. The callbacks' code runs in the parent, never
/// concurrently, as a serial callback queue ran it; results come in completion order.
struct FanOutAsyncWriter {
    let fanOut: FanOut
    let bytes: [UInt8]
    let enclosingIsAsync: Bool
    /// Identifiers the function already uses: the task group gets a name none of them has.
    let takenNames: Set<String>
    /// `var`s the block declares before the loop: the notify block, on the main actor, reads copies.
    let localVariables: Set<String>

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

        var body = CodeLines()
        // The children's result type is inferred from what they return (Swift 6.1).
        body.add("await withTaskGroup { \(groupName) in", 0)
        body.add(fanOut.loopHeader(in: bytes) + " {", 1)
        for line in text.lines(fanOut.preparation) { body.add(line, 2) }
        body.add("\(groupName).addImmediateTask {", 2)
        if canFail && valueIsVoid {
            body.add("do { try await \(fanOut.invocation); return \(tuple("Result<Void, any Error>.success(())")) } "
                     + "catch { return \(tuple(".failure(error)")) }", 3)
        } else if canFail {
            body.add("do { return \(tuple("Result<_, any Error>.success(try await \(fanOut.invocation))")) } "
                     + "catch { return \(tuple(".failure(error)")) }", 3)
        } else {
            body.add(carried.isEmpty ? "await \(fanOut.invocation)" : "return \(tuple("await \(fanOut.invocation)"))", 3)
        }
        body.add("}", 2)
        body.add("}", 1)
        if callback.unwrapsValue, let name = callback.valueName { text.unwrapped.insert(name) }
        body.add("for await \(carried.isEmpty ? answerName : tuple(answerName)) in \(groupName) {", 1)
        if canFail {
            body.add("switch \(resultName) {", 2)
            body.add(valueIsVoid || callback.valueName == nil ? "case .success:" : "case .success(let \(callback.valueName!)):", 2)
            addCase(callback.success, to: &body, text: text)
            body.add(callback.errorName.map { "case .failure(let \($0)):" } ?? "case .failure:", 2)
            addCase(callback.failure ?? [], to: &body, text: text)
            body.add("}", 2)
        } else {
            for line in text.lines(callback.success) { body.add(line, 2) }
        }
        body.add("}", 1)
        body.add("}", 0)
        if let notify = fanOut.notify {
            // The block ran on the main queue after the last `leave()`; nothing changes the
            // variables any more, so it reads copies (a closure sent to the main actor cannot
            // share a `var`).
            let copied = localVariables.filter { StatementText.mentions(notify.body, $0) }.sorted()
            let captured = (fanOut.selfCapture.flatMap { StatementText.mentionsSelf(notify.body) ? [$0.dropFirst().dropLast()] : nil } ?? [])
                + copied.map { Substring($0) }
            body.add("await MainActor.run {" + (captured.isEmpty ? "" : " [\(captured.joined(separator: ", "))] in"), 0)
            for line in text.lines(notify.body) { body.add(line, 1) }
            body.add("}", 0)
        }
        if enclosingIsAsync { return body }
        let mentionsSelf = body.lines.contains { $0.text.contains("self") }
        var lines = CodeLines()
        lines.add("Task {" + (mentionsSelf && fanOut.selfCapture != nil ? " \(fanOut.selfCapture!) in" : ""), 0)
        lines.add(body, indentedBy: 1)
        lines.add("}", 0)
        return lines
    }

    private func addCase(_ statements: [CodeBlockItemSyntax], to body: inout CodeLines, text: StatementText) {
        let lines = text.lines(statements)
        if lines.isEmpty { body.add("break", 3) }
        for line in lines { body.add(line, 3) }
    }
}
