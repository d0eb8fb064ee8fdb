import SwiftSyntax

/// Writes the async alternative of a function returning a promise (``PromiseFunctionSummary``):
///
/// ```swift
/// /// Async alternative to `load(id:)`, added by vow-migrate.
/// nonisolated(nonsending) func load(id: Int) async throws -> User {
///     let promise: Promise<User> = load(id: id)
///     return try await promise.value
/// }
/// ```
///
/// The annotated constant picks the promise-returning function (in async code a bare
/// `load(id: id)` would be the alternative itself). `await promise.value` throws the rejection's
/// error as it is, and returns at once for a settled promise; a cancelled task stops waiting
/// (`CancellationError`) without cancelling the promise, which other code may share.
struct PromiseFunctionAlternative {
    let decl: FunctionDeclSyntax
    /// `User`.
    let valueType: String
    let isGuarantee: Bool
    /// As for completion-handler alternatives (``AlternativeEmitter/runsOnCallersActor``).
    var runsOnCallersActor = false

    var swiftName: String {
        CompletionFunction.swiftName(decl.name.text, labels: CompletionFunction.labels(of: decl.signature.parameterClause.parameters))
    }

    private var throwsText: String { isGuarantee ? "" : " throws" }

    /// `async throws -> User`, for the report.
    var summary: String {
        "func \(swiftName) async\(throwsText)\(valueType == "Void" || valueType == "()" ? "" : " -> \(valueType)")"
    }

    /// The alternative, from its doc comment to its closing brace, at nesting level 0.
    func declaration() -> CodeLines {
        var lines = CodeLines()
        lines.add("/// Async alternative to `\(swiftName)`, added by vow-migrate.", 0)
        var attributes = AlternativeEmitter.keptAttributes(of: decl)
        let returnsVoid = valueType == "Void" || valueType == "()"
        if !returnsVoid && decl.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "discardableResult" }) {
            attributes.insert("@discardableResult", at: 0)
        }
        for attribute in attributes { lines.add(attribute, 0) }
        var modifiers = AlternativeEmitter.keptModifiers(of: decl)
        if runsOnCallersActor {
            modifiers.removeAll { $0 == "nonisolated" }
            modifiers.append("nonisolated(nonsending)")
        }
        var head = modifiers.joined(separator: " ")
        if !head.isEmpty { head += " " }
        // `Promise<T>` needs `T: Sendable`, which Swift inferred from the original's signature;
        // the alternative's (`-> T`) does not say it.
        let generics = AlternativeEmitter.genericClause(of: decl, valueType: valueType, requiresSendable: true)
        let parameters = decl.signature.parameterClause.parameters.map { $0.with(\.trailingComma, nil).trimmedDescription }
        head += "func \(decl.name.text)\(generics)(\(parameters.joined(separator: ", "))) async\(throwsText)"
        if !returnsVoid { head += " -> \(valueType)" }
        if let whereClause = decl.genericWhereClause { head += " \(whereClause.trimmedDescription)" }
        lines.add(head + " {", 0)
        let promiseType = decl.signature.returnClause?.type.trimmedDescription ?? (isGuarantee ? "Guarantee<\(valueType)>" : "Promise<\(valueType)>")
        let constant = isGuarantee ? "guarantee" : "promise"
        lines.add("let \(constant): \(promiseType) = \(decl.name.text)(\(arguments))", 1)
        let read = "\(isGuarantee ? "" : "try ")await \(constant).value"
        lines.add(returnsVoid ? read : "return \(read)", 1)
        lines.add("}", 0)
        return lines
    }

    /// `id: id, &buffer, _ = value`: each parameter passed on as the function takes it.
    private var arguments: String {
        decl.signature.parameterClause.parameters.map { parameter in
            let name = (parameter.secondName ?? parameter.firstName).text
            let isInout = parameter.type.as(AttributedTypeSyntax.self)?.specifiers.contains {
                $0.as(SimpleTypeSpecifierSyntax.self)?.specifier.tokenKind == .keyword(.inout)
            } ?? false
            let isAutoclosure = parameter.type.as(AttributedTypeSyntax.self)?.attributes.contains {
                $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "autoclosure"
            } ?? false
            let value = (isInout ? "&" : "") + name + (isAutoclosure ? "()" : "")
            return parameter.firstName.text == "_" ? value : "\(parameter.firstName.text): \(value)"
        }.joined(separator: ", ")
    }
}
