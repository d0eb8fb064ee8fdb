import SwiftSyntax

/// A visitor that knows how many `for`, `while` and `repeat` loops enclose the node it visits: a
/// callback started inside a loop is refused (or reported) as a loop, not flattened.
class LoopTrackingVisitor: SyntaxVisitor {
    /// The loops around the node being visited.
    private(set) var loopDepth = 0

    init() {
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind { loopDepth += 1; return .visitChildren }
    override func visitPost(_ node: ForStmtSyntax) { loopDepth -= 1 }
    override func visit(_ node: WhileStmtSyntax) -> SyntaxVisitorContinueKind { loopDepth += 1; return .visitChildren }
    override func visitPost(_ node: WhileStmtSyntax) { loopDepth -= 1 }
    override func visit(_ node: RepeatStmtSyntax) -> SyntaxVisitorContinueKind { loopDepth += 1; return .visitChildren }
    override func visitPost(_ node: RepeatStmtSyntax) { loopDepth -= 1 }
}
