import SwiftSyntax

/// A call as syntax shows it, without types: the callee's base name, the argument labels in
/// order, its trailing closures and what it is called on. The index keeps one per call of a name
/// that some function of the tree declares with a closure parameter, so that an alternative can be
/// checked against every existing call before it is added (no existing call may change callee).
public struct ExistingCall: Sendable, Equatable {
    /// What a call is made on, as far as syntax tells.
    public enum Receiver: Sendable, Equatable {
        /// `load()`: a member of the enclosing type (or its ancestors), or a global function.
        case implicit
        /// `self.load()`, `super.load()`.
        case selfOrSuper
        /// `Cache.load()`, `Self.load()`: a static member of that type (or a case, or an initializer).
        case type(String)
        /// `store.load()` where `store` is a parameter, property or local whose type syntax shows
        /// (`store: Store`, `let store = Store()`, `= Store.shared`): a member of that type.
        case typed(String)
        /// `client.load()`, `.load()`, `foo().load()`: a receiver of a type syntax does not show.
        case other
    }

    public var baseName: String
    /// The labels of the arguments inside the parentheses, nil for unlabelled ones.
    public var labels: [String?]
    /// The trailing closures: nil for the first (unlabelled) one, then the labels of the others.
    public var trailingClosures: [String?]
    /// How many parameters each trailing closure takes, where it says (`{ a, b in }`, `{ _ in }`,
    /// `{ print(1) }`); nil where it uses `$0` or cannot tell.
    public var trailingClosureArities: [Int?] = []
    public var receiver: Receiver
    /// The type (or extension) the call is written in, as written; "" at file scope.
    public var scope: String
    public var location: MigrationIndex.Location
    /// Written in a `--context` file, which is never rewritten.
    public var inContextFile = false
    /// The call's result is awaited (`try await store.load(id)`) or chained as a promise
    /// (`store.load(id).done { }`, `firstly { store.load(id) }`): what the call-site stage writes
    /// for a call of an alternative. A completion-handler function returns nothing to await or
    /// chain, so such a call leaving the handler out is a call of the alternative, not one of the
    /// original to spell out.
    public var usesAlternativeResult = false
    /// The receiver is `Store.shared` (or `.default`), typed `.typed("Store")` by convention
    /// only: `shared` may be declared as another type (`static let shared: Client = LiveClient()`).
    /// The call-site stage takes the convention (a wrong guess leaves a call alone, or fails to
    /// compile); the capture check does not, since a call it misses could silently change callee.
    public var receiverTypedByConvention = false
    /// Written in async code (an `async` function or accessor, a closure that awaits or is
    /// handed to `Task`, a task group or `.task`), or in a closure inside such code: there an
    /// async overload of the callee, if one exists, is what Swift picks (``PromiseAlternatives``).
    /// Never a file's top-level code, where Swift picks the synchronous overload.
    public var inAsyncCode = false
    /// How the call's result is used, as far as that decides between a promise-returning
    /// function and an async overload of it in async code (``ResultUse``).
    public var resultUse: ResultUse = .other
    /// The code around the call spells the promise type it wants, so the call keeps saying which
    /// of several functions differing only in the type they answer it means, wrapped in
    /// `Promise.immediate { try await ... }` or awaited (``ExistingCallCollector/spellsPromiseType(_:)``).
    public var spellsPromiseType = false
    /// `try await load()`, `await load()`: the call's value is awaited where it is made.
    public var isAwaited = false
    /// Code runs after the call where it is written, before that code's function returns: a later
    /// statement, the rest of a loop, or the statement it is part of using its value
    /// (``CallContinuation``).
    public var followedByCode = true
    /// The call is the last thing the function it is written in does (directly, not in a
    /// closure): that function (`reload()`, `init(store:)`).
    public var endsFunction: EndedFunction?
    /// Written inside the closure of `withCheckedThrowingContinuation { }` (any of the four) or
    /// `Promise { seal in }` / `Guarantee { seal in }`: an alternative's own call of the
    /// original, whose callback only hands the answer on to the continuation, so where that
    /// callback runs changes nothing (``MigrationIndex/forwardingCallers(of:parameters:typeName:converted:)``).
    public var insideContinuation = false
    // All three read only for the index (``ExistingCallCollector/calls(in:fileName:converter:)``).

    /// The function a call ends (``endsFunction``): its Swift name and parameters, for finding its
    /// own calls (``CallBinding``).
    public struct EndedFunction: Sendable, Equatable {
        public var swiftName: String
        public var parameters: [ParameterShape]
    }

    /// How a call's result is used, as far as that decides which of two overloads returning
    /// `Promise<T>` and (async) `T` the call reaches in async code.
    public enum ResultUse: Sendable, Equatable {
        /// Only a promise fits the use: chained with a link only `Thenable` has
        /// (`.done { }`), handed to `when`/`race`, coerced (`as Promise`), bound with a written
        /// promise type, or returned from a function declared to return one.
        case needsPromise
        /// `.value` read on it and awaited there (`try await load().value`): a promise's, unless
        /// the value type itself has a `value`.
        case readsValue
        /// Reached through optional chaining (`self?.load()`): a coercion cannot be written
        /// around it as simply.
        case optionalChained
        /// Anything else (`let p = load()`, `_ = load()`, an argument): the async overload
        /// would fit too.
        case other
    }
    /// Where an omitted argument is spelled out, by UTF-8 offset in the file: the end of each
    /// argument inside the parentheses, the offset just after `(` (nil without parentheses), and
    /// the end of the called expression (for a call written with trailing closures only).
    var argumentEnds: [Int] = []
    var afterLeftParen: Int?
    var calleeEnd: Int = 0
    /// Where the call is, by UTF-8 offset in the file (without leading and trailing trivia): what
    /// a spelled-out `(call as Promise)` wraps.
    var callStart: Int = 0
    var callEnd: Int = 0

    /// `load(id:)` as the call spells its labels, with `{ }` for each trailing closure
    /// (`upload(_:) { }`, `fetch() { } failure: { }`).
    public var description: String {
        baseName + "(" + labels.map { ($0 ?? "_") + ":" }.joined() + ")"
            + trailingClosures.map { label in (label.map { " \($0):" } ?? "") + " { }" }.joined()
    }
}

