import SwiftSyntax

/// What `--replace --to async` does with a promise-returning function: the function itself
/// becomes `async throws -> T`, its chain straight-line code, and every call of it in the tree
/// changes with it, in its own file's run: `try await f().value` in async code becomes
/// `try await f()`; any other call, which uses the promise (chains on it, keeps it, returns it),
/// becomes `Promise.immediate { @MainActor @Sendable in try await f() }`, which starts the
/// function at once, before the code after the call, as calling it did (``ReplacedPromiseCalls``).
///
/// Every file's run must reach the same verdict, so it depends on the index alone: the body's
/// shape (read by syntax when the index was built) and every call the index holds (all of them
/// in a `--replace` run).
public enum PromiseReplacementVerdict: Sendable, Equatable {
    case replace
    /// Kept as it is, for this reason (the same for every function kept so); `detail` names the
    /// place that decided it.
    case keep(String, detail: String? = nil)
}

extension MigrationIndex {
    /// Whether `--replace --to async` converts `function` (``PromiseReplacementVerdict``).
    public func promiseReplacement(of function: PromiseFunctionSummary) -> PromiseReplacementVerdict {
        if replacedPromiseFunctions.contains(function.location) { return .replace }
        // One of functions that change together: what kept the group.
        if let group = overloadGroups(among: promiseFunctionsByBaseName[function.baseName] ?? [])
            .first(where: { $0.contains { $0.location == function.location } }) {
            let locations = Set(group.map(\.location))
            if let obstacle = group.lazy.compactMap({ self.replacementObstacle(of: $0, group: locations) }).first {
                return .keep(obstacle.reason, detail: obstacle.detail)
            }
            if let call = unspelledCall(of: group) {
                return .keep("an overload by the type it answers, and a call of it does not spell that type, which the awaited call "
                             + "would need (`let p: Promise<User> = ...`, `.done { (user: User) in }`)",
                             detail: "\(call.location): `\(call.description)`")
            }
        }
        let obstacle = replacementObstacle(of: function)
        return .keep(obstacle?.reason ?? "", detail: obstacle?.detail)
    }

