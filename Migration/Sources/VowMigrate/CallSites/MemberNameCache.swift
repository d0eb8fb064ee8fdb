import SwiftSyntax

/// The names each type body declares, read once per body for a whole call-site stage: asked for
/// every loop and every converted callback, a type of thousands of members was read again each
/// time, which made the stage quadratic in the type's size (a type of 55,000 members cut in
/// pieces spent most of a run here).
final class MemberNameCache {
    private var namesByBody: [Int: Set<String>] = [:]
    private var methodCountsByBody: [Int: [String: Int]] = [:]

    /// How many methods named `name` the type body `block` declares
    /// (``SequentialLoop/readMethod(_:reader:namesakes:)``). In a piece of a large file, the
    /// piece's part of the body only, as before this cache: the other pieces' names are known
    /// as a set, which cannot count them.
    func methods(named name: String, in block: MemberBlockSyntax) -> Int {
        let key = block.leftBrace.positionAfterSkippingLeadingTrivia.utf8Offset
        let counts = methodCountsByBody[key] ?? {
            var counts: [String: Int] = [:]
            for member in block.members {
                if let function = member.decl.as(FunctionDeclSyntax.self) { counts[function.name.text, default: 0] += 1 }
            }
            methodCountsByBody[key] = counts
            return counts
        }()
        return counts[name] ?? 0
    }

    /// ``CallSiteRewrite/memberNames(around:otherPieces:)`` of the type body around `node`.
    func names(around node: some SyntaxProtocol, otherPieces: [Int: Set<String>]) -> Set<String> {
        guard let block = CallSiteRewrite.memberBlock(around: node) else { return [] }
        let key = block.leftBrace.positionAfterSkippingLeadingTrivia.utf8Offset
        if let names = namesByBody[key] { return names }
        let names = CallSiteRewrite.memberNames(of: block, otherPieces: otherPieces)
        namesByBody[key] = names
        return names
    }
}