/// Collects every call of a file with its ``ExistingCall``, descending into bodies, closures and
/// initializers of properties (all the places existing calls live).
final class ExistingCallCollector: SyntaxVisitor {
    private let fileName: String
    private let converter: SourceLocationConverter
    /// Keeps only calls of these base names, or every call when nil.
    private let names: Set<String>?
    /// The calls read, each with whether it is in async code (``ExistingCall/inAsyncCode``).
    var calls: [ExistingCall] {
        zip(recorded, recordedFrames).map { call, frame in
            var call = call
            call.inAsyncCode = frame.map(isAsync) ?? false
            return call
        }
    }
    private var recorded: [ExistingCall] = []
    /// The code each recorded call is in: a function, accessor or initializer body, or a closure,
    /// as an index into `frameIsAsync`; nil in a file's top-level code, which is never async code
    /// here: even where it awaits, Swift picks a synchronous overload there over an async one
    /// (checked with Swift 6.3), so no alternative can take a call of it over.
    private var recordedFrames: [Int?] = []
    /// Per frame: whether its own syntax makes it async, and the frame it is nested in (for a
    /// closure; a function's body does not inherit its enclosing function's `async`).
    private var frameIsAsync: [Bool] = []
    private var frameParent: [Int?] = []
    private var openFrames: [Int] = []
    /// The base names of every call, kept or not, when asked for (``calls(in:fileName:converter:)``).
    private(set) var calledNames: Set<String> = []
    private var collectsCalledNames = false
    /// Reads what runs after each call (``CallContinuation``), for the index.
    private var readsContinuations = false
    private var scopes: [String] = []
    /// Names with the type syntax gives them, innermost last: a type's properties, then each
    /// function's parameters and locals. A name given two different types maps to nil (unknown).
    private var knownTypes: [[String: String?]] = []
    /// The names an `if`, `while` or `for` binds, by the body they hold in, until it is reached.
    private var blockTypes: [SyntaxIdentifier: [String: String?]] = [:]
    /// The properties of each enclosing type, innermost last (for `self.store`).
    private var typeProperties: [[String: String?]] = []
    /// The generic parameters of the enclosing types and functions, innermost last, each with
    /// its constraint (``genericConstraints(_:_:)``).
    private var genericParameters: [[String: String?]] = []

    /// Every generic parameter in scope with its constraint, inner ones hiding outer ones.
    private var constraintsInScope: [String: String?] {
        genericParameters.reduce(into: [:]) { merged, level in merged.merge(level) { _, inner in inner } }
    }

    /// For a piece of a large file: the properties a type cut in pieces declares in every piece,
    /// by the offset of its body's `{` (``propertyTypes(in:)``).
    var otherPiecesProperties: [Int: [String: String?]] = [:]

    init(fileName: String, converter: SourceLocationConverter, names: Set<String>? = nil) {
        self.fileName = fileName
        self.converter = converter
        self.names = names
        super.init(viewMode: .sourceAccurate)
    }

    private func enter(_ name: String, members: MemberBlockSyntax, qualified: Bool = true,
                       generics: GenericParameterClauseSyntax? = nil, whereClause: GenericWhereClauseSyntax? = nil) {
        scopes.append(qualified ? scopes.last.map { $0.isEmpty ? name : "\($0).\(name)" } ?? name : name)
        genericParameters.append(Self.genericConstraints(generics, whereClause))
        let constraints = constraintsInScope
        // Properties are known throughout the type, wherever they are declared.
        var properties: [String: String?] = [:]
        for member in members.members {
            if let variable = member.decl.as(VariableDeclSyntax.self) { Self.record(variable, in: &properties, constraints: constraints) }
        }
        for (name, type) in otherPiecesProperties[members.leftBrace.positionAfterSkippingLeadingTrivia.utf8Offset] ?? [:]
        where properties[name] == nil {
            properties[name] = .some(Self.constrained(type, constraints))
        }
        knownTypes.append(properties)
        typeProperties.append(properties)
    }

    private func leave() {
        scopes.removeLast()
        genericParameters.removeLast()
        knownTypes.removeLast()
        typeProperties.removeLast()
    }

    // MARK: Async code

    private func openFrame(async: Bool, nested: Bool) {
        frameIsAsync.append(async)
        frameParent.append(nested ? openFrames.last : nil)
        openFrames.append(frameIsAsync.count - 1)
    }

    private func closeFrame() { openFrames.removeLast() }

    /// A closure inside async code is taken for async code too: a synchronous closure there
    /// (`items.map { load($0) }`) is counted in, which can only make a check stricter.
    private func isAsync(_ frame: Int) -> Bool {
        var frame: Int? = frame
        while let current = frame {
            if frameIsAsync[current] { return true }
            frame = frameParent[current]
        }
        return false
    }

    /// Closures Swift types as async whatever they contain: a task's operation, a task group's
    /// body and child tasks, SwiftUI's `.task { }` and `.refreshable { }`.
    private static let asyncClosureOwners: Set<String> = [
        "Task", "detached", "addTask", "addTaskUnlessCancelled", "withTaskGroup", "withThrowingTaskGroup",
        "withDiscardingTaskGroup", "withThrowingDiscardingTaskGroup", "withTaskCancellationHandler", "task", "refreshable",
    ]

    private static func isAsyncByItsOwner(_ closure: ClosureExprSyntax) -> Bool {
        if closure.signature?.effectSpecifiers?.asyncSpecifier != nil { return true }
        var owner = closure.parent
        if owner?.is(LabeledExprSyntax.self) == true { owner = owner?.parent?.parent }
        if owner?.is(MultipleTrailingClosureElementSyntax.self) == true { owner = owner?.parent?.parent }
        guard let call = owner?.as(FunctionCallExprSyntax.self) else { return false }
        var callee = call.calledExpression
        if let specialized = callee.as(GenericSpecializationExprSyntax.self) { callee = specialized.expression }
        let name = callee.as(DeclReferenceExprSyntax.self)?.baseName.text ?? callee.as(MemberAccessExprSyntax.self)?.declName.baseName.text
        return name.map(asyncClosureOwners.contains) ?? false
    }

