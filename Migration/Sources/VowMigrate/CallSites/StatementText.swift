import SwiftSyntax

/// Statements copied from a callback into generated code, as written, with a few names changed:
/// `value!` becomes `value` where the alternative's value is not optional, and a name renamed
/// where straight-line code would declare it twice.
struct StatementText {
    let bytes: [UInt8]
    /// Reads of these names lose their `!`.
    var unwrapped: Set<String> = []
    /// References to these names are spelled with the new name.
    var renamed: [String: String] = [:]
    /// Where a rename stops (a byte offset): a name declared again there (`guard let x = x as? T`)
    /// reads the new declaration after it.
    var renamedUntil: [String: Int] = [:]
    /// Bare `return`s (by the offset of their keyword) spelled as this text instead
    /// (`throw Failure.returned`: a promise chain's handler stopping the chain).
    var replacedReturns: [Int: String] = [:]
    /// Whole statements (by their byte range) spelled as this text instead: `return .value(x)`
    /// of a handler whose code a function's body now holds, as `return x`.
    var replacedStatements: [(range: Range<Int>, text: String)] = []
    /// Text this run inserts into the file (an omitted defaulted handler spelled out, `,
    /// completion: nil`), by offset: code copied from around it carries it too. Set for a
    /// file's call-site stage (``FileRewrite/addCallSites(collector:)``).
    @TaskLocal static var insertions: [Int: String] = [:]

    /// The lines of `items`, re-indented relative to the first one.
    func lines(_ items: [CodeBlockItemSyntax]) -> [String] {
        var result: [String] = []
        for item in items {
            for piece in item.leadingTrivia {
                switch piece {
                case .lineComment(let text), .docLineComment(let text): result.append(text)
                default: continue
                }
            }
            let indent = Indentation.lineIndent(in: bytes, at: item.positionAfterSkippingLeadingTrivia.utf8Offset)
            result += Self.lines(of: text(of: item.item), startingAt: indent)
        }
        return result
    }

    /// The lines of code copied from a line indented by `indent`: the lines after the first lose
    /// that indent, so they keep their indentation relative to the first (any other leading
    /// space goes).
    static func lines(of text: String, startingAt indent: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { position, line in
            var text = String(line)
            if position > 0 {
                if text.hasPrefix(indent) { text.removeFirst(indent.count) } else { text = String(text.drop { $0 == " " || $0 == "\t" }) }
            }
            return text
        }
    }

    /// One expression or statement on one line's worth of text (may still span lines).
    func text(of node: some SyntaxProtocol) -> String {
        let start = node.positionAfterSkippingLeadingTrivia.utf8Offset
        let end = node.endPositionBeforeTrailingTrivia.utf8Offset
        var replacements: [(start: Int, end: Int, text: String)] = []
        if !unwrapped.isEmpty || !renamed.isEmpty {
            for token in node.tokens(viewMode: .sourceAccurate) {
                let name: String
                switch token.tokenKind {
                case .identifier(let text): name = text
                case .dollarIdentifier(let text):
                    if Self.isInsideClosure(token, below: node) { continue }
                    name = text
                default: continue
                }
                guard let reference = token.parent?.as(DeclReferenceExprSyntax.self), reference.argumentNames == nil else { continue }
                if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id { continue }
                var newName = renamed[name] ?? name
                if let until = renamedUntil[name], token.positionAfterSkippingLeadingTrivia.utf8Offset >= until { newName = name }
                if unwrapped.contains(name), let unwrap = reference.parent?.as(ForceUnwrapExprSyntax.self) {
                    replacements.append((unwrap.positionAfterSkippingLeadingTrivia.utf8Offset, unwrap.endPositionBeforeTrailingTrivia.utf8Offset, newName))
                } else if newName != name {
                    replacements.append((token.positionAfterSkippingLeadingTrivia.utf8Offset, token.endPositionBeforeTrailingTrivia.utf8Offset, newName))
                }
            }
        }
        for (position, text) in replacedReturns where position >= start && position < end {
            replacements.append((position, position + "return".utf8.count, text))
        }
        for (range, text) in replacedStatements where range.lowerBound >= start && range.upperBound <= end {
            // Renames inside the statement give way to its new text.
            replacements.removeAll { range.contains($0.start) }
            replacements.append((range.lowerBound, range.upperBound, text))
        }
        return Self.splice(bytes, from: start, to: end, replacements, replacedWhole: replacedStatements.map(\.range))
    }

    /// The bytes from `start` to `end` with `replacements` made (one starting inside an earlier one
    /// is dropped), and what this run inserts there (``insertions``) outside the ranges
    /// `replacedWhole`, whose new text stands for all of them.
    static func splice(_ bytes: [UInt8], from start: Int, to end: Int, _ replacements: [(start: Int, end: Int, text: String)],
                       replacedWhole: [Range<Int>]) -> String {
        var replacements = replacements
        for (offset, text) in insertions where offset > start && offset < end && !replacedWhole.contains(where: { $0.contains(offset) }) {
            replacements.append((offset, offset, text))
        }
        var output: [UInt8] = []
        var cursor = start
        // (An insertion at the end of a renamed name follows it: sorted by start, then end.)
        for replacement in replacements.sorted(by: { ($0.start, $0.end) < ($1.start, $1.end) }) where replacement.start >= cursor {
            output += bytes[cursor..<replacement.start]
            output += Array(replacement.text.utf8)
            cursor = replacement.end
        }
        output += bytes[cursor..<end]
        return String(decoding: output, as: UTF8.self)
    }

    /// The level's call without its handler (`api.profile(token)`), the alternative's call.
    func invocation(_ level: Pyramid.Level) -> String {
        let arguments = level.call.arguments.enumerated().filter { $0.offset != level.callee.handlerIndex }.map { entry in
            (entry.element.label.map { $0.text + ": " } ?? "") + text(of: entry.element.expression)
        }
        return text(of: level.call.calledExpression) + "(" + arguments.joined(separator: ", ") + ")"
    }

    /// Whether `token` stands inside a closure within `node`. A `$0` there is that closure's own
    /// parameter, never the callback's (which an inner closure cannot reach): renaming the
    /// callback's leaves it alone. A `try` there throws out of that closure, not out of `node`.
    static func isInsideClosure(_ token: TokenSyntax, below node: some SyntaxProtocol) -> Bool {
        var parent = token.parent
        while let current = parent, current.id != node.id {
            if current.is(ClosureExprSyntax.self) { return true }
            parent = current.parent
        }
        return false
    }

    /// Whether `name` is read anywhere in `items`.
    static func mentions(_ items: [CodeBlockItemSyntax], _ name: String) -> Bool {
        items.contains { $0.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .identifier(name) } }
    }

    static func mentionsSelf(_ items: [CodeBlockItemSyntax]) -> Bool {
        items.contains { $0.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .keyword(.self) } }
    }

    /// The statements' tokens with `errorName` spelled `error`: equal texts do the same thing.
    static func normalized(_ items: [CodeBlockItemSyntax], errorName: String?) -> String {
        items.flatMap { $0.item.tokens(viewMode: .sourceAccurate) }.map { token in
            if let errorName, token.tokenKind == .identifier(errorName) { return "error" }
            return token.text
        }.joined(separator: " ")
    }
}
