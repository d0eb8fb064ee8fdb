import SwiftSyntax

/// `return Promise { seal in ... }` as a function's whole answer (`--replace --to async`): the
/// callback code inside becomes the body of a checked continuation,
/// `return try await withCheckedThrowingContinuation { continuation in ... }`, each
/// `seal.fulfill(x)` a `continuation.resume(returning: x)` and each `seal.reject(e)` a
/// `continuation.resume(throwing: e)` (`Guarantee { seal in }`: `withCheckedContinuation`, each
/// `seal(x)` a `resume(returning: x)`).
///
/// Both bodies run at once, where they are made; both answer once. A resolver answered twice
/// ignored the second answer, where a continuation resumed twice stops the program, so every path
/// must answer exactly once, as the rule for completion handlers reads it (``HandlerUse``: a
/// closure handed to another API is taken to run once): a path that may answer twice, or none,
/// or a resolver used any other way (`seal.resolve`, stored, handed on) is refused.
struct SealToContinuation {
    let bytes: [UInt8]
    let fileName: String
    let converter: SourceLocationConverter

    /// The `Promise { seal in ... }` (or guarantee) call itself, its closure and the resolver's
    /// name, when `call` is one.
    static func sealed(_ call: FunctionCallExprSyntax) -> (closure: ClosureExprSyntax, seal: String, guarantee: Bool)? {
        guard let type = ChainToAsync.constructedType(call), type == "Promise" || type == "Guarantee", call.arguments.isEmpty,
              let closure = call.trailingClosure, call.additionalTrailingClosures.isEmpty,
              let parameters = closure.signature?.parameterClause else { return nil }
        let names: [String]
        if let shorthand = parameters.as(ClosureShorthandParameterListSyntax.self) {
            names = shorthand.map(\.name.text)
        } else if let clause = parameters.as(ClosureParameterClauseSyntax.self), clause.parameters.allSatisfy({ $0.type == nil }) {
            names = clause.parameters.map { ($0.secondName ?? $0.firstName).text }
        } else {
            return nil
        }
        guard names.count == 1, let seal = names.first, seal != "_" else { return nil }
        return (closure, seal, type == "Guarantee")
    }

    /// The statement returning the continuation's value, or the reason it cannot be written.
    func statement(for call: FunctionCallExprSyntax) throws(Refusal) -> String {
        guard let (closure, seal, guarantee) = Self.sealed(call), let parameters = closure.signature?.parameterClause else {
            throw Refusal("not a promise made from a closure", at: call)
        }
        var analyzer = HandlerUseAnalyzer(names: [seal], fileName: fileName, converter: converter)
        switch analyzer.analyze(closure: closure).verdict {
        case .once: break
        case .mayRepeat(let place):
            throw Refusal("a path may settle the promise twice (\(place)), where a continuation may be resumed only once", at: closure)
        case .mayNotCall(let place):
            throw Refusal("a path may leave the promise pending (\(place)), which a continuation must not", at: closure)
        default:
            throw Refusal("the resolver `\(seal)` is kept or handed on, not settled here", at: closure)
        }
        var taken = Set<String>()
        for token in closure.statements.tokens(viewMode: .sourceAccurate) {
            if case .identifier(let name) = token.tokenKind { taken.insert(name) }
        }
        var name = "continuation"
        var suffix = 2
        while taken.contains(name) { name = "continuation\(suffix)"; suffix += 1 }
        // Every use of the resolver is a settling call: `seal.fulfill(x)`, `seal.reject(e)`, `seal(x)`.
        let start = closure.positionAfterSkippingLeadingTrivia.utf8Offset
        var edits = [TextEdit(offset: parameters.positionAfterSkippingLeadingTrivia.utf8Offset - start,
                              removing: parameters.trimmedLength.utf8Length, text: name)]
        for token in closure.statements.tokens(viewMode: .sourceAccurate) where token.tokenKind == .identifier(seal) {
            // An argument's label (`seal: seal`) or a member (`x.seal`) is another name.
            if let labeled = token.parent?.as(LabeledExprSyntax.self), labeled.label?.id == token.id { continue }
            if let reference = token.parent?.as(DeclReferenceExprSyntax.self), let member = reference.parent?.as(MemberAccessExprSyntax.self),
               member.declName.id == reference.id { continue }
            guard let reference = token.parent?.as(DeclReferenceExprSyntax.self) else {
                throw Refusal("`\(seal)` names something else in the closure", at: token)
            }
            if let argument = reference.parent?.as(LabeledExprSyntax.self), let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self) {
                throw Refusal("the resolver `\(seal)` is handed on to `\(call.calledExpression.trimmedDescription)`, which settles it out of sight: "
                              + "a continuation must be resumed here, once on every path", at: token)
            }
            let settling: (call: FunctionCallExprSyntax, replaced: Int, text: String)?
            if guarantee {
                settling = reference.parent?.as(FunctionCallExprSyntax.self).flatMap { call in
                    call.calledExpression.id == reference.id ? (call, reference.trimmedLength.utf8Length, "\(name).resume") : nil
                }
            } else if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.base?.id == reference.id,
                      let call = member.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == member.id,
                      ["fulfill", "reject"].contains(member.declName.baseName.text) {
                settling = (call, member.trimmedLength.utf8Length, "\(name).resume")
            } else {
                settling = nil
            }
            guard let (settle, replaced, text) = settling, settle.trailingClosure == nil, settle.arguments.count <= 1,
                  settle.arguments.first?.label == nil else {
                throw Refusal("the resolver `\(seal)` is used other than to fulfil or reject the promise once", at: token)
            }
            let rejects = settle.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "reject"
            if rejects && settle.arguments.isEmpty { throw Refusal("a `reject()` without an error", at: settle) }
            edits.append(TextEdit(offset: settle.positionAfterSkippingLeadingTrivia.utf8Offset - start, removing: replaced, text: text))
            if let argument = settle.arguments.first {
                edits.append(TextEdit(offset: argument.positionAfterSkippingLeadingTrivia.utf8Offset - start, removing: 0,
                                      text: rejects ? "throwing: " : "returning: "))
            }
        }
        let text = String(decoding: bytes[start..<closure.endPositionBeforeTrailingTrivia.utf8Offset], as: UTF8.self)
        let body = TextEdit.apply(edits, to: text)
        return "return " + (guarantee ? "await withCheckedContinuation " : "try await withCheckedThrowingContinuation ") + body
    }
}