    /// Whether `node` is in async code, as ``ExistingCall/inAsyncCode`` reads it, from its
    /// ancestors alone.
    static func isInAsyncCode(_ node: some SyntaxProtocol) -> Bool {
        var current = node.parent
        while let ancestor = current {
            if let closure = ancestor.as(ClosureExprSyntax.self) {
                if isAsyncByItsOwner(closure) || awaits(closure.statements) { return true }
            } else if let function = ancestor.as(FunctionDeclSyntax.self) {
                return function.signature.effectSpecifiers?.asyncSpecifier != nil
            } else if let initializer = ancestor.as(InitializerDeclSyntax.self) {
                return initializer.signature.effectSpecifiers?.asyncSpecifier != nil
            } else if let accessor = ancestor.as(AccessorDeclSyntax.self) {
                return accessor.effectSpecifiers?.asyncSpecifier != nil
            }
            current = ancestor.parent
        }
        return false
    }

    /// Code that awaits somewhere (nested closures and functions too, which can only make
    /// the answer stricter).
    private static func awaits(_ statements: CodeBlockItemListSyntax) -> Bool {
        statements.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .keyword(.await) }
    }

    private func markAsync() {
        if let frame = openFrames.last { frameIsAsync[frame] = true }
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
        openFrame(async: Self.isAsyncByItsOwner(node), nested: true)
        // Its parameters hide any outer name they share (`{ store in store.load() }`), and its
        // locals end with it.
        knownTypes.append(Self.closureParameterTypes(node.signature, constraints: constraintsInScope))
        return .visitChildren
    }
    override func visitPost(_ node: ClosureExprSyntax) {
        knownTypes.removeLast()
        closeFrame()
    }
    override func visit(_ node: AccessorDeclSyntax) -> SyntaxVisitorContinueKind {
        openFrame(async: node.effectSpecifiers?.asyncSpecifier != nil, nested: false)
        return .visitChildren
    }
    override func visitPost(_ node: AccessorDeclSyntax) { closeFrame() }
    override func visit(_ node: AwaitExprSyntax) -> SyntaxVisitorContinueKind { markAsync(); return .visitChildren }
    override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind {
        if node.awaitKeyword != nil { markAsync() }
        // `for handler in handlers` where `handlers: [Handler]`: a `Handler`, in the loop's body.
        if knownTypes.count > 1, let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
            let type = if let annotation = node.typeAnnotation {
                Self.constrained(Self.nominalType(annotation.type), constraintsInScope)
            } else {
                elementType(ofSequence: node.sequence)
            }
            Self.add(name, type, to: &blockTypes[node.body.id, default: [:]])
        }
        return .visitChildren
    }

    /// Any other name a pattern binds (`for (index, sheet) in`, `case .shown(let sheet)`,
    /// `catch let error`): of a type syntax does not show here, it hides an outer name's type (in
    /// a loop's body, or from here on in the block).
    override func visit(_ node: IdentifierPatternSyntax) -> SyntaxVisitorContinueKind {
        guard knownTypes.count > 1 else { return .skipChildren }
        if let parent = node.parent, parent.is(PatternBindingSyntax.self) || parent.is(OptionalBindingConditionSyntax.self)
            || parent.is(ForStmtSyntax.self) {
            return .skipChildren
        }
        var ancestor = node.parent
        while let current = ancestor, !current.is(CodeBlockItemSyntax.self) {
            if let loop = current.as(ForStmtSyntax.self) {
                Self.add(node.identifier.text, nil, to: &blockTypes[loop.body.id, default: [:]])
                return .skipChildren
            }
            ancestor = current.parent
        }
        Self.add(node.identifier.text, nil, to: &knownTypes[knownTypes.count - 1])
        return .skipChildren
    }

    /// A block's locals end with it; it starts with the names its `if`, `while` or `for` binds.
    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind {
        knownTypes.append(blockTypes.removeValue(forKey: node.id) ?? [:])
        return .visitChildren
    }
    override func visitPost(_ node: CodeBlockSyntax) { knownTypes.removeLast() }

    /// `if let handler = commands[name]`, `guard let store = self.store`, `if let api = object as? API`:
    /// the bound name with the type its value shows; a value whose type does not show hides
    /// whatever type an outer name of its name has. (`if let store` keeps the outer one's.)
    override func visit(_ node: OptionalBindingConditionSyntax) -> SyntaxVisitorContinueKind {
        guard knownTypes.count > 1, let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, name != "self" else {
            return .visitChildren
        }
        let type: String?
        if let annotation = node.typeAnnotation {
            type = Self.constrained(Self.nominalType(annotation.type), constraintsInScope)
        } else if let value = node.initializer?.value {
            type = valueType(value)
        } else {
            return .visitChildren
        }
        // An `if`'s or a `while`'s binding holds in its body; a `guard`'s, in the rest of the block.
        switch node.parent?.parent?.parent?.as(SyntaxEnum.self) {
        case .ifExpr(let statement): Self.add(name, type, to: &blockTypes[statement.body.id, default: [:]])
        case .whileStmt(let statement): Self.add(name, type, to: &blockTypes[statement.body.id, default: [:]])
        default: Self.add(name, type, to: &knownTypes[knownTypes.count - 1])
        }
        return .visitChildren
    }

    /// The type syntax shows for a value bound to a name: `Store()`, `Store.shared`, another
    /// name of known type, `self` (the enclosing type), `commands[key]` of a collection of known
    /// elements, `x as? Store`.
    private func valueType(_ value: ExprSyntax) -> String? {
        var value = value
        if let forced = value.as(ForceUnwrapExprSyntax.self) { value = forced.expression }
        if let initialized = Self.initializedType(value) { return initialized }
        if let cast = value.as(AsExprSyntax.self) { return Self.constrained(Self.nominalType(cast.type), constraintsInScope) }
        // `object as? Store`, as the parser leaves it (operators unfolded).
        if let sequence = value.as(SequenceExprSyntax.self), sequence.elements.count == 3,
           sequence.elements.dropFirst().first?.is(UnresolvedAsExprSyntax.self) == true,
           let cast = sequence.elements.last?.as(TypeExprSyntax.self) {
            return Self.constrained(Self.nominalType(cast.type), constraintsInScope)
        }
        if let subscripted = value.as(SubscriptCallExprSyntax.self) {
            return elementType(of: subscripted.calledExpression, key: Self.elementKey) ?? elementType(of: subscripted.calledExpression, key: Self.valueKey)
        }
        if let reference = value.as(DeclReferenceExprSyntax.self), reference.baseName.text.first?.isLowercase == true {
            // `guard let strongSelf = self`: the enclosing type.
            if reference.baseName.text == "self" { return scopes.last.flatMap { $0.split(separator: ".").last.map(String.init) } }
            return knownType(of: reference.baseName.text)
        }
        if let member = value.as(MemberAccessExprSyntax.self), member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self" {
            return propertyType(of: member.declName.baseName.text)
        }
        return nil
    }

    /// `handlers`, `self.handlers`, `commands.values`: the elements' type of a collection whose
    /// type syntax shows.
    private func elementType(ofSequence sequence: ExprSyntax) -> String? {
        if let member = sequence.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "values", let base = member.base {
            return elementType(of: base, key: Self.valueKey)
        }
        return elementType(of: sequence, key: Self.elementKey)
    }

    /// The element type kept under `key` for `handlers` (a local, parameter or property) or
    /// `self.handlers` (a property).
    private func elementType(of collection: ExprSyntax, key: (String) -> String) -> String? {
        var collection = collection
        if let optional = collection.as(OptionalChainingExprSyntax.self) { collection = optional.expression }
        if let forced = collection.as(ForceUnwrapExprSyntax.self) { collection = forced.expression }
        if let reference = collection.as(DeclReferenceExprSyntax.self) { return knownType(of: key(reference.baseName.text)) }
        if let member = collection.as(MemberAccessExprSyntax.self), member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self" {
            return typeProperties.last?[key(member.declName.baseName.text)] ?? nil
        }
        return nil
    }

    /// Element types are kept beside the names, under keys no identifier can be: an array's or a
    /// set's elements, and a dictionary's values.
    private static func elementKey(_ name: String) -> String { "[]" + name }
    private static func valueKey(_ name: String) -> String { "[:]" + name }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(node.name.text, members: node.memberBlock, generics: node.genericParameterClause, whereClause: node.genericWhereClause)
        return .visitChildren
    }
    override func visitPost(_ node: ClassDeclSyntax) { leave() }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(node.name.text, members: node.memberBlock, generics: node.genericParameterClause, whereClause: node.genericWhereClause)
        return .visitChildren
    }
    override func visitPost(_ node: StructDeclSyntax) { leave() }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(node.name.text, members: node.memberBlock, generics: node.genericParameterClause, whereClause: node.genericWhereClause)
        return .visitChildren
    }
    override func visitPost(_ node: EnumDeclSyntax) { leave() }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(node.name.text, members: node.memberBlock, generics: node.genericParameterClause, whereClause: node.genericWhereClause)
        return .visitChildren
    }
    override func visitPost(_ node: ActorDeclSyntax) { leave() }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name.text, members: node.memberBlock); return .visitChildren }
    override func visitPost(_ node: ProtocolDeclSyntax) { leave() }
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        // An extension names its type in full, whatever encloses it.
        var name = node.extendedType.trimmedDescription
        if let generic = name.firstIndex(of: "<") { name = String(name[..<generic]) }
        enter(name, members: node.memberBlock, qualified: false, whereClause: node.genericWhereClause)
        return .visitChildren
    }
    override func visitPost(_ node: ExtensionDeclSyntax) { leave() }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        genericParameters.append(Self.genericConstraints(node.genericParameterClause, node.genericWhereClause))
        knownTypes.append(Self.parameterTypes(node.signature.parameterClause, constraints: constraintsInScope))
        openFrame(async: node.signature.effectSpecifiers?.asyncSpecifier != nil, nested: false)
        return .visitChildren
    }
    override func visitPost(_ node: FunctionDeclSyntax) {
        knownTypes.removeLast()
        genericParameters.removeLast()
        closeFrame()
    }
    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
        genericParameters.append(Self.genericConstraints(node.genericParameterClause, node.genericWhereClause))
        knownTypes.append(Self.parameterTypes(node.signature.parameterClause, constraints: constraintsInScope))
        openFrame(async: node.signature.effectSpecifiers?.asyncSpecifier != nil, nested: false)
        return .visitChildren
    }
    override func visitPost(_ node: InitializerDeclSyntax) {
        knownTypes.removeLast()
        genericParameters.removeLast()
        closeFrame()
    }

    /// `<S: Store>` or `where S: Store`: a value of type `S` is a `Store` (its first constraint);
    /// of an unconstrained generic parameter (nil), the type tells nothing.
    private static func genericConstraints(_ clause: GenericParameterClauseSyntax?, _ whereClause: GenericWhereClauseSyntax?) -> [String: String?] {
        var constraints: [String: String?] = [:]
        for parameter in clause?.parameters ?? [] {
            constraints[parameter.name.text] = .some(parameter.inheritedType.flatMap(nominalType))
        }
        for requirement in whereClause?.requirements ?? [] {
            if let conformance = requirement.requirement.as(ConformanceRequirementSyntax.self),
               let name = conformance.leftType.as(IdentifierTypeSyntax.self)?.name.text, (constraints[name] ?? nil) == nil,
               let type = nominalType(conformance.rightType) {
                constraints[name] = .some(type)
            }
        }
        return constraints
    }

    /// A nominal type as written, or the constraint of the generic parameter it names.
    private static func constrained(_ type: String?, _ constraints: [String: String?]) -> String? {
        guard let type else { return nil }
        if let constraint = constraints[type] { return constraint }
        return type
    }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        // A local (a property was recorded with its type): known from here on in the function.
        if knownTypes.count > 1, node.parent?.is(MemberBlockItemSyntax.self) != true {
            // Typed as `valueType` reads the value (`let strongSelf = self`, `= controller as! Screen`,
            // `= commands[name]`), into a dictionary of its own: `valueType` reads `knownTypes`.
            var recorded: [String: String?] = [:]
            Self.record(node, in: &recorded, constraints: constraintsInScope, valueType: valueType)
            for (name, type) in recorded { Self.add(name, type, to: &knownTypes[knownTypes.count - 1]) }
        }
        return .visitChildren
    }

    /// The properties a type body declares, each with the type syntax gives it (generic
    /// parameters not yet replaced by their constraints).
    static func propertyTypes(in members: MemberBlockSyntax) -> [String: String?] {
        var properties: [String: String?] = [:]
        for member in members.members {
            if let variable = member.decl.as(VariableDeclSyntax.self) { record(variable, in: &properties, constraints: [:]) }
        }
        return properties
    }

    private static func parameterTypes(_ clause: FunctionParameterClauseSyntax, constraints: [String: String?]) -> [String: String?] {
        var types: [String: String?] = [:]
        for parameter in clause.parameters {
            let name = (parameter.secondName ?? parameter.firstName).text
            add(name, constrained(nominalType(parameter.type), constraints), to: &types)
            recordElements(of: name, elementTypes(parameter.type), constraints: constraints, in: &types)
        }
        return types
    }

    /// A closure's parameters: the type each is written with, or unknown (`{ store in }`).
    private static func closureParameterTypes(_ signature: ClosureSignatureSyntax?, constraints: [String: String?]) -> [String: String?] {
        var types: [String: String?] = [:]
        switch signature?.parameterClause {
        case .simpleInput(let names):
            for parameter in names { types[parameter.name.text] = .some(nil) }
        case .parameterClause(let clause):
            for parameter in clause.parameters {
                let name = (parameter.secondName ?? parameter.firstName).text
                add(name, parameter.type.flatMap { constrained(nominalType($0), constraints) }, to: &types)
            }
        case nil:
            break
        }
        return types
    }

    /// `let store = Store()`, `var cache: Cache?`, `let api = API.shared`: the name and its type.
    private static func record(_ variable: VariableDeclSyntax, in types: inout [String: String?], constraints: [String: String?],
                               valueType: (ExprSyntax) -> String? = initializedType) {
        for binding in variable.bindings {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
            var type: String?
            var elements: (array: String?, dictionary: String?)
            if let annotation = binding.typeAnnotation {
                type = constrained(nominalType(annotation.type), constraints)
                elements = elementTypes(annotation.type)
            } else if let value = binding.initializer?.value {
                type = valueType(value)
                elements = initializedElementTypes(value)
            }
            add(name, type, to: &types)
            recordElements(of: name, elements, constraints: constraints, in: &types)
        }
    }

    /// Keeps a collection's element types beside its name (``elementKey(_:)``).
    private static func recordElements(of name: String, _ elements: (array: String?, dictionary: String?),
                                       constraints: [String: String?], in types: inout [String: String?]) {
        if types[elementKey(name)] != nil || elements.array != nil {
            add(elementKey(name), constrained(elements.array, constraints), to: &types)
        }
        if types[valueKey(name)] != nil || elements.dictionary != nil {
            add(valueKey(name), constrained(elements.dictionary, constraints), to: &types)
        }
    }

    /// `[Handler]`, `Set<Handler>`, `[String: Handler]?`: the nominal type of the elements (of
    /// the values, for a dictionary).
    private static func elementTypes(_ type: TypeSyntax) -> (array: String?, dictionary: String?) {
        let type = unwrapped(type)
        if let array = type.as(ArrayTypeSyntax.self) { return (nominalType(array.element), nil) }
        if let dictionary = type.as(DictionaryTypeSyntax.self) { return (nil, nominalType(dictionary.value)) }
        if let generic = type.as(IdentifierTypeSyntax.self), let arguments = generic.genericArgumentClause?.arguments {
            let types = arguments.compactMap { $0.argument.as(TypeSyntax.self) }
            switch generic.name.text {
            case "Array", "Set", "ContiguousArray": return (types.count == 1 ? nominalType(types[0]) : nil, nil)
            case "Dictionary": return (nil, types.count == 2 ? nominalType(types[1]) : nil)
            default: break
            }
        }
        return (nil, nil)
    }

    /// `[Handler]()`, `[String: Handler]()`: the element types of an empty collection made so.
    private static func initializedElementTypes(_ value: ExprSyntax) -> (array: String?, dictionary: String?) {
        guard let call = value.as(FunctionCallExprSyntax.self), call.arguments.isEmpty, call.trailingClosure == nil else { return (nil, nil) }
        let typeName = { (expression: ExprSyntax) -> String? in
            let text = expression.trimmedDescription
            guard text.first?.isUppercase == true, text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }) else { return nil }
            return text.split(separator: ".").last.map(String.init)
        }
        if let array = call.calledExpression.as(ArrayExprSyntax.self), array.elements.count == 1, let element = array.elements.first {
            return (typeName(element.expression), nil)
        }
        if let dictionary = call.calledExpression.as(DictionaryExprSyntax.self),
           case .elements(let elements) = dictionary.content, elements.count == 1, let element = elements.first {
            return (nil, typeName(element.value))
        }
        return (nil, nil)
    }

    private static func add(_ name: String, _ type: String?, to types: inout [String: String?]) {
        if let existing = types[name], existing != type {
            types[name] = .some(nil)
        } else {
            types[name] = .some(type)
        }
    }

    /// `@escaping T`, `T?`, `T!`: `T`.
    private static func unwrapped(_ type: TypeSyntax) -> TypeSyntax {
        var type = type
        if let attributed = type.as(AttributedTypeSyntax.self) { type = attributed.baseType }
        if let optional = type.as(OptionalTypeSyntax.self) { type = optional.wrappedType }
        if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { type = unwrapped.wrappedType }
        return type
    }

    /// `Store`, `Store?`, `API.Client`, `any Service`: the nominal type; nil for closures, tuples,
    /// collections and anything else.
    private static func nominalType(_ type: TypeSyntax) -> String? {
        var type = unwrapped(type)
        if let some = type.as(SomeOrAnyTypeSyntax.self) { type = some.constraint }
        if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text }
        if let member = type.as(MemberTypeSyntax.self) { return member.name.text }
        return nil
    }

    /// `Store()`, `Store(config: c)`, `Store.shared`, `Store.default`.
    private static func initializedType(_ value: ExprSyntax) -> String? {
        if let call = value.as(FunctionCallExprSyntax.self),
           let reference = call.calledExpression.as(DeclReferenceExprSyntax.self),
           reference.baseName.text.first?.isUppercase == true {
            return reference.baseName.text
        }
        if let member = value.as(MemberAccessExprSyntax.self), ["shared", "default"].contains(member.declName.baseName.text),
           let base = member.base?.as(DeclReferenceExprSyntax.self), base.baseName.text.first?.isUppercase == true {
            return base.baseName.text
        }
        return nil
    }

    /// Vow's chaining methods: what the call-site stage chains a call's promise with. `map` and
    /// `compactMap` only with their queue (`.map(on: nil) { }`), and not `wait`: a returned
    /// handle (`-> DownloadTask?`) may have those too.
    private static let promiseLinks: Set<String> = [
        "then", "done", "get", "tap", "catch", "recover", "ensure", "ensureThen", "finally", "asVoid", "cauterize",
        "thenMap", "thenFlatMap",
    ]

    /// `try await store.load(id)`, `async let user = store.load(id)`, `store.load(id).done { }`,
    /// `firstly { store.load(id) }`, `.then { _ in return store.load(id) }`,
    /// `when(fulfilled: [store.load(id)])`: the call's result is awaited or chained.
    static func usesAlternativeResult(_ call: FunctionCallExprSyntax) -> Bool {
        var node = Syntax(call)
        if let parent = node.parent, parent.is(AwaitExprSyntax.self) { return true }
        if let member = node.parent?.as(MemberAccessExprSyntax.self), member.base?.id == node.id {
            let link = member.declName.baseName.text
            if promiseLinks.contains(link) { return true }
            if ["map", "compactMap"].contains(link),
               member.parent?.as(FunctionCallExprSyntax.self)?.arguments.first?.label?.text == "on" {
                return true
            }
        }
        if let binding = node.parent?.as(InitializerClauseSyntax.self)?.parent?.parent?.parent?.as(VariableDeclSyntax.self),
           binding.modifiers.contains(where: { $0.name.tokenKind == .keyword(.async) }) {
            return true
        }
        // An argument of `when(...)`/`race(...)`, directly or in an array literal.
        if let element = node.parent?.as(ArrayElementSyntax.self) { node = element.parent?.parent ?? node }
        if let argument = node.parent?.as(LabeledExprSyntax.self),
           let combinator = argument.parent?.parent?.as(FunctionCallExprSyntax.self),
           ["when", "race"].contains(combinator.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text) {
            return true
        }
        // The one statement (or the returned value) of a closure handed to `firstly` or a link.
        node = Syntax(call)
        if let returned = node.parent?.as(ReturnStmtSyntax.self) { node = Syntax(returned) }
        guard let item = node.parent?.as(CodeBlockItemSyntax.self), let statements = item.parent?.as(CodeBlockItemListSyntax.self),
              statements.count == 1, let closure = statements.parent?.as(ClosureExprSyntax.self) else { return false }
        var owner = closure.parent
        if owner?.is(LabeledExprSyntax.self) == true { owner = owner?.parent?.parent }
        guard let linked = owner?.as(FunctionCallExprSyntax.self) else { return false }
        if let reference = linked.calledExpression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text == "firstly" }
        if let member = linked.calledExpression.as(MemberAccessExprSyntax.self) {
            return ["then", "recover", "thenFlatMap"].contains(member.declName.baseName.text)
        }
        return false
    }

    /// Links only a promise has: a call chained with one returns a promise, whatever else of its
    /// name exists. (Not `map`, `compactMap`, `filter`: arrays and optionals have them.)
    private static let promiseOnlyMembers: Set<String> = promiseLinks.union([
        "pipe", "mapValues", "compactMapValues", "flatMapValues", "filterValues", "firstValue", "lastValue", "sortedValues",
        "valueIfFulfilled", "isPending", "isResolved", "isFulfilled", "isRejected", "wait", "asPromise",
    ])

    /// `try await f()`, `await f()`: the call's value is awaited, not used as a promise (`f().value` is).
    static func isAwaited(_ call: FunctionCallExprSyntax) -> Bool {
        var node = Syntax(call).parent
        while let current = node {
            if current.is(AwaitExprSyntax.self) { return true }
            if !current.is(TryExprSyntax.self) { return false }
            node = current.parent
        }
        return false
    }

    /// How the call's result is used (``ExistingCall/ResultUse``); `usesAlternativeResult` is
    /// ``usesAlternativeResult(_:)`` of the call, which its caller has already read.
    static func resultUse(of call: FunctionCallExprSyntax, usesAlternativeResult: Bool) -> ExistingCall.ResultUse {
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self),
           member.base?.is(OptionalChainingExprSyntax.self) == true {
            return .optionalChained
        }
        let node = Syntax(call)
        if let member = node.parent?.as(MemberAccessExprSyntax.self), member.base?.id == node.id {
            let name = member.declName.baseName.text
            if name == "value" {
                // `try await load().value`: awaited right there (not `(load().value)` or a key path).
                return member.parent?.is(AwaitExprSyntax.self) == true ? .readsValue : .other
            }
            if promiseOnlyMembers.contains(name) { return .needsPromise }
            if ["map", "compactMap"].contains(name),
               member.parent?.as(FunctionCallExprSyntax.self)?.arguments.first?.label?.text == "on" {
                return .needsPromise
            }
            return .other
        }
        if node.parent?.is(AsExprSyntax.self) == true { return .needsPromise }
        if node.parent?.is(AwaitExprSyntax.self) == true { return .other }
        // `async let p = load()` is async code itself: the async overload would fit.
        if let variable = node.parent?.as(InitializerClauseSyntax.self)?.parent?.parent?.parent?.as(VariableDeclSyntax.self),
           variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.async) }) {
            return .other
        }
        if usesAlternativeResult { return .needsPromise }
        // `let p: Promise<User> = load()`: the written type decides.
        if let binding = node.parent?.as(InitializerClauseSyntax.self)?.parent?.as(PatternBindingSyntax.self),
           binding.typeAnnotation != nil {
            return .needsPromise
        }
        // `return load()` in a function declaring its return type.
        if let returned = node.parent?.as(ReturnStmtSyntax.self) {
            var scope = returned.parent
            while let current = scope {
                if let function = current.as(FunctionDeclSyntax.self) {
                    return function.signature.returnClause == nil ? .other : .needsPromise
                }
                if let closure = current.as(ClosureExprSyntax.self) {
                    return closure.signature?.returnClause == nil ? .other : .needsPromise
                }
                if current.is(AccessorDeclSyntax.self) || current.is(InitializerDeclSyntax.self) { return .other }
                scope = current.parent
            }
        }
        return .other
    }

    /// Whether the code around `call` spells the type of the promise it answers, where Swift
    /// would pick among functions differing only in that type: `let p: Promise<User> = load()`,
    /// `load() as Promise<User>`, `return load()` (or a body of that one call) in a function or
    /// closure declaring its return type, a first link whose closure types its one parameter
    /// (`load().done { (user: User) in }`), and `try await load().value` in any of the first three
    /// places. Each stays as typed once the call is `Promise.immediate { try await load() }` or
    /// `try await load()`.
    static func spellsPromiseType(_ call: FunctionCallExprSyntax) -> Bool {
        let node = Syntax(call)
        if let member = node.parent?.as(MemberAccessExprSyntax.self), member.base?.id == node.id {
            if member.declName.baseName.text == "value", let awaited = member.parent?.as(AwaitExprSyntax.self) {
                var outer = Syntax(awaited)
                if let tried = outer.parent?.as(TryExprSyntax.self) { outer = Syntax(tried) }
                return contextSpellsType(outer)
            }
            guard ["then", "map", "compactMap", "done", "get"].contains(member.declName.baseName.text),
                  let link = member.parent?.as(FunctionCallExprSyntax.self), link.calledExpression.id == member.id else { return false }
            return typedParameter(of: link.trailingClosure ?? (link.arguments.count == 1 ? link.arguments.first?.expression.as(ClosureExprSyntax.self) : nil)) != nil
        }
        if let cast = node.parent?.as(AsExprSyntax.self), cast.questionOrExclamationMark == nil {
            return cast.type.as(IdentifierTypeSyntax.self)?.genericArgumentClause != nil
        }
        // Unfolded, `load() as Promise<User>` is a sequence: the call, `as`, the type.
        if let list = node.parent?.as(ExprListSyntax.self) {
            let items = Array(list)
            if let position = items.firstIndex(where: { $0.id == node.id }), position + 2 < items.count,
               let cast = items[position + 1].as(UnresolvedAsExprSyntax.self), cast.questionOrExclamationMark == nil,
               let type = items[position + 2].as(TypeExprSyntax.self) {
                return type.type.as(IdentifierTypeSyntax.self)?.genericArgumentClause != nil
            }
        }
        return contextSpellsType(node)
    }

    /// `node` is a binding's value under a written type, returned from (or the one statement of)
    /// a function or closure declaring its return type (``spellsPromiseType(_:)``).
    private static func contextSpellsType(_ node: Syntax) -> Bool {
        if let binding = node.parent?.as(InitializerClauseSyntax.self)?.parent?.as(PatternBindingSyntax.self) {
            return binding.typeAnnotation != nil
        }
        if let returned = node.parent?.as(ReturnStmtSyntax.self) {
            var scope = returned.parent
            while let current = scope {
                if let function = current.as(FunctionDeclSyntax.self) { return function.signature.returnClause != nil }
                if let closure = current.as(ClosureExprSyntax.self) { return closure.signature?.returnClause != nil }
                if current.is(AccessorDeclSyntax.self) || current.is(InitializerDeclSyntax.self) { return false }
                scope = current.parent
            }
            return false
        }
        guard let list = node.parent?.as(CodeBlockItemSyntax.self)?.parent?.as(CodeBlockItemListSyntax.self), list.count == 1 else { return false }
        if let closure = list.parent?.as(ClosureExprSyntax.self) { return closure.signature?.returnClause != nil }
        return list.parent?.as(CodeBlockSyntax.self)?.parent?.as(FunctionDeclSyntax.self)?.signature.returnClause != nil
    }

    /// The type a closure's one parameter spells (`{ (user: User) in }`), where it names one:
    /// not `Any`, `AnyObject` or `_`, which say nothing of the value. What a chain's first
    /// handler tells of an overloaded call's type, for the index (``spellsPromiseType(_:)``) and
    /// for the straight-line code that binds it (``ChainToAsync``) alike.
    static func typedParameter(of closure: ClosureExprSyntax?) -> String? {
        guard case .parameterClause(let clause)? = closure?.signature?.parameterClause, clause.parameters.count == 1,
              let type = clause.parameters.first?.type?.trimmedDescription, !["Any", "AnyObject", "_"].contains(type) else { return nil }
        return type
    }

    /// The number of parameters a closure literal declares, or nil when it uses `$0` (or is
    /// written in a way this does not read).
    static func arity(of closure: ClosureExprSyntax) -> Int? {
        if let parameters = closure.signature?.parameterClause {
            if let list = parameters.as(ClosureShorthandParameterListSyntax.self) { return list.count }
            if let clause = parameters.as(ClosureParameterClauseSyntax.self) { return clause.parameters.count }
            return nil
        }
        let usesShorthand = closure.statements.tokens(viewMode: .sourceAccurate).contains { token in
            if case .dollarIdentifier = token.tokenKind { return true }
            return false
        }
        return usesShorthand ? nil : 0
    }

    /// The type syntax gives a receiver name (a local, a parameter, a property), or nil.
    private func knownType(of name: String) -> String? {
        for types in knownTypes.reversed() {
            if let type = types[name] { return type }
        }
        return nil
    }

    /// Whether a parameter, local or property of this name is in scope.
    private func isVariable(_ name: String) -> Bool {
        knownTypes.contains { $0[name] != nil }
    }

    /// `self.store`: a property of the enclosing type.
    private func propertyType(of name: String) -> String? {
        typeProperties.last?[name] ?? nil
    }

    /// The calls of a file as the index keeps them: without offsets; and the base names of all
    /// its calls (``FileSummary/calledNames``).
    static func calls(in tree: some SyntaxProtocol, fileName: String, converter: SourceLocationConverter)
        -> (calls: [ExistingCall], calledNames: Set<String>) {
        let collector = ExistingCallCollector(fileName: fileName, converter: converter)
        collector.collectsCalledNames = true
        collector.readsContinuations = true
        collector.walk(tree)
        let calls = collector.calls.map { call in
            var call = call
            call.argumentEnds = []
            call.afterLeftParen = nil
            call.calleeEnd = 0
            call.callStart = 0
            call.callEnd = 0
            return call
        }
        return (calls, collector.calledNames)
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        // Every call's name, as the call-site stage reads it (a closure held in a variable too).
        if collectsCalledNames, let name = PyramidReader.baseName(node) { calledNames.insert(name.filter { $0 != "`" }) }
        // A call of another name is not read at all (its place and receiver cost most of a walk).
        if let names {
            var callee = node.calledExpression
            if let specialized = callee.as(GenericSpecializationExprSyntax.self) { callee = specialized.expression }
            let name = callee.as(DeclReferenceExprSyntax.self)?.baseName.text ?? callee.as(MemberAccessExprSyntax.self)?.declName.baseName.text
            guard let name, names.contains(name.filter({ $0 != "`" })) else { return .visitChildren }
        }
        if var shape = shape(of: node, scope: scopes.last ?? ""), names?.contains(shape.baseName) ?? true {
            if readsContinuations { (shape.followedByCode, shape.endsFunction) = CallContinuation.after(node) }
            recorded.append(shape)
            recordedFrames.append(openFrames.last)
        }
        return .visitChildren
    }

    private func shape(of call: FunctionCallExprSyntax, scope: String) -> ExistingCall? {
        var callee = call.calledExpression
        // `load<User>(...)`: the generic arguments do not change which declaration is named.
        if let specialized = callee.as(GenericSpecializationExprSyntax.self) { callee = specialized.expression }
        let baseName: String
        let receiver: ExistingCall.Receiver
        var byConvention = false
        if let reference = callee.as(DeclReferenceExprSyntax.self) {
            baseName = reference.baseName.text
            // `completion(.success(x))`: a parameter, local or property holding a closure, which
            // shadows any method of that name (a method and a property cannot share one).
            if isVariable(baseName) { return nil }
            receiver = .implicit
        } else if let member = callee.as(MemberAccessExprSyntax.self) {
            baseName = member.declName.baseName.text
            var base = member.base
            // `store?.load()`, `store!.load()`: the same receiver.
            if let optional = base?.as(OptionalChainingExprSyntax.self) { base = optional.expression }
            if let forced = base?.as(ForceUnwrapExprSyntax.self) { base = forced.expression }
            if let reference = base?.as(DeclReferenceExprSyntax.self) {
                let name = reference.baseName.text
                if name == "self" || name == "super" {
                    receiver = .selfOrSuper
                } else if name == "Self" {
                    receiver = .type(scope)
                } else if name.first?.isUppercase == true {
                    receiver = .type(name)
                } else if let type = knownType(of: name) {
                    receiver = .typed(type)
                } else {
                    receiver = .other
                }
            } else if let property = base?.as(MemberAccessExprSyntax.self),
                      property.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self",
                      let type = propertyType(of: property.declName.baseName.text) {
                receiver = .typed(type)
            } else if base?.is(SuperExprSyntax.self) == true {
                receiver = .selfOrSuper
            } else if let base, let type = Self.initializedType(base) {
                // `Store.shared.load()`, `Store().load()`: as a local initialised so.
                receiver = .typed(type)
                byConvention = !base.is(FunctionCallExprSyntax.self)
            } else if let base = base?.as(MemberAccessExprSyntax.self),
                      base.trimmedDescription.split(separator: ".").allSatisfy({ $0.first?.isUppercase == true }) {
                // `API.Users.load()`: a type qualified by its enclosing types.
                receiver = .type(base.trimmedDescription)
            } else {
                receiver = .other
            }
        } else {
            return nil
        }
        let baseText = baseName.filter { $0 != "`" }
        let place = call.startLocation(converter: converter)
        let usesAlternativeResult = Self.usesAlternativeResult(call)
        var trailing: [String?] = call.trailingClosure == nil ? [] : [nil]
        trailing += call.additionalTrailingClosures.map { $0.label.text }
        let closures = (call.trailingClosure.map { [$0] } ?? []) + call.additionalTrailingClosures.map(\.closure)
        return ExistingCall(
            baseName: baseText,
            labels: call.arguments.map { $0.label?.text },
            trailingClosures: trailing,
            trailingClosureArities: closures.map(Self.arity),
            receiver: receiver,
            scope: scope,
            location: MigrationIndex.Location(file: fileName, line: place.line, column: place.column),
            usesAlternativeResult: usesAlternativeResult,
            receiverTypedByConvention: byConvention,
            resultUse: Self.resultUse(of: call, usesAlternativeResult: usesAlternativeResult),
            spellsPromiseType: Self.spellsPromiseType(call),
            isAwaited: Self.isAwaited(call),
            insideContinuation: Self.isInsideContinuation(call),
            argumentEnds: call.arguments.map { $0.expression.endPositionBeforeTrailingTrivia.utf8Offset },
            afterLeftParen: call.leftParen?.endPositionBeforeTrailingTrivia.utf8Offset,
            calleeEnd: call.calledExpression.endPositionBeforeTrailingTrivia.utf8Offset,
            callStart: call.positionAfterSkippingLeadingTrivia.utf8Offset,
            callEnd: call.endPositionBeforeTrailingTrivia.utf8Offset
        )
    }

    /// The nearest closure around `call` is the body of a continuation or of a promise's
    /// initializer (``ExistingCall/insideContinuation``).
    static func isInsideContinuation(_ call: FunctionCallExprSyntax) -> Bool {
        var node = call.parent
        while let current = node, !current.is(ClosureExprSyntax.self) {
            if current.is(MemberBlockItemSyntax.self) || current.is(FunctionDeclSyntax.self) || current.is(InitializerDeclSyntax.self)
                || current.is(AccessorDeclSyntax.self) {
                return false
            }
            node = current.parent
        }
        guard let closure = node, var owner = closure.parent else { return false }
        if owner.is(LabeledExprSyntax.self) || owner.is(LabeledExprListSyntax.self) { owner = owner.parent ?? owner }
        if owner.is(LabeledExprListSyntax.self) { owner = owner.parent ?? owner }
        guard let outer = owner.as(FunctionCallExprSyntax.self), outer.trailingClosure?.id == closure.id || outer.arguments.contains(where: { $0.expression.id == closure.id })
        else { return false }
        // `Promise`, `Promise<Int>`, `Vow.Promise`, `Vow.Promise<Int>`.
        var called = outer.calledExpression
        if let specialized = called.as(GenericSpecializationExprSyntax.self) { called = specialized.expression }
        let name = called.as(DeclReferenceExprSyntax.self)?.baseName.text
            ?? called.as(MemberAccessExprSyntax.self).flatMap { member in
                ["Vow", "PromiseKit", "Swift", "_Concurrency"].contains(member.base?.trimmedDescription ?? "") ? member.declName.baseName.text : nil
            }
        guard let name else { return false }
        return ["withCheckedThrowingContinuation", "withCheckedContinuation", "withUnsafeThrowingContinuation", "withUnsafeContinuation",
                "Promise", "Guarantee"].contains(name)
    }
}
