import SwiftSyntax

/// One pass over a file for the index: typealiases, types with what they inherit and whether they
/// have `cancel()`, and every function with its declaration text and how its body uses its
/// closure parameters. Keeps text and locations only.
final class IndexCollector: SyntaxVisitor {
    private let fileName: String
    let converter: SourceLocationConverter
    private(set) var aliases: [MigrationIndex.TypeAlias] = []
    private(set) var types: [FileSummary.TypeRecord] = []
    private(set) var functions: [FileSummary.FunctionRecord] = []
    /// The variables and constants declared at file scope.
    private(set) var globalVariables: [String] = []

    private var scopes: [String] = []
    private var inProtocol: [Bool] = []
    /// The names each enclosing type declaration or extension lists as inherited, innermost last.
    private var blockInherited: [[String]] = []
    /// Whether each enclosing scope is a `public extension` (its members are public by default).
    private var inPublicExtension: [Bool] = []

    /// Whether to read which promise-returning bodies `--replace` converts (a dry run of the
    /// converter for each; only a `--replace` run asks).
    let readsReplaceableBodies: Bool
    /// Reads what every function's body runs at once (``SynchronousCalls``), for the call-site stage.
    var readsSynchronousCalls = false

    init(fileName: String, converter: SourceLocationConverter, readsReplaceableBodies: Bool = false) {
        self.fileName = fileName
        self.converter = converter
        self.readsReplaceableBodies = readsReplaceableBodies
        super.init(viewMode: .sourceAccurate)
    }

    private var scope: String { scopes.last ?? "" }
    /// How many actors enclose the declaration being read.
    private var actorDepth = 0
    /// The file's text, read once when a function's body needs a closer look.
    private var bytes: [UInt8]?

    private func fileBytes(_ node: some SyntaxProtocol) -> [UInt8] {
        if let bytes { return bytes }
        let read = Array(node.root.syntaxTextBytes)
        bytes = read
        return read
    }

    private func location(of node: some SyntaxProtocol) -> MigrationIndex.Location {
        let place = node.startLocation(converter: converter)
        return MigrationIndex.Location(file: fileName, line: place.line, column: place.column)
    }

    /// Generic parameters not constrained to `Sendable` (`T` of `Box<T>`).
    private static func nonSendable(_ generics: GenericParameterClauseSyntax?, _ whereClause: GenericWhereClauseSyntax?) -> [String] {
        let whereText = whereClause?.trimmedDescription ?? ""
        return (generics?.parameters ?? []).compactMap { parameter in
            let name = parameter.name.text
            let inherited = identifiers(in: parameter.inheritedType?.trimmedDescription ?? "")
            return inherited.contains("Sendable") || whereText.contains("\(name): Sendable") ? nil : name
        }
    }

    /// Associated types not constrained to `Sendable` (`ReturnType` of Parse's `ParseCloud`).
    private static func nonSendable(_ members: MemberBlockSyntax) -> [String] {
        members.members.compactMap { member in
            guard let associated = member.decl.as(AssociatedTypeDeclSyntax.self) else { return nil }
            let constraints = identifiers(in: (associated.inheritanceClause?.trimmedDescription ?? "")
                                          + (associated.genericWhereClause?.trimmedDescription ?? ""))
            return constraints.contains("Sendable") ? nil : associated.name.text
        }
    }

    /// The names an inheritance clause lists, without `@unchecked`, `@retroactive`,
    /// `@preconcurrency` or `any`.
    static func inheritedNames(_ inheritance: InheritanceClauseSyntax?) -> [String] {
        (inheritance?.inheritedTypes ?? []).map { inherited -> String in
            var text = inherited.type.trimmedDescription
            for prefix in ["@unchecked ", "@retroactive ", "@preconcurrency ", "any "] where text.hasPrefix(prefix) {
                text = String(text.dropFirst(prefix.count))
            }
            return text
        }
    }

