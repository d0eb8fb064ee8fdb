import SwiftSyntax

// A handler a body keeps for later (`operation.completion = completion`): how the analyzer
// recognises the store, and what the index needs to follow it to the calls of the property.

extension HandlerUse {
    /// The handler kept for later: assigned to a property (`operation.completion = completion`,
    /// `self.pending = completion`), a subscript (`pendingRequests[id] = completion`) or added to a
    /// collection (`handlers.append(completion)`).
    struct Store: Sendable, Equatable {
        /// Where it goes, as written (on one line): `operation.completion`, `handlers`.
        var target: String
        /// The stored property that can be followed: `completion` of `operation.completion` or
        /// `self.completion`; nil for a collection or a subscript, which nothing follows.
        var property: String?
        /// The property is the enclosing type's own (`self.completion`, `completion`).
        var isOwn: Bool
        /// The type of the base when the body shows it (`let operation = FetchOperation()`).
        var baseType: String?
        var location: MigrationIndex.Location
        /// What the index found the property's calls to be: nil until followed.
        var followed: Following?
        /// The function of the tree the handler was handed to, which stores it.
        var through: String? = nil

        enum Following: Sendable, Equatable {
            /// The property is called exactly once on every path, in one method of its type.
            case once
            /// Not once: the property's type and what is wrong (`FetchOperation.main()` can call
            /// it more than once), or no problem when the type is not known.
            case unknown(type: String?, problem: String?)
        }
    }

    /// Records what following a stored handler found.
    mutating func settle(_ store: Store, as following: Store.Following) {
        if let position = stores.firstIndex(of: store) { stores[position].followed = following }
    }
}

extension HandlerUseAnalyzer {
    /// `let operation = FetchOperation(...)`: the type of a name a handler may be stored in.
    mutating func noteLocalTypes(_ variable: VariableDeclSyntax) {
        guard case .parameter = reading else { return }
        for binding in variable.bindings {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                  let call = binding.initializer?.value.as(FunctionCallExprSyntax.self) else { continue }
            var callee = call.calledExpression
            if let member = callee.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "init", let base = member.base {
                callee = base
            }
            if let type = callee.as(DeclReferenceExprSyntax.self)?.baseName.text, type.first?.isUppercase == true {
                localTypes[name] = type
            }
        }
    }

    /// Whether a reference to one of the names is the handler (or, reading a property, the
    /// property): not `other.completion`, which is another object's property.
    func isHandler(_ reference: DeclReferenceExprSyntax) -> Bool {
        let member = reference.parent?.as(MemberAccessExprSyntax.self).flatMap { $0.declName.id == reference.id ? $0 : nil }
        switch reading {
        case .parameter:
            return member == nil
        case .property(let bareNameToo):
            guard let member else { return bareNameToo }
            guard let base = member.base else { return false }
            return base.trimmedDescription == "self" || base.trimmedDescription == "self?"
        }
    }

    /// The expression and its neighbours when it is an operand of an unfolded sequence.
    static func sequenceNeighbours(of expression: ExprSyntax) -> (elements: ExprListSyntax, position: Int)? {
        guard let list = expression.parent?.as(ExprListSyntax.self), list.parent?.is(SequenceExprSyntax.self) == true,
              let index = list.firstIndex(where: { $0.id == expression.id }) else { return nil }
        return (list, list.distance(from: list.startIndex, to: index))
    }

    /// `target = handler`: the target when the expression is the right side of an assignment.
    static func assignmentTarget(of expression: ExprSyntax) -> ExprSyntax? {
        guard let (elements, position) = sequenceNeighbours(of: expression), position == 2, elements.count == 3 else { return nil }
        let operands = Array(elements)
        return operands[1].is(AssignmentExprSyntax.self) ? operands[0] : nil
    }

    /// Whether the expression is what an assignment assigns to (`completion = nil`).
    static func isAssigned(_ expression: ExprSyntax) -> Bool {
        guard let (elements, position) = sequenceNeighbours(of: expression), position == 0, elements.count >= 3 else { return false }
        return Array(elements)[1].is(AssignmentExprSyntax.self)
    }