    /// Why `function` cannot be replaced, or nil when it can. `group`: the functions that would
    /// change with it, a protocol requirement and every implementation of it in the tree
    /// (``requirementGroup(of:)``); the same name among them is no obstacle.
    func replacementObstacle(of function: PromiseFunctionSummary, group: Set<Location> = []) -> (reason: String, detail: String?)? {
        let changesWithGroup = group.contains(function.location)
        guard reading == .all else { return ("the index was not built for --replace", nil) }
        if function.isContext { return ("declared in a --context file, which is never rewritten", nil) }
        if !switchesFromPromiseKit && filesImportingPromiseKit.contains(function.location.file) {
            return ("its file imports PromiseKit, whose promises have no `immediate`: switch the tree to Vow first (--from-promisekit)", nil)
        }
        if filesReadInPieces.contains(function.location.file) {
            return ("its file is large enough to be rewritten in pieces, where functions are not replaced", nil)
        }
        if ["Promise", "Guarantee", "Thenable", "CatchMixin"].contains(Self.lastComponent(function.scope)) {
            return ("a link the app defines on promises: its callers chain on it", nil)
        }
        if !function.replaceableBody && !(changesWithGroup && function.isProtocolRequirement) {
            return (Self.unconvertibleBody, nil)
        }
        if uncalledFunctionNames.contains(function.baseName) {
            return ("its name is used as a value somewhere in the tree (handed on, not called), which the async function would not fit", nil)
        }
        if function.mayReturnStoredPromise {
            return ("it may return a promise it kept, which its callers share: awaited separately, they would no longer take turns", nil)
        }
        if function.isOverride { return ("it overrides a superclass's method, which must change with it", nil) }
        if let external = undeclaredConformance(of: function) { return (Self.undeclaredConformanceReason(external), nil) }
        if function.isProtocolRequirement && !changesWithGroup {
            return ("a protocol requirement: every conforming type must change with it", nil)
        }
        if callersOutsideTreeMayReach(function.isPublic || function.inPublicProtocol, in: function.location.file) {
            return ("it is public: callers outside the tree would break", nil)
        }
        if declaresType("Promise") || declaresType("Guarantee") {
            return ("the tree declares a type named `Promise` or `Guarantee` of its own", nil)
        }
        if let assignment = defaultQueueAssignment {
            return ("the tree changes the default queue (`conf.Q`/`conf.D`): its handlers need not run on the main queue", "assigned at \(assignment)")
        }
        // A requirement it implements, a method it overrides or that overrides it, an overload in
        // its own type: each must change with it. The same name in an unrelated type is another
        // function (calls that may reach either are checked below).
        for shape in declaredShapes[function.baseName] ?? []
        where shape.location != function.location && shape.swiftName == function.swiftName && !group.contains(shape.location) {
            // A requirement of a protocol its type does not conform to is another function too,
            // unless a subclass conforms (`final class Cached: Base, RowLoading {}`).
            let isRequirement = declaredFunctions(named: shape.swiftName, in: shape.scope).contains(where: \.isProtocolRequirement)
            if shape.scope == function.scope
                || (!shape.scope.isEmpty && !function.scope.isEmpty
                    && (inherits(shape.scope, from: function.scope) || inherits(function.scope, from: shape.scope)
                        || (isRequirement && inheritance.keys.contains { inherits($0, from: function.scope) && inherits($0, from: shape.scope) }))) {
                return (isRequirement ? "a protocol requirement of the same name would have to change with it"
                        : "a function of the same name in its own or a related type would have to change with it",
                        "`\(shape.scope.isEmpty ? "" : shape.scope + ".")\(shape.swiftName)` at \(shape.location)")
            }
        }
        // Every call that cannot change with it, each with why: the report lists them all.
        var blocking: [(reason: String, line: String)] = []
        for call in callsByBaseName[function.baseName] ?? []
        where CallBinding.bind(call, to: function.parameters) != nil && mayReachReplacing(call, scope: function.scope) {
            let place = "\(call.location): `\(call.description)`"
            if !switchesFromPromiseKit && filesImportingPromiseKit.contains(call.location.file) {
                blocking.append(("a call of it is in a file importing PromiseKit, whose promises have no `immediate`: "
                                 + "switch the tree to Vow first (--from-promisekit)", place + " is in a file importing PromiseKit"))
            } else if filesReadInPieces.contains(call.location.file) {
                blocking.append(("a call of it is in a file large enough to be rewritten in pieces, where calls are not updated",
                                 place + " is in a file rewritten in pieces"))
            } else if call.inContextFile {
                blocking.append(("a call of it is in a --context file, which is never rewritten", place + " is in a --context file"))
            } else if call.resultUse == .optionalChained {
                blocking.append(("a call of it is made through optional chaining, which `Promise.immediate { try await ... }` cannot wrap as it is",
                                 place + " is made through `?.`"))
            } else if let other = (declaredShapes[function.baseName] ?? []).first(where: { shape in
                shape.location != function.location && !group.contains(shape.location)
                    && CallBinding.bind(call, to: shape.parameters) != nil && mayReachReplacing(call, scope: shape.scope)
            }) {
                blocking.append(("a call of it may reach another function of the same name, which would not change with it",
                                 place + " may reach `\(other.swiftName)` at \(other.location)"))
            }
        }
        guard let first = blocking.first else { return nil }
        let reason = blocking.allSatisfy { $0.reason == first.reason } ? first.reason : "calls of it that cannot change with it keep it a promise function"
        let shown = 10
        var lines = ["kept a promise by \(blocking.count) call\(blocking.count == 1 ? "" : "s") that cannot change with it:"]
        lines += blocking.prefix(shown).map(\.line)
        if blocking.count > shown { lines.append("and \(blocking.count - shown) more") }
        return (reason, lines.joined(separator: "\n"))
    }

    /// The replaced function a call of the tree reaches, if it reaches one (``promiseReplacement(of:)``).
    func replacedFunction(reachedBy call: ExistingCall) -> PromiseFunctionSummary? {
        guard !replacedPromiseFunctions.isEmpty else { return nil }
        return (promiseFunctionsByBaseName[call.baseName] ?? []).first { function in
            replacedPromiseFunctions.contains(function.location)
                && CallBinding.bind(call, to: function.parameters) != nil && mayReachReplacing(call, scope: function.scope)
        }
    }

    /// The reason a function is kept for its body alone; the run that reads the body says why.
    static let unconvertibleBody = "its body is not one promise chain that converts to straight-line code"

