import Foundation
import SwiftSyntax

/// A fan-out read from a block: a `for` loop whose body starts one call of a completion-handler
/// function per element, all of them before any callback runs, optionally counted by a
/// `DispatchGroup` whose `notify` block runs once every callback has.
///
/// ```swift
/// let group = DispatchGroup()
/// for id in ids {
///     group.enter()
///     api.item(id) { result in
///         switch result { ... }
///         group.leave()
///     }
/// }
/// group.notify(queue: .main) { self.show(items) }
/// ```
///
/// The writers keep what the original does: the calls start in loop order, each callback's
/// code runs once, serially, as its call completes (completion order, never sorted), and the
/// notify block runs after the last of them, on its queue.
struct FanOut {
    /// `let group = DispatchGroup()`: removed, since nothing counts callbacks any more.
    var groupDeclaration: CodeBlockItemSyntax?
    /// The group's name (`group`), nil for a plain loop of calls.
    var groupName: String?
    var loop: ForStmtSyntax
    /// Statements of the loop's body before the call (`let url = ...`), kept in place.
    var preparation: [CodeBlockItemSyntax]
    var call: FunctionCallExprSyntax
    var callee: CalleeSummary
    /// `api.item(id)`: the call without its handler, which is the alternative's call.
    var invocation: String
    var callback: Callback
    var notify: Notify?
    /// `[weak self]` or `[unowned self]`, from the callback (and the notify block, which must agree).
    var selfCapture: String?
    /// The last statement of the block the fan-out takes (the loop, or the notify call).
    var lastStatement: CodeBlockItemSyntax

    /// A callback's code split the way the alternative answers: what runs with the value, and
    /// what runs with the error. The group's `leave()` calls are gone.
    struct Callback {
        var valueName: String?
        /// `(T?, Error?)`: the code reads the value as `value!`; the alternative's is not optional.
        var unwrapsValue = false
        var success: [CodeBlockItemSyntax]
        var errorName: String?
        /// Nil when the callee cannot fail, or when the code ignores how it ended.
        var failure: [CodeBlockItemSyntax]?
        /// The code reads none of the handler's parameters (`{ _ in group.leave() }`): it runs
        /// the same whether the call succeeded or failed.
        var ignoresOutcome = false
        /// Several values and no error (`{ text, url in }`): their names, `_` kept; the
        /// alternative answers them as one tuple (read by sequences only).
        var valueNames: [String]?
    }

    /// `group.notify(queue: .main) { ... }`.
    struct Notify {
        var statement: CodeBlockItemSyntax
        /// `.main` or `DispatchQueue.main`: nil; another queue: its expression.
        var queue: ExprSyntax?
        /// `.global()` or `DispatchQueue.global(qos:)`: any background thread will do.
        var onGlobalQueue = false
        var body: [CodeBlockItemSyntax]
    }

    /// `for id in ids`, as written (a `where` clause included).
    func loopHeader(in bytes: [UInt8]) -> String {
        let start = loop.forKeyword.positionAfterSkippingLeadingTrivia.utf8Offset
        let end = loop.body.leftBrace.positionAfterSkippingLeadingTrivia.utf8Offset
        return String(decoding: bytes[start..<end], as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }

    /// The names the loop's pattern binds (`id` in `for id in ids`, `key` and `value` in `for (key, value) in pairs`).
    var loopNames: [String] {
        loop.pattern.tokens(viewMode: .sourceAccurate).compactMap { token in
            if case .identifier(let name) = token.tokenKind { return name }
            return nil
        }
    }
}

/// A fan-out of different calls read from a block: a `DispatchGroup` entered before each of
/// several calls of completion-handler functions in a row, whose callbacks leave it, and the
/// group's `notify` block right after them.
///
/// ```swift
/// let group = DispatchGroup()
/// var profile: Profile?
/// var feed: [Post] = []
/// group.enter()
/// api.profile(id) { result in
///     if case .success(let value) = result { profile = value }
///     group.leave()
/// }
/// group.enter()
/// api.feed(id) { posts, _ in
///     feed = posts ?? []
///     group.leave()
/// }
/// group.notify(queue: .main) { self.show(profile, feed) }
/// ```
///
/// Converted only where the callbacks' code changes nothing but the block's own variables, each
/// callback its own, so that the order they run in cannot show (``FanOutSequenceReader``).
struct FanOutSequence {
    struct Member {
        /// `group.enter()` before the call.
        var enter: CodeBlockItemSyntax
        var statement: CodeBlockItemSyntax
        var call: FunctionCallExprSyntax
        var callee: CalleeSummary
        var callback: FanOut.Callback
    }

    var groupDeclaration: CodeBlockItemSyntax
    var groupName: String
    var members: [Member]
    var notify: FanOut.Notify
    var selfCapture: String?
    /// The `var`s the block declares before the group: what the callbacks may change.
    var blockVariables: Set<String>
    var firstStatement: CodeBlockItemSyntax { members[0].enter }
    var lastStatement: CodeBlockItemSyntax { notify.statement }
}
