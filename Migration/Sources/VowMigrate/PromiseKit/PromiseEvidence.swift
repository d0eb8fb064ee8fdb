import SwiftSyntax

/// What the file itself says an expression holds, read from its declarations without a type
/// checker. Names are looked up file-wide: a name counts as a promise only when every declaration
/// of it in the file says so, so a shadowing `value` or `promise` makes it unknown, never wrong.
/// A member (`other.latest`) is looked up among the properties the file declares only.
final class PromiseEvidence: SyntaxVisitor {
    enum Evidence: Equatable {
        /// A `Promise` or `Guarantee`, evidently.
        case promise
        /// The `(promise, resolver)` tuple of `Promise<T>.pending()`.
        case pendingPair
        /// Evidently something else (a declared non-promise type, a literal, a non-promise call).
        case other
        /// Nothing in the file says.
        case unknown
    }

    private enum Declaration {
        case known(Evidence)
        case initializer(ExprSyntax)
        case type(TypeSyntax)
        /// An element of a tuple pattern bound to `value`: the promise of `.pending()` when first.
        case tupleElement(of: ExprSyntax, isFirst: Bool)
    }

    /// Combinators that return a promise or guarantee whatever their arguments.
    static let promiseFunctions: Set<String> = ["firstly", "when", "race", "after"]
    /// Chain methods only promises have.
    static let promiseOnlyChainMethods: Set<String> = ["then", "done", "recover", "ensure", "ensureThen", "asVoid"]
    /// Chain methods that other types have too (`Array.map`, `Result.get`): a promise only on a promise.
    static let sharedChainMethods: Set<String> = ["map", "compactMap", "get", "tap"]

    private var names: [String: [Declaration]] = [:]
    private var properties: [String: [Declaration]] = [:]
    private var functions: [String: [TypeSyntax?]] = [:]
    private var promiseAliases: Set<String> = []
    private var resolved: [Lookup: Evidence] = [:]
    private var resolving: Set<Lookup> = []

    private struct Lookup: Hashable {
        var name: String
        var isMember: Bool
    }

    init(tree: SourceFileSyntax) {
        super.init(viewMode: .sourceAccurate)
        walk(tree)
    }