    /// The functions ``promiseReplacement(of:)`` converts, worked out once the index is built.
    mutating func decideReplacedPromiseFunctions() {
        guard reading == .all else { return }
        var replaced = Set<Location>()
        for functions in promiseFunctionsByBaseName.values {
            for function in functions where replacementObstacle(of: function) == nil {
                replaced.insert(function.location)
            }
            // A requirement changes with every implementation of it, or none does; so do the
            // functions of one name and parameters in one type (``overloadGroups(among:)``).
            var groups = functions.filter(\.isProtocolRequirement).compactMap(requirementGroup(of:))
            groups += overloadGroups(among: functions)
            for group in groups {
                let locations = Set(group.map(\.location))
                if group.allSatisfy({ replacementObstacle(of: $0, group: locations) == nil }), unspelledCall(of: group) == nil {
                    replaced.formUnion(locations)
                }
            }
        }
        replacedPromiseFunctions = replaced
    }

    /// Functions of one name and parameters in one type (or at file scope), all returning
    /// promises (or all guarantees), which change together or not at all:
    /// - one function written once in each clause of an `#if` (`#if os(watchOS) func sensors() ->
    ///   Promise<[Sensor]> { ... } #else ... #endif`): the same signature, which only separate
    ///   clauses let the tree declare twice; a call reaches whichever is compiled;
    /// - overloads by the type they answer (`-> Promise<String>`, `-> Promise<[String]>`, or
    ///   `<T: Mappable> ... -> Promise<T>` beside `<T: ImmutableMappable>`), where Swift picks one
    ///   by the type the call's context wants: every call of them must spell it
    ///   (``ExistingCall/spellsPromiseType``), since `Promise.immediate { try await load() }` and
    ///   `try await load()` say only what their context says (``unspelledCall(of:)``).
    func overloadGroups(among functions: [PromiseFunctionSummary]) -> [[PromiseFunctionSummary]] {
        let candidates = functions.filter { !$0.isProtocolRequirement }
        return Dictionary(grouping: candidates) { "\($0.scope) \($0.swiftName)" }.values.compactMap { overloads in
            guard overloads.count > 1, let first = overloads.first,
                  overloads.allSatisfy({ $0.isGuarantee == first.isGuarantee && $0.parameters == first.parameters })
            else {
                return nil
            }
            let declared = (declaredShapes[first.baseName] ?? []).filter { $0.scope == first.scope && $0.swiftName == first.swiftName }
            guard declared.count == overloads.count else { return nil }
            return overloads.sorted { ($0.location.file, $0.location.line) < ($1.location.file, $1.location.line) }
        }
    }

    /// A call that may reach one of `group`, overloads by the type they answer
    /// (``overloadGroups(among:)``), whose context does not spell that type; nil where every call
    /// does, or where `group` is no such overloads.
    func unspelledCall(of group: [PromiseFunctionSummary]) -> ExistingCall? {
        guard let first = group.first, group.contains(where: { $0.valueType != first.valueType || $0.genericSignature != first.genericSignature })
        else { return nil }
        return (callsByBaseName[first.baseName] ?? []).first { call in
            !call.spellsPromiseType
                && group.contains { CallBinding.bind(call, to: $0.parameters) != nil && mayReachReplacing(call, scope: $0.scope) }
        }
    }

    /// A protocol requirement returning a promise and every function of the tree that may
    /// implement it: each conforming type's own (and a default in an extension of the protocol).
    /// Nil where that is not all of them: a conforming type (or a protocol refining it) that
    /// declares none, an implementation that returns no promise, a function of the name in a
    /// type related to a conforming one (a superclass's, a subclass's).
    func requirementGroup(of requirement: PromiseFunctionSummary) -> [PromiseFunctionSummary]? {
        let owner = requirement.scope
        guard !owner.isEmpty else { return nil }
        let promiseFunctions = promiseFunctionsByBaseName[requirement.baseName] ?? []
        var group = [requirement]
        var others: [DeclaredShape] = []
        for shape in declaredShapes[requirement.baseName] ?? []
        where shape.location != requirement.location && shape.swiftName == requirement.swiftName {
            if shape.scope == owner || (!shape.scope.isEmpty && inherits(shape.scope, from: owner)) {
                guard let implementation = promiseFunctions.first(where: { $0.location == shape.location }),
                      implementation.isGuarantee == requirement.isGuarantee, !implementation.isProtocolRequirement else { return nil }
                group.append(implementation)
            } else {
                others.append(shape)
            }
        }
        let hasDefault = group.contains { $0.scope == owner && !$0.isProtocolRequirement }
        let conforming = Set(inheritance.keys.filter { $0 != owner && Self.lastComponent($0) != Self.lastComponent(owner) && inherits($0, from: owner) }
            .map { Self.lastComponent($0) })
        for type in conforming {
            let declares = group.contains { Self.lastComponent($0.scope) == type }
            guard declares || hasDefault else { return nil }
            // Another function of the name where the type inherits it or hands it down.
            if others.contains(where: { !$0.scope.isEmpty && (inherits(type, from: $0.scope) || inherits($0.scope, from: type)) }) { return nil }
        }
        return group
    }
}