    /// Where the handler is kept, when the reference stores it: `x.completion = completion`,
    /// `self.pending = completion`, `pendingRequests[id] = completion`, `handlers.append(completion)`.
    func store(of reference: DeclReferenceExprSyntax) -> HandlerUse.Store? {
        let expression = ExprSyntax(reference)
        if let target = Self.assignmentTarget(of: expression) {
            // On one line, so the finding stays one line.
            let text = target.trimmedDescription.split(whereSeparator: \.isNewline).map { $0.drop(while: \.isWhitespace) }.joined()
            if let member = target.as(MemberAccessExprSyntax.self), let base = member.base {
                let baseText = base.trimmedDescription
                let isOwn = baseText == "self" || baseText == "self?"
                return .init(target: text, property: member.declName.baseName.text, isOwn: isOwn,
                             baseType: isOwn ? nil : localTypes[baseText], location: location(of: reference))
            }
            if let bare = target.as(DeclReferenceExprSyntax.self) {
                return .init(target: text, property: bare.baseName.text, isOwn: true, baseType: nil, location: location(of: reference))
            }
            return .init(target: text, property: nil, isOwn: false, baseType: nil, location: location(of: reference))
        }
        if let argument = reference.parent?.as(LabeledExprSyntax.self), argument.expression.id == reference.id,
           let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self),
           let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
           ["append", "insert"].contains(member.declName.baseName.text) {
            return .init(target: base.trimmedDescription, property: nil, isOwn: false, baseType: nil, location: location(of: reference))
        }
        return nil
    }
}

/// Names a body uses the way a stored closure property is used: called through optional chaining
/// (`completion?(result)`, `self.completion?(result)`) or read whole through `self`
/// (`let finish = self.completion`, `hand(self.completion)`; not `self.count + 1` nor
/// `self.items.first`), outside local functions; and every name the body mentions.
final class PropertyCandidates: SyntaxVisitor {
    private(set) var names: Set<String> = []
    /// Every name used bare, and every member of `self` used.
    private(set) var bare: Set<String> = []
    private(set) var throughSelf: Set<String> = []

    init(_ body: CodeBlockSyntax) {
        super.init(viewMode: .sourceAccurate)
        walk(body)
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    override func visit(_ node: OptionalChainingExprSyntax) -> SyntaxVisitorContinueKind {
        if node.parent?.as(FunctionCallExprSyntax.self)?.calledExpression.id == node.id {
            if let bare = node.expression.as(DeclReferenceExprSyntax.self) {
                names.insert(bare.baseName.text)
            } else if let member = node.expression.as(MemberAccessExprSyntax.self), Self.isSelf(member.base) {
                names.insert(member.declName.baseName.text)
            }
        }
        return .visitChildren
    }

    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        if Self.isSelf(node.base) {
            throughSelf.insert(node.declName.baseName.text)
            if Self.isReadWhole(node) { names.insert(node.declName.baseName.text) }
        }
        return .visitChildren
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        // A member's name (`x.completion`, `.completion`) is not a bare use.
        if node.parent?.as(MemberAccessExprSyntax.self)?.declName.id != node.id { bare.insert(node.baseName.text) }
        return .skipChildren
    }

    /// A value handed on as it is: a variable's initial value, an argument, a returned value, the
    /// right side of an assignment.
    private static func isReadWhole(_ node: MemberAccessExprSyntax) -> Bool {
        guard let parent = node.parent else { return false }
        if parent.is(InitializerClauseSyntax.self) || parent.is(LabeledExprSyntax.self) || parent.is(ReturnStmtSyntax.self) { return true }
        if let list = parent.as(ExprListSyntax.self), list.count == 3, list.last?.id == node.id {
            return list.dropFirst().first?.is(AssignmentExprSyntax.self) == true
        }
        return false
    }

    private static func isSelf(_ base: ExprSyntax?) -> Bool {
        guard let text = base?.trimmedDescription else { return false }
        return text == "self" || text == "self?"
    }
}
