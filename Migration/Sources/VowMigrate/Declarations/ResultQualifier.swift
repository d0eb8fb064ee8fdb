import SwiftSyntax

/// Finds the file's unqualified references to `Result`.
///
/// Vow, like PromiseKit, exports its own `Result<T>`; once `import Vow` is added, a bare
/// `Result<User, Error>` in the file would name Vow's type and stop compiling. Spelling those
/// references `Swift.Result` keeps their meaning. A file that declares its own `Result` is left
/// as it is.
final class ResultQualifier: SyntaxVisitor {
    private(set) var offsets: [Int] = []
    private(set) var declaresResult = false

    init() {
        super.init(viewMode: .sourceAccurate)
    }

    static func unqualifiedResultOffsets(in tree: SourceFileSyntax) -> [Int] {
        let finder = ResultQualifier()
        finder.walk(tree)
        return finder.declaresResult ? [] : finder.offsets
    }

    /// Whether the file declares its own `Result` (then nothing is qualified).
    static func declaresResult(in tree: SourceFileSyntax) -> Bool {
        let finder = ResultQualifier()
        finder.walk(tree)
        return finder.declaresResult
    }

    /// `Result<` in generated text, spelled `Swift.Result<` unless already qualified.
    static func qualifyingBareResult(in text: String) -> String {
        // Most generated text has no `Result<`: a byte search says so without the Character search.
        guard text.hasSubstring("Result<") else { return text }
        var output = ""
        var rest = Substring(text)
        while let range = rest.firstRange(of: "Result<") {
            let before = rest[..<range.lowerBound]
            output += before
            let previous = before.last ?? output.last
            if let previous, previous == "." || previous.isLetter || previous.isNumber || previous == "_" {
                output += "Result<"
            } else {
                output += "Swift.Result<"
            }
            rest = rest[range.upperBound...]
        }
        return output + rest
    }

    override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind {
        if node.name.text == "Result" { offsets.append(node.name.positionAfterSkippingLeadingTrivia.utf8Offset) }
        return .visitChildren
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        guard node.baseName.text == "Result" else { return .visitChildren }
        if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id {
            return .visitChildren
        }
        offsets.append(node.baseName.positionAfterSkippingLeadingTrivia.utf8Offset)
        return .visitChildren
    }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { note(node.name); return .visitChildren }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { note(node.name); return .visitChildren }
    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { note(node.name); return .visitChildren }
    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind { note(node.name); return .visitChildren }
    override func visit(_ node: GenericParameterSyntax) -> SyntaxVisitorContinueKind { note(node.name); return .visitChildren }
    override func visit(_ node: AssociatedTypeDeclSyntax) -> SyntaxVisitorContinueKind { note(node.name); return .visitChildren }

    private func note(_ name: TokenSyntax) {
        if name.text == "Result" { declaresResult = true }
    }
}
