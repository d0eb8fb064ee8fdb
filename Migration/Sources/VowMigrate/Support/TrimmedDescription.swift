import SwiftSyntax

extension SyntaxProtocol {
    /// The node's text without the leading trivia of its first token and the trailing trivia of
    /// its last token: the same text as SwiftSyntax's `trimmedDescription`, which this shadows
    /// for the whole `VowMigrate` module.
    ///
    /// SwiftSyntax builds it as `detached.with(\.leadingTrivia, []).with(\.trailingTrivia, [])`
    /// and prints that copy: two rebuilt trees and two key paths instantiated at run time for
    /// every call. The tool asks for the text of nearly every type, parameter and expression it
    /// reads, and that copy was about a quarter of a run's time. Here the node's bytes are
    /// printed once and the two trivia lengths cut off. A node with missing or unexpected parts
    /// (a file that does not parse) keeps SwiftSyntax's way, where a missing first or last token
    /// could place the trivia differently.
    var trimmedDescription: String {
        if hasError { return trimmed.description }
        let bytes = syntaxTextBytes
        let start = leadingTriviaLength.utf8Length
        let end = bytes.count - trailingTriviaLength.utf8Length
        guard start <= end else { return "" }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}

extension SyntaxProtocol {
    /// Every identifier the node spells, as written: the names a new declaration around or
    /// inside it must avoid.
    var identifierNames: Set<String> {
        var names: Set<String> = []
        for token in tokens(viewMode: .sourceAccurate) {
            if case .identifier(let name) = token.tokenKind { names.insert(name) }
        }
        return names
    }
}
