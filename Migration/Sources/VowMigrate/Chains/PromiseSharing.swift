import SwiftSyntax

/// Whether a promise may be one that other chains wait on too.
///
/// Two chains on one pending promise take turns: each link's handler is a separate turn of the
/// main queue, so the first links of both run before the second links of either. Straight-line
/// code in one task runs a whole chain in one turn, so converting chains that share their first
/// promise would change the order of their effects. A promise is taken for shared when it comes
/// from a property or other stored value, or from a function that may return one it kept
/// (`if let loading { return loading }`): syntax cannot tell how many chains wait on those.
enum PromiseSharing {
    /// Whether `body` may return something other than a promise it makes: a `return` (or the
    /// single expression) naming a value, unless that name is a local the body initialised with a
    /// call (`let promise = fetch()`, `let (promise, seal) = Promise<T>.pending()`).
    static func mayReturnStored(_ body: CodeBlockSyntax) -> Bool {
        final class Returns: SyntaxVisitor {
            var values: [ExprSyntax] = []
            var freshLocals: Set<String> = []
            override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind {
                if let expression = node.expression { values.append(expression) }
                return .skipChildren
            }
            override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
                if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                   let value = node.initializer?.value, value.is(FunctionCallExprSyntax.self) {
                    freshLocals.insert(name)
                }
                // `let (promise, seal) = Promise<T>.pending()`: a promise made here, settled by
                // the code after it.
                if let tuple = node.pattern.as(TuplePatternSyntax.self), let first = tuple.elements.first,
                   let name = first.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                   let call = node.initializer?.value.as(FunctionCallExprSyntax.self), call.arguments.isEmpty,
                   call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "pending" {
                    freshLocals.insert(name)
                }
                return .visitChildren
            }
            // Returns of closures and nested functions are theirs.
            override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
            override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
        }
        let returns = Returns(viewMode: .sourceAccurate)
        returns.walk(body)
        if body.statements.count == 1, let only = body.statements.first, let expression = only.item.as(ExprSyntax.self) {
            returns.values.append(expression)
        }
        return returns.values.contains { isStored($0, freshLocals: returns.freshLocals) }
    }

    /// `loading`, `self.loading`, `cache[id]`, `loading ?? fetch()`: a value not made here.
    static func isStored(_ expression: ExprSyntax, freshLocals: Set<String> = []) -> Bool {
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return !freshLocals.contains(reference.baseName.text) }
        if let member = expression.as(MemberAccessExprSyntax.self) {
            // `pending.promise` of `let pending = Promise<T>.pending()`.
            if member.declName.baseName.text == "promise", let base = member.base?.as(DeclReferenceExprSyntax.self),
               freshLocals.contains(base.baseName.text) { return false }
            return member.base.map { !$0.is(FunctionCallExprSyntax.self) } ?? false
        }
        if expression.is(SubscriptCallExprSyntax.self) || expression.is(ForceUnwrapExprSyntax.self) { return true }
        if let infix = expression.as(InfixOperatorExprSyntax.self) { return isStored(infix.leftOperand, freshLocals: freshLocals) }
        if let ternary = expression.as(TernaryExprSyntax.self) {
            return isStored(ternary.thenExpression, freshLocals: freshLocals) || isStored(ternary.elseExpression, freshLocals: freshLocals)
        }
        return false
    }
}