    // MARK: - Reading the declarations

    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
        if Self.namesPromiseType(node.initializer.value, aliases: []) { promiseAliases.insert(node.name.text) }
        return .visitChildren
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        functions[node.name.text, default: []].append(node.signature.returnClause?.type)
        return .visitChildren
    }

    override func visit(_ node: FunctionParameterSyntax) -> SyntaxVisitorContinueKind {
        let name = (node.secondName ?? node.firstName).text
        if name != "_" { names[name, default: []].append(.type(node.type)) }
        return .visitChildren
    }

    override func visit(_ node: ClosureParameterSyntax) -> SyntaxVisitorContinueKind {
        let name = (node.secondName ?? node.firstName).text
        names[name, default: []].append(node.type.map { .type($0) } ?? .known(.unknown))
        return .visitChildren
    }

    override func visit(_ node: ClosureShorthandParameterSyntax) -> SyntaxVisitorContinueKind {
        names[node.name.text, default: []].append(.known(.unknown))
        return .visitChildren
    }

    override func visit(_ node: IdentifierPatternSyntax) -> SyntaxVisitorContinueKind {
        guard let declaration = declaration(of: node) else { return .visitChildren }
        names[node.identifier.text, default: []].append(declaration)
        if let variable = node.parent?.as(PatternBindingSyntax.self)?.parent?.parent?.as(VariableDeclSyntax.self),
           variable.parent?.is(MemberBlockItemSyntax.self) == true {
            properties[node.identifier.text, default: []].append(declaration)
        }
        return .visitChildren
    }

    /// `nil` for `if let promise`, which keeps the evidence of the `promise` it unwraps.
    private func declaration(of pattern: IdentifierPatternSyntax) -> Declaration? {
        if let binding = pattern.parent?.as(PatternBindingSyntax.self) {
            if let type = binding.typeAnnotation?.type { return .type(type) }
            if let value = binding.initializer?.value { return .initializer(value) }
            return .known(.unknown)
        }
        if let condition = pattern.parent?.as(OptionalBindingConditionSyntax.self) {
            if let type = condition.typeAnnotation?.type { return .type(type) }
            if let value = condition.initializer?.value { return .initializer(value) }
            return nil
        }
        // `let (promise, resolver) = Promise<T>.pending()`: the first element is the promise.
        if let element = pattern.parent?.as(TuplePatternElementSyntax.self),
           let tuple = element.parent?.parent?.as(TuplePatternSyntax.self),
           let binding = tuple.parent?.as(PatternBindingSyntax.self),
           let value = binding.initializer?.value {
            return .tupleElement(of: value, isFirst: tuple.elements.first?.id == element.id)
        }
        return .known(.unknown)
    }

    // MARK: - Judging expressions

    /// What `expression` holds, as far as the file says.
    func evidence(of expression: ExprSyntax) -> Evidence {
        let expression = Self.unwrapped(expression)
        if expression.is(StringLiteralExprSyntax.self) || expression.is(IntegerLiteralExprSyntax.self)
            || expression.is(FloatLiteralExprSyntax.self) || expression.is(BooleanLiteralExprSyntax.self)
            || expression.is(NilLiteralExprSyntax.self) || expression.is(ArrayExprSyntax.self)
            || expression.is(DictionaryExprSyntax.self) {
            return .other
        }
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            if name == "self" || name == "Self" || Self.isTypeName(name) { return .other }
            return resolve(name, isMember: false)
        }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base {
            if Self.isPromiseTypeReference(base) { return .other }
            let name = member.declName.baseName.text
            if ["promise", "guarantee"].contains(name) && evidence(of: base) == .pendingPair { return .promise }
            if ["resolver", "resolve"].contains(name) && evidence(of: base) == .pendingPair { return .other }
            return resolve(name, isMember: true)
        }
        if let call = expression.as(FunctionCallExprSyntax.self) {
            return evidence(ofCall: call)
        }
        return .unknown
    }

    private func evidence(ofCall call: FunctionCallExprSyntax) -> Evidence {
        let called = Self.unwrapped(call.calledExpression)
        if Self.isPromiseTypeReference(called) { return .promise }
        if let reference = called.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            if let returns = functions[name] { return evidence(ofReturnTypes: returns) }
            if Self.promiseFunctions.contains(name) { return .promise }
            return Self.isTypeName(name) ? .other : .unknown
        }
        guard let member = called.as(MemberAccessExprSyntax.self) else { return .unknown }
        let name = member.declName.baseName.text
        if let base = member.base, Self.isPromiseTypeReference(base) {
            return name == "pending" ? .pendingPair : .promise
        }
        if Self.promiseOnlyChainMethods.contains(name) { return .promise }
        if Self.sharedChainMethods.contains(name), let base = member.base, evidence(of: base) == .promise { return .promise }
        if let returns = functions[name] { return evidence(ofReturnTypes: returns) }
        return .unknown
    }

    private func evidence(ofReturnTypes returns: [TypeSyntax?]) -> Evidence {
        let all = returns.map { $0.map { evidence(ofType: $0) } ?? .other }
        return all.allSatisfy { $0 == all[0] } ? all[0] : .unknown
    }

    private func evidence(ofType type: TypeSyntax) -> Evidence {
        Self.namesPromiseType(type, aliases: promiseAliases) ? .promise : .other
    }

    private func resolve(_ name: String, isMember: Bool) -> Evidence {
        let lookup = Lookup(name: name, isMember: isMember)
        if let known = resolved[lookup] { return known }
        guard let declarations = isMember ? properties[name] : names[name], !resolving.contains(lookup) else { return .unknown }
        resolving.insert(lookup)
        let all = declarations.map { declaration -> Evidence in
            switch declaration {
            case .known(let evidence): return evidence
            case .type(let type): return evidence(ofType: type)
            case .initializer(let value): return evidence(of: value)
            case .tupleElement(let value, let isFirst):
                guard evidence(of: value) == .pendingPair else { return .unknown }
                return isFirst ? .promise : .other
            }
        }
        resolving.remove(lookup)
        let result = all.allSatisfy { $0 == all[0] } ? all[0] : .unknown
        resolved[lookup] = result
        return result
    }

    // MARK: - Syntax helpers

    /// Looks through `(x)`, `x?`, `x!` and `try x`, which do not change what `x` is.
    static func unwrapped(_ expression: ExprSyntax) -> ExprSyntax {
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1,
           let only = tuple.elements.first, only.label == nil {
            return unwrapped(only.expression)
        }
        if let chaining = expression.as(OptionalChainingExprSyntax.self) { return unwrapped(chaining.expression) }
        if let forced = expression.as(ForceUnwrapExprSyntax.self) { return unwrapped(forced.expression) }
        if let attempt = expression.as(TryExprSyntax.self) { return unwrapped(attempt.expression) }
        return expression
    }

    /// `Promise`, `Guarantee`, `Promise<Int>`, `PromiseKit.Promise`, as an expression.
    static func isPromiseTypeReference(_ expression: ExprSyntax) -> Bool {
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            return ["Promise", "Guarantee"].contains(reference.baseName.text)
        }
        if let specialized = expression.as(GenericSpecializationExprSyntax.self) {
            return isPromiseTypeReference(specialized.expression)
        }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base?.as(DeclReferenceExprSyntax.self) {
            return ["PromiseKit", "Vow"].contains(base.baseName.text) && ["Promise", "Guarantee"].contains(member.declName.baseName.text)
        }
        return false
    }

    /// `Promise<T>`, `Guarantee<T>?`, `PromiseKit.Promise<T>!` and aliases of them.
    static func namesPromiseType(_ type: TypeSyntax, aliases: Set<String>) -> Bool {
        if let optional = type.as(OptionalTypeSyntax.self) { return namesPromiseType(optional.wrappedType, aliases: aliases) }
        if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return namesPromiseType(unwrapped.wrappedType, aliases: aliases) }
        if let attributed = type.as(AttributedTypeSyntax.self) { return namesPromiseType(attributed.baseType, aliases: aliases) }
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            return ["Promise", "Guarantee"].contains(identifier.name.text) || aliases.contains(identifier.name.text)
        }
        if let member = type.as(MemberTypeSyntax.self) {
            return ["PromiseKit", "Vow"].contains(member.baseType.trimmedDescription) && ["Promise", "Guarantee"].contains(member.name.text)
        }
        return false
    }

    /// Capitalised names are types by Swift convention: `Foo(...)` builds a `Foo`, `Foo.value` is static.
    static func isTypeName(_ name: String) -> Bool {
        name.first?.isUppercase == true && !["Promise", "Guarantee"].contains(name)
    }
}
