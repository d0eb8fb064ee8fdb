import SwiftSyntax

/// Whether a name, where it is written, is a constant: bound once and never changed, so a
/// closure capturing its value (`{ [request] in }`) and code reading it later see the same
/// value. Read by syntax, nearest declaration first, as Swift looks names up: a `let` (or
/// `guard let`, `if let`) before the node in an enclosing block, a parameter of an enclosing
/// closure, function or initializer (not `inout`), a `for` loop's element, and last a `let`
/// property of the enclosing type. A `var` anywhere on that path, or a name not found, is not.
enum ConstantNames {
    static func isConstant(_ name: String, at node: Syntax) -> Bool {
        var current = node
        while let parent = current.parent {
            if let list = parent.as(CodeBlockItemListSyntax.self) {
                // The statements before this one, nearest first.
                for item in list.prefix(while: { $0.id != current.id }).reversed() {
                    if let binding = binding(of: name, in: item.item) { return binding }
                }
            } else if let closure = parent.as(ClosureExprSyntax.self), let signature = closure.signature,
                      current.id != Syntax(signature).id, let parameters = signature.parameterClause {
                if let shorthand = parameters.as(ClosureShorthandParameterListSyntax.self), shorthand.contains(where: { $0.name.text == name }) {
                    return true
                }
                if let clause = parameters.as(ClosureParameterClauseSyntax.self),
                   let parameter = clause.parameters.first(where: { ($0.secondName ?? $0.firstName).text == name }) {
                    return !(parameter.type?.trimmedDescription.hasPrefix("inout ") ?? false)
                }
            } else if let function = parent.as(FunctionDeclSyntax.self) {
                if let found = parameter(name, in: function.signature.parameterClause) { return found }
            } else if let initializer = parent.as(InitializerDeclSyntax.self) {
                if let found = parameter(name, in: initializer.signature.parameterClause) { return found }
            } else if let loop = parent.as(ForStmtSyntax.self), current.id == Syntax(loop.body).id {
                if loop.pattern.tokens(viewMode: .sourceAccurate).contains(where: { $0.tokenKind == .identifier(name) }) {
                    return !loop.pattern.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .keyword(.var) }
                }
            } else if let conditional = parent.as(IfExprSyntax.self), current.id == Syntax(conditional.body).id {
                if let binding = binding(of: name, in: conditional.conditions) { return binding }
            } else if let loop = parent.as(WhileStmtSyntax.self), current.id == Syntax(loop.body).id {
                if let binding = binding(of: name, in: loop.conditions) { return binding }
            } else if let members = parent.as(MemberBlockSyntax.self) {
                // A type's stored property; an extension's members are found elsewhere.
                guard members.parent?.is(ExtensionDeclSyntax.self) == false else { return false }
                for member in members.members {
                    guard let variable = member.decl.as(VariableDeclSyntax.self),
                          variable.bindings.contains(where: { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name }) else { continue }
                    return variable.bindingSpecifier.tokenKind == .keyword(.let)
                }
                return false
            }
            current = parent
        }
        return false
    }

    private static func parameter(_ name: String, in clause: FunctionParameterClauseSyntax) -> Bool? {
        guard let parameter = clause.parameters.first(where: { ($0.secondName ?? $0.firstName).text == name }) else { return nil }
        return !parameter.type.trimmedDescription.hasPrefix("inout ")
    }

    /// Whether `item` binds `name` as a constant (`true`), as a variable (`false`), or not at all.
    private static func binding(of name: String, in item: some SyntaxProtocol) -> Bool? {
        if let variable = item.as(VariableDeclSyntax.self) {
            let binds = variable.bindings.contains { binding in
                binding.pattern.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .identifier(name) }
            }
            return binds ? variable.bindingSpecifier.tokenKind == .keyword(.let) : nil
        }
        if let guardStatement = item.as(GuardStmtSyntax.self) {
            return binding(of: name, in: guardStatement.conditions)
        }
        // A function or type of that name declared here is no constant's value.
        if let function = item.as(FunctionDeclSyntax.self), function.name.text == name { return false }
        return nil
    }

    private static func binding(of name: String, in conditions: ConditionElementListSyntax) -> Bool? {
        for condition in conditions.reversed() {
            guard let optional = condition.condition.as(OptionalBindingConditionSyntax.self),
                  optional.pattern.tokens(viewMode: .sourceAccurate).contains(where: { $0.tokenKind == .identifier(name) }) else { continue }
            return optional.bindingSpecifier.tokenKind == .keyword(.let)
        }
        return nil
    }
}