extension MigrationIndex {
    /// A protocol the declaration or extension holding `function` conforms to (directly, or
    /// through protocols of the tree it lists), that no file of the run declares and that may
    /// require a function returning a promise: one of the app's other modules (a run over one
    /// target of a multi-module app), or a library built on promises. Where the conformance is
    /// declared is where its requirements are implemented, as apps write them (`final class
    /// PedometerSensor: SensorProvider { func sensors() -> Promise<...> }`); `extension
    /// TokenManager: Authenticator { }` says nothing of the functions in `TokenManager`'s own
    /// body. The standard library's and SwiftUI's protocols and Objective-C-style framework names
    /// (`UIViewController`, `WKNavigationDelegate`, `MXSession`) require no promise: their modules
    /// know none. A superclass (the first name a class lists, where `override` or `super` in its
    /// body shows it has one) is left out: a function that is no `override` implements none of
    /// its requirements.
    func undeclaredConformance(of function: PromiseFunctionSummary) -> String? {
        undeclaredConformance(scope: function.scope, blockInherited: function.blockInherited)
    }

    /// ``undeclaredConformance(of:)`` for a function of `scope` in a declaration or extension
    /// listing `blockInherited`.
    func undeclaredConformance(scope: String, blockInherited: [String]) -> String? {
        guard !scope.isEmpty else { return nil }
        let superclass = (superclasses[scope] ?? superclasses[Self.lastComponent(scope)])
            .map { Self.lastComponent(Self.baseTypeName($0)) }
        var found: [String] = []
        var pending = blockInherited.map { Self.lastComponent(Self.baseTypeName($0)) }.filter { $0 != superclass }
        var seen: Set<String> = []
        while let name = pending.popLast() {
            guard seen.insert(name).inserted else { continue }
            if declaresType(name) {
                // A protocol of the tree refining another: its requirements are the type's too.
                pending += (inheritance[name] ?? []).map { Self.lastComponent(Self.baseTypeName($0)) }
            } else if !Self.promiseFreeProtocols.contains(name) && !name.hasPrefix("ExpressibleBy")
                        && !Self.looksLikeObjectiveCFrameworkName(name) {
                found.append(name)
            }
        }
        return found.sorted().first
    }

    /// Why a function of a type conforming to `external` (``undeclaredConformance(of:)``) is kept.
    static func undeclaredConformanceReason(_ external: String) -> String {
        "its type conforms to `\(external)`, which no file of the run declares: a requirement of it this function may "
            + "implement would no longer be met; name the file declaring it with --context"
    }

    /// `UIViewController`, `NSObject`, `CLLocationManagerDelegate`: two or more capitals, then a
    /// capitalised word.
    static func looksLikeObjectiveCFrameworkName(_ name: String) -> Bool {
        let characters = Array(name)
        var capitals = 0
        while capitals < characters.count, characters[capitals].isUppercase { capitals += 1 }
        return capitals >= 3 && capitals < characters.count && characters[capitals].isLowercase
    }

