import SwiftSyntax

/// One pass over a file that gathers what the rewrite needs to know without type checking:
/// functions with their enclosing type, typealiases, types that can be cancelled, imports.
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
    }

    /// A function already declared, for spotting an alternative added by an earlier run.
    struct Signature {
        var swiftName: String
        var isAsync: Bool
        var returnsVowType: Bool
    }

    private(set) var functions: [FunctionSite] = []
    private(set) var signatures: [String: [Signature]] = [:]
    private(set) var aliases: [String: TypeSyntax] = [:]
    private(set) var cancellableTypes: Set<String> = []
    /// Types declared `Sendable` (or actors) in the file.
    private(set) var sendableTypes: Set<String> = []
    private(set) var lastTopLevelImport: ImportDeclSyntax?
    private(set) var importsVow = false

    private var scopes: [String] = []
    private var protocols: [ProtocolDeclSyntax?] = []
    private var typeParameters: [[String]] = []

    init() {
        super.init(viewMode: .sourceAccurate)
    }

    private func noteSendable(_ name: String, _ inheritance: InheritanceClauseSyntax?) {
        if identifiers(in: inheritance?.trimmedDescription ?? "").contains("Sendable") {
            sendableTypes.insert(name)
        }
    }

    private func enter(_ name: String, protocolDecl: ProtocolDeclSyntax? = nil,
                       generics: GenericParameterClauseSyntax? = nil, whereClause: GenericWhereClauseSyntax? = nil) {
        let qualified = scopes.last.map { $0.isEmpty ? name : "\($0).\(name)" } ?? name
        scopes.append(qualified)
        protocols.append(protocolDecl)
        let whereText = whereClause?.trimmedDescription ?? ""
        let nonSendable = (generics?.parameters ?? []).compactMap { parameter -> String? in
            let name = parameter.name.text
            let inherited = identifiers(in: parameter.inheritedType?.trimmedDescription ?? "")
            return inherited.contains("Sendable") || whereText.contains("\(name): Sendable") ? nil : name
        }
        typeParameters.append((typeParameters.last ?? []) + nonSendable)
    }

    private func leave() {
        scopes.removeLast()
        protocols.removeLast()
        typeParameters.removeLast()
    }

    override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
        if scopes.isEmpty && node.parent?.parent?.parent?.is(SourceFileSyntax.self) == true {
            lastTopLevelImport = node
        }
        if node.path.first?.name.text == "Vow" { importsVow = true }
        return .skipChildren
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        noteSendable(node.name.text, node.inheritanceClause)
        enter(node.name.text, generics: node.genericParameterClause, whereClause: node.genericWhereClause)
        return .visitChildren
    }
    override func visitPost(_ node: ClassDeclSyntax) { leave() }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        noteSendable(node.name.text, node.inheritanceClause)
        enter(node.name.text, generics: node.genericParameterClause, whereClause: node.genericWhereClause)
        return .visitChildren
    }
    override func visitPost(_ node: StructDeclSyntax) { leave() }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        noteSendable(node.name.text, node.inheritanceClause)
        enter(node.name.text, generics: node.genericParameterClause, whereClause: node.genericWhereClause)
        return .visitChildren
    }
    override func visitPost(_ node: EnumDeclSyntax) { leave() }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
        sendableTypes.insert(node.name.text)
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
        protocols.append(nil)
        typeParameters.append([])
        return .visitChildren
    }
    override func visitPost(_ node: ExtensionDeclSyntax) { leave() }

    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
        if node.genericParameterClause == nil {
            aliases[node.name.text] = node.initializer.value
        }
        return .skipChildren
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        let scope = scopes.last ?? ""
        let labels = node.signature.parameterClause.parameters.map { $0.firstName.text == "_" ? nil : $0.firstName.text }
        let returnText = node.signature.returnClause?.type.trimmedDescription ?? ""
        signatures[scope, default: []].append(Signature(
            swiftName: CompletionFunction.swiftName(node.name.text, labels: labels),
            isAsync: node.signature.effectSpecifiers?.asyncSpecifier != nil,
            returnsVowType: returnText.hasPrefix("Promise<") || returnText.hasPrefix("Guarantee<")
        ))
        if node.name.text == "cancel" && labels.isEmpty, let type = scope.split(separator: ".").last {
            cancellableTypes.insert(String(type))
            cancellableTypes.insert(scope)
        }
        let protocolDecl = protocols.last ?? nil
        functions.append(FunctionSite(
            decl: node,
            scope: scope,
            protocolDecl: protocolDecl,
            protocolIsTopLevel: protocolDecl != nil && scopes.count == 1,
            nonSendableTypeParameters: typeParameters.last ?? []
        ))
        // Local functions inside bodies are implementation details: leave them.
        return .skipChildren
    }

    // Closures and variables can hold nested declarations; they are not API.
    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: SubscriptDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}
