import SwiftSyntax

/// Which values a flat promise chain must carry from one handler to the next.
///
/// In a pyramid every callback sees the values of the callbacks around it; in a chain each
/// handler sees only the value of the promise before it. A value (a callback's value, or a `let`
/// its code declares) that a later handler reads is threaded through: the step that makes it
/// available maps the next call's value into a tuple, `api.profile(token).map(on: nil) { (token,
/// $0) }`, and the next handler takes the tuple apart, `{ token, profile in ... }`. The `map`
/// runs synchronously where the promise settles (`on: nil`), so nothing moves to another queue
/// or changes order, and a rejection passes through it untouched.
struct ValueThreading {
    /// One handler of the chain: the value it receives, the names its code declares, and the
    /// names its code (and the next call's arguments, which it writes) reads.
    struct Handler {
        var valueName: String?
        var declared: [String]
        /// The declared names that are `var`s: a later handler would read a copy, not the variable.
        var variables: Set<String> = []
        var reads: Set<String>
    }

    /// Per handler, the earlier names it receives besides its own value, in order of declaration.
    private(set) var carried: [[String]]
    /// `var`s a later handler reads: threading would hand it a copy, so such a chain is not written.
    private(set) var carriedVariables: [String] = []

    /// Works out what each handler must receive. `handlers[0]` is the first call's handler.
    init(_ handlers: [Handler]) {
        // Every definition, where it is made, and the handlers that see it (until a later
        // definition of the same name hides it).
        struct Definition {
            var name: String
            var handler: Int
            /// A handler's value is visible in it; what its code declares, from the next one on.
            var firstVisible: Int
            var isVariable = false
        }
        var definitions: [Definition] = []
        for (index, handler) in handlers.enumerated() {
            if let name = handler.valueName { definitions.append(Definition(name: name, handler: index, firstVisible: index)) }
            for name in handler.declared {
                definitions.append(Definition(name: name, handler: index, firstVisible: index + 1, isVariable: handler.variables.contains(name)))
            }
        }
        var carried = Array(repeating: [String](), count: handlers.count)
        var carriedVariables: [String] = []
        for (position, definition) in definitions.enumerated() {
            // The handlers where this definition is the one a read of its name means.
            var lastReader: Int?
            var handler = definition.firstVisible
            while handler < handlers.count {
                let hidden = definitions[(position + 1)...].contains { $0.name == definition.name && $0.firstVisible <= handler }
                if hidden { break }
                if handlers[handler].reads.contains(definition.name) { lastReader = handler }
                handler += 1
            }
            guard let lastReader else { continue }
            let start = definition.handler + 1
            guard start <= lastReader else { continue }
            if definition.isVariable { carriedVariables.append(definition.name) }
            for index in start...lastReader where !carried[index].contains(definition.name) {
                carried[index].append(definition.name)
            }
        }
        self.carried = carried
        self.carriedVariables = carriedVariables
    }

    /// The parameters of handler `index`: `token, profile` (or just `profile`, or `_`).
    func parameters(of index: Int, valueName: String?) -> String {
        (carried[index] + [valueName ?? "_"]).joined(separator: ", ")
    }

    /// What to append to the call whose value handler `index` receives: `.map(on: nil) { (token, $0) }`.
    func mapping(into index: Int) -> String {
        guard !carried[index].isEmpty else { return "" }
        return ".map(on: nil) { (\((carried[index] + ["$0"]).joined(separator: ", "))) }"
    }

    // MARK: - Reading names

    /// The names a piece of code reads: identifiers used as values, not members (`x.name`) nor labels.
    static func reads(in nodes: [Syntax]) -> Set<String> {
        var names: Set<String> = []
        for node in nodes {
            for token in node.tokens(viewMode: .sourceAccurate) {
                guard case .identifier(let name) = token.tokenKind, let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
                if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id { continue }
                names.insert(name)
            }
        }
        return names
    }

    /// The names statements declare at their own level (`let`, `var`, `guard let`), with
    /// whether each is a `var`.
    static func declarations(in items: [CodeBlockItemSyntax]) -> [(name: String, isVariable: Bool)] {
        items.flatMap { item -> [(name: String, isVariable: Bool)] in
            if let guardStatement = item.item.as(GuardStmtSyntax.self) {
                return guardStatement.conditions.compactMap { element -> (name: String, isVariable: Bool)? in
                    guard let binding = element.condition.as(OptionalBindingConditionSyntax.self),
                          let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return nil }
                    return (name, binding.bindingSpecifier.tokenKind == .keyword(.var))
                }
            }
            guard let variable = item.item.as(VariableDeclSyntax.self) else { return [] }
            let isVariable = variable.bindingSpecifier.tokenKind == .keyword(.var)
            return variable.bindings.flatMap { binding in
                binding.pattern.tokens(viewMode: .sourceAccurate).compactMap { token -> (name: String, isVariable: Bool)? in
                    if case .identifier(let name) = token.tokenKind { return (name, isVariable) }
                    return nil
                }
            }
        }
    }
}