    /// Protocols and classes of the standard library, Foundation and SwiftUI spelled without a
    /// prefix, which no promise-returning requirement comes from.
    static let promiseFreeProtocols: Set<String> = [
        "Sendable", "Equatable", "Hashable", "Codable", "Decodable", "Encodable", "Error", "LocalizedError", "CustomNSError",
        "Identifiable", "Comparable", "CaseIterable", "CustomStringConvertible", "CustomDebugStringConvertible", "AnyObject",
        "RawRepresentable", "ObservableObject", "Actor", "OptionSet", "Sequence", "Collection", "BidirectionalCollection",
        "RandomAccessCollection", "MutableCollection", "RangeReplaceableCollection", "IteratorProtocol", "AsyncSequence",
        "AsyncIteratorProtocol", "Strideable", "Numeric", "BinaryInteger", "SetAlgebra", "Operation", "Thread", "Timer",
        "View", "App", "Scene", "PreviewProvider", "ViewModifier", "Shape", "ButtonStyle", "DynamicProperty", "Observable",
        "Notification", "Decimal", "Date", "Data", "URL", "String", "Substring", "Character", "Bool", "Int", "Int8", "Int16",
        "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double", "Float", "CGFloat",
    ]

    /// Whether the tree declares a function of this base name, a variable or a constant at file scope.
    func declaresGlobal(named name: String) -> Bool {
        globalVariables.contains(name) || (declaredShapes[name] ?? []).contains { $0.scope.isEmpty }
    }
}

extension MigrationIndex {
    /// ``mayReach(_:scope:)``, taking `Analytics.shared.send(...)` for a call on an `Analytics`
    /// as the call-site stage does (``ExistingCall/receiverTypedByConvention``): the capture check
    /// does not take the convention, since a call it misses could silently change callee; here a
    /// wrong guess would fail to compile, never run another function.
    func mayReachReplacing(_ call: ExistingCall, scope: String) -> Bool {
        if call.receiverTypedByConvention, case .typed(let name) = call.receiver, declaresType(name) {
            return !scope.isEmpty && inherits(name, from: scope)
        }
        return mayReach(call, scope: scope)
    }
}

/// The names a file uses as function values rather than calling them: `.then(api.load)`,
/// `let fetch = repo.fetch`, `load(id:)`. A function `--replace` made async would not fit where its
/// promise-returning form was handed on, and such a use is no call the index could change.
/// A name read as a value is taken for such a use unless the file declares a value of that
/// name (a variable of the function's name elsewhere costs a conversion, never a build).
final class UncalledFunctionNames: SyntaxVisitor {
    private(set) var names = Set<String>()

    init() {
        super.init(viewMode: .sourceAccurate)
    }

    /// Names the file also declares as a variable, constant, property or parameter are left out:
    /// there the value read is most likely that one.
    static func names(in tree: some SyntaxProtocol) -> Set<String> {
        let visitor = UncalledFunctionNames()
        visitor.walk(tree)
        return visitor.names.subtracting(visitor.values)
    }

    /// The names declared as values.
    private var values = Set<String>()

    override func visit(_ node: IdentifierPatternSyntax) -> SyntaxVisitorContinueKind {
        values.insert(node.identifier.text)
        return .skipChildren
    }

    override func visit(_ node: FunctionParameterSyntax) -> SyntaxVisitorContinueKind {
        values.insert((node.secondName ?? node.firstName).text)
        return .visitChildren
    }

    override func visit(_ node: ClosureShorthandParameterSyntax) -> SyntaxVisitorContinueKind {
        values.insert(node.name.text)
        return .skipChildren
    }

    override func visit(_ node: ClosureParameterSyntax) -> SyntaxVisitorContinueKind {
        values.insert((node.secondName ?? node.firstName).text)
        return .visitChildren
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        // `load(id:)`: a function named with its labels is a reference to it.
        if node.argumentNames != nil {
            names.insert(node.baseName.text.filter { $0 != "`" })
            return .skipChildren
        }
        // The name itself, or `api.load` with this as its member name.
        var value = Syntax(node)
        if let member = node.parent?.as(MemberAccessExprSyntax.self) {
            // `.stores` alone is a member of the type the context wants (an enum case).
            guard member.declName.id == node.id, member.base != nil else { return .skipChildren }
            value = Syntax(member)
        }
        // Handed on as a call's argument, or given to a constant or variable.
        let argument = value.parent?.is(LabeledExprSyntax.self) == true
            && value.parent?.parent?.parent?.is(FunctionCallExprSyntax.self) == true
        if argument || value.parent?.is(InitializerClauseSyntax.self) == true {
            names.insert(node.baseName.text.filter { $0 != "`" })
        }
        return .skipChildren
    }
}
