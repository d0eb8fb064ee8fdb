import SwiftSyntax

/// One pass over the file being rewritten: its functions with their enclosing type and imports.
/// What other declarations say (typealiases, cancellable types, existing counterparts) comes from
/// the ``MigrationIndex``.
final class DeclarationCollector: SyntaxVisitor {
    struct FunctionSite {
        var decl: FunctionDeclSyntax
        /// The enclosing type as written (`UserService`, `Outer.Inner`), or "" at file scope.
        var scope: String
        /// The protocol declaring this requirement, when it is one.
        var protocolDecl: ProtocolDeclSyntax?
        /// Whether the protocol is declared at file scope (its extension can be added there).
        var protocolIsTopLevel: Bool
        /// Generic parameters of the enclosing types not declared `Sendable`.
        var nonSendableTypeParameters: [String]
        /// In an extension: its `where` clause (`where T: Sendable`), and that it is one, since
        /// the extended type's parameters come from the index.
        var extensionWhere: String? = nil
        /// What decides the function's isolation: its own attributes, else its type's.
        var actorContext: ActorContext = .fileScope
    }

    private(set) var functions: [FunctionSite] = []
    private(set) var lastTopLevelImport: ImportDeclSyntax?
    private(set) var importsVow = false

    private var scopes: [String] = []
    private var protocols: [ProtocolDeclSyntax?] = []
    private var typeParameters: [[String]] = []
    private var extensionWheres: [String?] = []
    /// Each enclosing scope's isolation: the type (the index knows whether it is isolated), or
    /// `.isolated` for an extension marked with a global actor.
    private var actorContexts: [ActorContext] = []

    init() {
        super.init(viewMode: .sourceAccurate)
    }

    private func enter(_ name: String, protocolDecl: ProtocolDeclSyntax? = nil,
                       generics: GenericParameterClauseSyntax? = nil, whereClause: GenericWhereClauseSyntax? = nil) {
        let qualified = scopes.last.map { $0.isEmpty ? name : "\($0).\(name)" } ?? name
        scopes.append(qualified)
        actorContexts.append(.member(of: qualified))
        protocols.append(protocolDecl)
        let whereText = whereClause?.trimmedDescription ?? ""
        let nonSendable = (generics?.parameters ?? []).compactMap { parameter -> String? in
            let name = parameter.name.text
            let inherited = identifiers(in: parameter.inheritedType?.trimmedDescription ?? "")
            return inherited.contains("Sendable") || whereText.contains("\(name): Sendable") ? nil : name
        }
        typeParameters.append((typeParameters.last ?? []) + nonSendable)
        extensionWheres.append(nil)
    }

    private func leave() {
        scopes.removeLast()
        protocols.removeLast()
        typeParameters.removeLast()
        extensionWheres.removeLast()
        actorContexts.removeLast()
    }

    override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
        if scopes.isEmpty && node.parent?.parent?.parent?.is(SourceFileSyntax.self) == true {
            lastTopLevelImport = node
        }
        if node.path.first?.name.text == "Vow" { importsVow = true }
        return .skipChildren
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(node.name.text, generics: node.genericParameterClause, whereClause: node.genericWhereClause)
        return .visitChildren
    }
    override func visitPost(_ node: ClassDeclSyntax) { leave() }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(node.name.text, generics: node.genericParameterClause, whereClause: node.genericWhereClause)
        return .visitChildren
    }
    override func visitPost(_ node: StructDeclSyntax) { leave() }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(node.name.text, generics: node.genericParameterClause, whereClause: node.genericWhereClause)
        return .visitChildren
    }
    override func visitPost(_ node: EnumDeclSyntax) { leave() }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(node.name.text, generics: node.genericParameterClause, whereClause: node.genericWhereClause)
        return .visitChildren
    }
    override func visitPost(_ node: ActorDeclSyntax) { leave() }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(node.name.text, protocolDecl: node)
        return .visitChildren
    }
    override func visitPost(_ node: ProtocolDeclSyntax) { leave() }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        // An extension names its type in full, whatever encloses it.
        var name = node.extendedType.trimmedDescription
        if let generic = name.firstIndex(of: "<") { name = String(name[..<generic]) }
        scopes.append(name)
        actorContexts.append(ActorContext.hasGlobalActor(node.attributes) ? .isolated : .member(of: name))
        protocols.append(nil)
        typeParameters.append([])
        extensionWheres.append(node.genericWhereClause?.trimmedDescription ?? "")
        return .visitChildren
    }
    override func visitPost(_ node: ExtensionDeclSyntax) { leave() }

    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        let scope = scopes.last ?? ""
        let protocolDecl = protocols.last ?? nil
        functions.append(FunctionSite(
            decl: node,
            scope: scope,
            protocolDecl: protocolDecl,
            protocolIsTopLevel: protocolDecl != nil && scopes.count == 1,
            nonSendableTypeParameters: typeParameters.last ?? [],
            extensionWhere: extensionWheres.last ?? nil,
            actorContext: ActorContext.declared(by: node) ?? actorContexts.last ?? .fileScope
        ))
        // Local functions inside bodies are implementation details: leave them.
        return .skipChildren
    }

    // Closures and variables can hold nested declarations; they are not API.
    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: SubscriptDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}
