import Foundation
import SwiftSyntax

/// Writes a ``FanOut`` in promise form: the loop stays, each element's call becomes its promise
/// alternative with the callback's code in `done(on: nil)` and `recover(on: nil)`, and the
/// notify block waits for all of them with `when(guarantees:)`.
///
/// ```swift
/// var group: [Guarantee<Void>] = []
/// for id in ids {
///     group.append(api.item(id).done(on: nil) { item in
///         self.items.append(item)
///     }.recover(on: nil) { error in
///         self.failures += 1
///     })
/// }
/// when(guarantees: group).done(on: .main) {
///     self.show(self.items)
/// }
/// ```
///
/// Why this and not `when(fulfilled:)`: that rejects at the first failure, before the other
/// callbacks' code has run, where the group waited for every `leave()`. Each call's handlers run
/// `on: nil`, where its promise settles (the thread the original callback ran on), so the
/// callbacks' code still runs as each call completes, in completion order; the calls start in
/// loop order during the function, as before.
struct FanOutPromiseWriter {
    let fanOut: FanOut
    let bytes: [UInt8]

    func write() -> CodeLines {
        var lines = CodeLines()
        // The array takes the group's name: it counts the calls now, and no other name in the
        // scope can be that one (a second fan-out in the function has its own group).
        let callsName = fanOut.groupName ?? "calls"
        let hasNotify = fanOut.notify != nil
        if hasNotify { lines.add("var \(callsName): [Guarantee<Void>] = []", 0) }
        lines.add(fanOut.loopHeader(in: bytes) + " {", 0)
        let text = StatementText(bytes: bytes)
        for line in text.lines(fanOut.preparation) { lines.add(line, 1) }
        lines.add(callChain(appendingTo: hasNotify ? callsName : nil), indentedBy: 1)
        lines.add("}", 0)
        if let notify = fanOut.notify {
            let queue = notify.queue.map { text.text(of: $0) } ?? ".main"
            lines.add("when(guarantees: \(callsName)).done(on: \(queue)) {\(capture(for: notify.body, parameters: nil))", 0)
            for line in text.lines(notify.body) { lines.add(line, 1) }
            lines.add("}", 0)
        }
        return lines
    }

    /// `api.item(id).done(on: nil) { item in ... }.recover(on: nil) { error in ... }`.
    private func callChain(appendingTo array: String?) -> CodeLines {
        let callback = fanOut.callback
        var text = StatementText(bytes: bytes)
        if callback.unwrapsValue, let name = callback.valueName { text.unwrapped.insert(name) }
        var lines = CodeLines()
        let opening = array.map { "\($0).append(" } ?? ""
        let valueIsVoid = fanOut.callee.shape.valueType == "Void"
        let parameter = valueIsVoid ? nil : (callback.valueName ?? "_")
        if callback.ignoresOutcome {
            // The code runs after the call either way: the error is dropped first, where the
            // promise settles, and the code follows at once.
            let dropped = fanOut.invocation + (valueIsVoid ? "" : ".asVoid()") + ".recover(on: nil) { _ in }"
            if callback.success.isEmpty {
                lines.add(opening + dropped + (array == nil ? "" : ")"), 0)
                return lines
            }
            lines.add(opening + dropped + ".done(on: nil) {" + capture(for: callback.success, parameters: nil), 0)
            for line in text.lines(callback.success) { lines.add(line, 1) }
            lines.add("}" + (array == nil ? "" : ")"), 0)
            return lines
        }
        lines.add(opening + fanOut.invocation + ".done(on: nil) {" + capture(for: callback.success, parameters: parameter), 0)
        for line in text.lines(callback.success) { lines.add(line, 1) }
        if let failure = callback.failure {
            lines.add("}.recover(on: nil) {" + capture(for: failure, parameters: callback.errorName ?? "_"), 0)
            for line in text.lines(failure) { lines.add(line, 1) }
        }
        lines.add("}" + (array == nil ? "" : ")"), 0)
        return lines
    }

    /// ` [weak self] value in`, ` value in`, or nothing.
    private func capture(for statements: [CodeBlockItemSyntax], parameters: String?) -> String {
        let captured = fanOut.selfCapture.flatMap { StatementText.mentionsSelf(statements) ? $0 : nil }
        let parts = [captured, parameters].compactMap { $0 }
        return parts.isEmpty ? "" : " " + parts.joined(separator: " ") + " in"
    }
}
