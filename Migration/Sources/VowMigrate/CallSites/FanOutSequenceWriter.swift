import SwiftSyntax

/// Writes a ``FanOutSequence`` in async form: the calls started together with `async let`, in
/// the order they were made (their tasks prefer one serial ``FanOutExecutor``, so each makes its
/// call before the next starts, as the original made them one after the other), then each
/// callback's code with what its call answered, in order (which the reader made sure cannot
/// show), then the notify block.
///
/// ```swift
/// Task {
///     await withTaskExecutorPreference(FanOutExecutor()) {
///         async let profileAnswer = api.profile(id)
///         async let feedAnswer = api.feed(id)
///         do {
///             let value = try await profileAnswer
///             profile = value
///         } catch {
///         }
///         do {
///             let posts = try await feedAnswer
///             feed = posts
///         } catch {
///         }
///     }
///     await MainActor.run { [profile, feed] in
///         self.show(profile, feed)
///     }
/// }
/// ```
struct FanOutSequenceWriter {
    let sequence: FanOutSequence
    let bytes: [UInt8]
    let enclosingIsAsync: Bool
    /// Identifiers the function already uses: the `async let`s get names none of them has.
    let takenNames: Set<String>
    /// `var`s the block declares before the group: the notify block, on the main actor, reads copies.
    let localVariables: Set<String>
    /// Members of `self` the calls read without `self.`: inside the task's closure they are spelled `self.`.
    var implicitSelfReads: Set<String> = []

    func write() -> CodeLines {
        var taken = takenNames
        var body = CodeLines()
        body.add("await withTaskExecutorPreference(\(FanOutExecutor.name)()) {", 0)
        var names: [String] = []
        for member in sequence.members {
            let base = PyramidReader.baseName(member.call) ?? "call"
            var name = base + "Answer"
            var number = 2
            while taken.contains(name) { name = base + "Answer\(number)"; number += 1 }
            taken.insert(name)
            names.append(name)
            let isVoid = member.callee.shape.valueType == "Void"
            body.add("async let \(name)\(isVoid ? ": Void" : "") = \(invocation(member))", 1)
        }
        for (member, name) in zip(sequence.members, names) {
            body.add(callbackLines(member, answer: name), indentedBy: 1)
        }
        body.add("}", 0)
        return FanOutAsyncWriter.finish(body, notify: sequence.notify, selfCapture: sequence.selfCapture, localVariables: localVariables,
                                        bytes: bytes, enclosingIsAsync: enclosingIsAsync)
    }

    /// One callback's code after its answer: in a `do` block of its own (its names stay its
    /// own), the error in the `catch`.
    private func callbackLines(_ member: FanOutSequence.Member, answer: String) -> CodeLines {
        let callback = member.callback
        var text = StatementText(bytes: bytes)
        if callback.unwrapsValue, let name = callback.valueName { text.unwrapped.insert(name) }
        let isVoid = member.callee.shape.valueType == "Void"
        var lines = CodeLines()
        if callback.ignoresOutcome {
            lines.add("_ = try? await \(answer)", 0)
            for line in text.lines(callback.success) { lines.add(line, 0) }
            return lines
        }
        let canFail = callback.failure != nil
        let awaited = (canFail ? "try await " : "await ") + answer
        let first: String
        // A name the code does not read is `_` (the compiler warns of an unused constant).
        let read = { (name: String) in StatementText.mentions(callback.success, name) ? name : "_" }
        if let names = callback.valueNames?.map(read) {
            first = names.allSatisfy({ $0 == "_" }) ? "_ = \(awaited)" : "let (\(names.joined(separator: ", "))) = \(awaited)"
        } else if let name = callback.valueName, read(name) != "_" {
            first = "let \(name) = \(awaited)"
        } else {
            first = isVoid ? awaited : "_ = \(awaited)"
        }
        let success = text.lines(callback.success)
        if !canFail && success.isEmpty {
            lines.add(first, 0)
            return lines
        }
        lines.add("do {", 0)
        lines.add(first, 1)
        for line in success { lines.add(line, 1) }
        if canFail {
            let errorName = callback.errorName ?? "error"
            lines.add(errorName == "error" ? "} catch {" : "} catch let \(errorName) {", 0)
            for line in text.lines(callback.failure ?? []) { lines.add(line, 1) }
        }
        lines.add("}", 0)
        return lines
    }

    /// `api.item(id)`: the call without its handler, with `self.` before the members of `self` it reads.
    private func invocation(_ member: FanOutSequence.Member) -> String {
        var text = StatementText(bytes: bytes)
        text.renamed = Dictionary(uniqueKeysWithValues: implicitSelfReads.map { ($0, "self.\($0)") })
        let arguments = member.call.arguments.enumerated().filter { $0.offset != member.callee.handlerIndex }.map { entry in
            (entry.element.label.map { $0.text + ": " } ?? "") + text.text(of: entry.element.expression)
        }
        return text.text(of: member.call.calledExpression) + "(" + arguments.joined(separator: ", ") + ")"
    }
}