    private func enter(_ name: String, inheritance: InheritanceClauseSyntax?, isProtocol: Bool = false,
                       isExtension: Bool = false, isIsolated: Bool = false, keepsPlainAlternatives: Bool = false,
                       notImplicitlySendable: String? = nil,
                       typeParameters: [String] = [], genericParameters: GenericParameterClauseSyntax? = nil,
                       isPublicExtension: Bool = false) {
        let qualified = isExtension || scope.isEmpty ? name : "\(scope).\(name)"
        let inherited = Self.inheritedNames(inheritance)
        types.append(.init(name: qualified, isExtension: isExtension, inherited: inherited, hasCancel: false,
                           isSendable: isIsolated || inherited.contains("Sendable") || inherited.contains("Swift.Sendable"),
                           isIsolated: isIsolated || keepsPlainAlternatives, notImplicitlySendable: notImplicitlySendable,
                           nonSendableTypeParameters: typeParameters,
                           genericParameters: genericParameters?.parameters.map(\.name.text) ?? []))
        scopes.append(qualified)
        inProtocol.append(isProtocol)
        blockInherited.append(inherited)
        inPublicExtension.append(isPublicExtension)
    }

    private func leave() {
        scopes.removeLast()
        inProtocol.removeLast()
        blockInherited.removeLast()
        inPublicExtension.removeLast()
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        // A class is never Sendable by inference; one isolated to a global actor is, and so are
        // its subclasses (which inherit the isolation): recorded as Sendable, so the index
        // passes it down the class hierarchy.
        let isolated = ActorContext.hasGlobalActor(node.attributes)
        let record = types.count
        enter(node.name.text, inheritance: node.inheritanceClause, isIsolated: isolated,
              keepsPlainAlternatives: ActorContext.exposesMembersToObjC(node.attributes),
              notImplicitlySendable: isolated ? nil : "a class",
              typeParameters: Self.nonSendable(node.genericParameterClause, node.genericWhereClause),
              genericParameters: node.genericParameterClause)
        recordPropertyCalls(in: node.memberBlock)
        // `override` or `super` in its body: the first name it inherits is its superclass.
        if let first = types[record].inherited.first,
           node.memberBlock.tokens(viewMode: .sourceAccurate).contains(where: { $0.tokenKind == .keyword(.override) || $0.tokenKind == .keyword(.super) }) {
            types[record].superclass = first
        }
        return .visitChildren
    }
    override func visitPost(_ node: ClassDeclSyntax) { leave() }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(node.name.text, inheritance: node.inheritanceClause, isIsolated: ActorContext.hasGlobalActor(node.attributes),
              notImplicitlySendable: Self.publicWithoutInference(node.modifiers, node.attributes) ? "a public struct" : nil,
              typeParameters: Self.nonSendable(node.genericParameterClause, node.genericWhereClause),
              genericParameters: node.genericParameterClause)
        recordPropertyCalls(in: node.memberBlock)
        return .visitChildren
    }
    override func visitPost(_ node: StructDeclSyntax) { leave() }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(node.name.text, inheritance: node.inheritanceClause, isIsolated: ActorContext.hasGlobalActor(node.attributes),
              notImplicitlySendable: Self.publicWithoutInference(node.modifiers, node.attributes) ? "a public enum" : nil,
              typeParameters: Self.nonSendable(node.genericParameterClause, node.genericWhereClause),
              genericParameters: node.genericParameterClause)
        return .visitChildren
    }

    /// Swift infers `Sendable` for internal and private structs and enums (whose members are),
    /// never for public ones that are not `@frozen`.
    private static func publicWithoutInference(_ modifiers: DeclModifierListSyntax, _ attributes: AttributeListSyntax) -> Bool {
        modifiers.contains { $0.name.text == "public" || $0.name.text == "open" }
            && !attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "frozen" }
    }
    override func visitPost(_ node: EnumDeclSyntax) { leave() }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
        actorDepth += 1
        enter(node.name.text, inheritance: node.inheritanceClause, isIsolated: true,
              typeParameters: Self.nonSendable(node.genericParameterClause, node.genericWhereClause),
              genericParameters: node.genericParameterClause)
        recordPropertyCalls(in: node.memberBlock)
        return .visitChildren
    }
    override func visitPost(_ node: ActorDeclSyntax) {
        actorDepth -= 1
        leave()
    }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(node.name.text, inheritance: node.inheritanceClause, isProtocol: true, keepsPlainAlternatives: ActorContext.hasGlobalActor(node.attributes),
              typeParameters: Self.nonSendable(node.memberBlock))
        inPublicProtocol = node.modifiers.contains { $0.name.text == "public" || $0.name.text == "open" }
        return .visitChildren
    }
    override func visitPost(_ node: ProtocolDeclSyntax) {
        inPublicProtocol = false
        leave()
    }
    /// In a public protocol: its requirements are public (only `--replace` asks).
    private var inPublicProtocol = false
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        var name = node.extendedType.trimmedDescription
        if let generic = name.firstIndex(of: "<") { name = String(name[..<generic]) }
        enter(name, inheritance: node.inheritanceClause, isExtension: true,
              isPublicExtension: node.modifiers.contains { $0.name.text == "public" || $0.name.text == "open" })
        recordPropertyCalls(in: node.memberBlock)
        return .visitChildren
    }
    override func visitPost(_ node: ExtensionDeclSyntax) { leave() }

    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
        let name = node.name.text
        aliases.append(.init(qualifiedName: scope.isEmpty ? name : "\(scope).\(name)",
                             genericParameters: node.genericParameterClause?.parameters.map(\.name.text) ?? [],
                             aliasedType: node.initializer.value.trimmedDescription,
                             location: location(of: node.typealiasKeyword)))
        return .skipChildren
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        let parameters = Array(node.signature.parameterClause.parameters)
        let labels = CompletionFunction.labels(of: node.signature.parameterClause.parameters)
        let names = parameters.map { ($0.secondName ?? $0.firstName).text }
        if node.name.text == "cancel" && parameters.isEmpty && !scope.isEmpty {
            types.append(.init(name: scope, isExtension: true, inherited: [], hasCancel: true, isSendable: false))
        }
        let returnText = node.signature.returnClause?.type.trimmedDescription ?? ""
        let closureLike = parameters.enumerated().filter { Self.mayBeClosure($0.element, name: names[$0.offset]) }.map(\.offset)
        let isAsync = node.signature.effectSpecifiers?.asyncSpecifier != nil
        // `-> VoidPromise`: resolved once the whole tree's typealiases are known (not a name
        // the standard library or Foundation declares).
        let aliasedReturnType = isAsync || node.signature.effectSpecifiers?.throwsClause != nil || Self.isVowType(returnText)
            ? nil : node.signature.returnClause?.type.as(IdentifierTypeSyntax.self).flatMap { type in
                type.genericArgumentClause == nil && !Self.standardTypeNames.contains(type.name.text) ? type.name.text : nil
            }
        // Whether `--replace` can convert the body, read by syntax alone: as the promise or
        // guarantee it returns, both when the name may be an alias of either.
        let mayReplace = readsReplaceableBodies && actorDepth == 0 && !isAsync && node.signature.effectSpecifiers?.throwsClause == nil
        func replaceable(as type: PromiseFunctionToAsync.PromiseType?) -> Bool {
            mayReplace && PromiseFunctionToAsync.replaceableBody(of: node, returning: type, bytes: { self.fileBytes(node) },
                                                                 fileName: fileName, converter: converter)
        }
        var uses: [String: HandlerUse] = [:]
        if let body = node.body, !isAsync {
            let returnsOptional = returnText.hasSuffix("?") || returnText.hasPrefix("Optional<")
            let queues = Set(node.signature.parameterClause.parameters.compactMap { parameter -> String? in
                MigrationIndex.queueTypes.contains(parameter.type.trimmedDescription)
                    ? (parameter.secondName ?? parameter.firstName).text : nil
            })
            for index in closureLike {
                uses[names[index]] = HandlerUseAnalyzer.read(body: body, names: [names[index]], fileName: fileName, converter: converter,
                                                             returnsOptional: returnsOptional, queueParameters: queues)
            }
        }
        functions.append(.init(
            scope: scope,
            swiftName: CompletionFunction.swiftName(node.name.text, labels: labels),
            declarationText: closureLike.isEmpty || isAsync ? "" : node.detached.with(\.body, nil).trimmedDescription,
            parameterNames: names,
            hasBody: node.body != nil,
            isProtocolRequirement: inProtocol.last == true,
            inPublicProtocol: inProtocol.last == true && inPublicProtocol,
            isAsync: isAsync,
            returnsVowType: Self.isVowType(returnText),
            promiseValueType: isAsync || node.signature.effectSpecifiers?.throwsClause != nil ? nil : Self.promiseValueType(returnText),
            genericSignature: [node.genericParameterClause?.trimmedDescription, node.genericWhereClause?.trimmedDescription]
                .compactMap { $0 }.joined(separator: " "),
            blockInherited: blockInherited.last ?? [],
            mayReturnStoredPromise: (Self.isVowType(returnText) || aliasedReturnType != nil) && node.body.map(PromiseSharing.mayReturnStored) ?? false,
            replaceableBody: replaceable(as: aliasedReturnType == nil ? nil : .init(valueType: "", isGuarantee: false)),
            replaceableBodyAsGuarantee: aliasedReturnType != nil && replaceable(as: .init(valueType: "", isGuarantee: true)),
            declaredIsolation: ActorContext.declared(by: node) ?? Self.extensionIsolation(of: node),
            aliasedReturnType: aliasedReturnType,
            returnsGuarantee: Self.isGuaranteeType(returnText),
            isOverride: node.modifiers.contains { $0.name.tokenKind == .keyword(.override) },
            mayBeCompletionFunction: !closureLike.isEmpty && !isAsync,
            location: location(of: node.funcKeyword),
            handlerUses: uses,
            parameters: parameters.map(ParameterShape.init),
            isPublic: Self.isPublic(node.modifiers, inPublicExtension: inPublicExtension.last == true)
        ))
        if !isAsync, let body = node.body, readsSynchronousCalls || !closureLike.isEmpty {
            functions[functions.count - 1].synchronousCalls = SynchronousCalls.names(in: body)
        }
        functions[functions.count - 1].isThrowing = node.signature.effectSpecifiers?.throwsClause != nil
        functions[functions.count - 1].thrownType = node.signature.effectSpecifiers?.throwsClause?.type?.trimmedDescription
        functions[functions.count - 1].addedByTool = isAsync && node.leadingTrivia.contains { piece in
            if case .docLineComment(let text) = piece { return text.hasSuffix("added by vow-migrate.") }
            return false
        }
        // Local functions inside bodies are implementation details.
        return .skipChildren
    }

    // MARK: - Stored handlers

    /// Records the type's stored closure properties (`var completion: ((Result<Data, Error>) -> Void)?`)
    /// on its record, and how the methods, initializers and deinitializer of this declaration (or
    /// extension) call properties: each of those properties, and each property a body calls through
    /// optional chaining (`completion?(result)`) or reads through `self` (`let finish = self.completion`),
    /// which finds the callers of a property declared in another piece or in the type itself when
    /// this is an extension. A handler stored in one is followed to those calls.
    private func recordPropertyCalls(in members: MemberBlockSyntax) {
        var properties: [String] = []
        for member in members.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self), variable.bindingSpecifier.tokenKind == .keyword(.var),
                  !variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) })
            else { continue }
            for binding in variable.bindings where binding.accessorBlock == nil {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                      let type = binding.typeAnnotation?.type.trimmedDescription, Self.isClosureLike(type) else { continue }
                properties.append(name)
            }
        }
        var calls: [FileSummary.PropertyCall] = []
        for member in members.members {
            let method: String
            let parameters: FunctionParameterListSyntax?
            let body: CodeBlockSyntax
            if let function = member.decl.as(FunctionDeclSyntax.self), let functionBody = function.body {
                parameters = function.signature.parameterClause.parameters
                method = CompletionFunction.swiftName(function.name.text, labels: CompletionFunction.labels(of: parameters))
                body = functionBody
            } else if let initializer = member.decl.as(InitializerDeclSyntax.self), let initializerBody = initializer.body {
                parameters = initializer.signature.parameterClause.parameters
                method = CompletionFunction.swiftName("init", labels: CompletionFunction.labels(of: parameters))
                body = initializerBody
            } else if let deinitializer = member.decl.as(DeinitializerDeclSyntax.self), let deinitializerBody = deinitializer.body {
                parameters = nil
                method = "deinit"
                body = deinitializerBody
            } else {
                continue
            }
            let hidden = Set((parameters ?? []).map { ($0.secondName ?? $0.firstName).text })
            let candidates = PropertyCandidates(body)
            // A declared property the body never names (a parameter of its name hides a bare one)
            // is not read again for it.
            let named = hidden.isEmpty ? candidates.bare.union(candidates.throughSelf) : candidates.bare.subtracting(hidden).union(candidates.throughSelf)
            for property in Set(properties).intersection(named).union(candidates.names).sorted() {
                var analyzer = HandlerUseAnalyzer(names: [property], fileName: fileName, converter: converter,
                                                  reading: .property(bareNameToo: !hidden.contains(property)))
                let use = analyzer.analyze(body: body)
                if use.referenced { calls.append(.init(property: property, method: method, calls: use.verdict)) }
            }
        }
        types[types.count - 1].closureProperties = properties
        types[types.count - 1].propertyCalls = calls
    }

    /// A closure type as a stored property spells it, or a name that may be an alias of one.
    private static func isClosureLike(_ type: String) -> Bool {
        if type.hasSubstring("->") { return true }
        let name = type.hasSuffix("?") || type.hasSuffix("!") ? String(type.dropLast()) : type
        return ["Handler", "Callback", "Completion", "Block", "Closure"].contains { name.hasSuffix($0) }
    }

    // Closures and variables can hold nested declarations; they are not API.
    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        if scopes.isEmpty {
            for binding in node.bindings {
                if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text { globalVariables.append(name) }
            }
        }
        return .skipChildren
    }
    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: SubscriptDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    /// Public API: its callers may be outside the tree.
    static func isPublic(_ modifiers: DeclModifierListSyntax, inPublicExtension: Bool) -> Bool {
        let names = modifiers.map(\.name.text)
        if names.contains("public") || names.contains("open") { return true }
        return inPublicExtension && !names.contains { ["private", "fileprivate", "internal", "package"].contains($0) }
    }

    /// `User` of `Promise<User>` or `Guarantee<User>` (as ``isVowType(_:)`` reads them), else nil.
    static func promiseValueType(_ returnText: String) -> String? {
        guard isVowType(returnText), returnText.hasSuffix(">"), let open = returnText.firstIndex(of: "<") else { return nil }
        return String(returnText[returnText.index(after: open)..<returnText.index(before: returnText.endIndex)]).trimmingSpaces()
    }

    /// `.isolated` for a member of an extension marked with a global actor.
    private static func extensionIsolation(of function: FunctionDeclSyntax) -> ActorContext? {
        guard let extensionDecl = function.parent?.parent?.parent?.parent?.as(ExtensionDeclSyntax.self),
              ActorContext.hasGlobalActor(extensionDecl.attributes) else { return nil }
        return .isolated
    }

    private static let standardTypeNames: Set<String> = [
        "Void", "Bool", "Int", "Double", "Float", "String", "Character", "Data", "Date", "URL", "UUID", "Self", "Any", "Never",
    ]

    /// `Guarantee<T>`, as ``isVowType(_:)`` reads it.
    static func isGuaranteeType(_ returnText: String) -> Bool {
        returnText.hasPrefix("Guarantee<") || returnText.hasPrefix("Vow.Guarantee<")
    }

    static func isVowType(_ returnText: String) -> Bool {
        for prefix in ["Promise<", "Guarantee<", "Vow.Promise<", "Vow.Guarantee<"] where returnText.hasPrefix(prefix) { return true }
        return false
    }

    /// A closure type, or a name that may be a typealias of one (declared anywhere in the tree).
    static func mayBeClosure(_ parameter: FunctionParameterSyntax, name: String) -> Bool {
        let text = parameter.type.trimmedDescription
        if text.hasSubstring("->") || text.hasSubstring("@escaping") { return true }
        let words = "\(parameter.firstName.text) \(name) \(text)"
        if CompletionFunctionReader.isCompletionName(words) { return true }
        let lowered = words.lowercased()
        return lowered.hasSubstring("fail") || lowered.hasSubstring("success") || text.hasSuffix("Handler") || text.hasSuffix("Handler?")
            || text.hasSuffix("Callback") || text.hasSuffix("Block") || text.hasSuffix("Block?") || text.hasSuffix("Closure")
    }
}
