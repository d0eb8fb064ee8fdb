import SwiftSyntax

/// The names each type body declares, read once per body for a whole call-site stage: asked for
/// every loop and every converted callback, a type of thousands of members was read again each
/// time, which made the stage quadratic in the type's size (a type of 55,000 members cut in
/// pieces spent most of a run here).
final class MemberNameCache {
    private var namesByBody: [Int: Set<String>] = [:]

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
