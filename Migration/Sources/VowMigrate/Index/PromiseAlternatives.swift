/// A function returning `Promise<T>` or `Guarantee<T>` (neither `async` nor `throws`): with
/// `--to async` it gains an async alternative beside it, `async throws -> T` (`async -> T` for a
/// guarantee), that awaits the promise the function returns, so async code can call it while
/// promise code keeps the function.
///
/// Swift picks the async overload of a name in async code wherever both fit, so an existing call
/// there that uses the promise in a way a `T` would fit too (`let p = load()`, `_ = load()`) would
/// stop compiling, or worse, change meaning. Before the alternative is added, every call of the
/// name in async code in the tree and `--context` is checked: a use only a promise fits
/// (`.done { }`, `when(fulfilled:)`, `let p: Promise<User> =`) keeps its callee; any other is
/// spelled out as `(load() as Promise)`, in its own file; where that cannot be done the
/// alternative is not added, with the reason. The verdict depends on the index alone, so every
/// file of a run reaches the same one.
public struct PromiseFunctionSummary: Sendable, Equatable {
    /// The enclosing type as written, or "" at file scope.
    public var scope: String
    /// `load(id:)`.
    public var swiftName: String
    public var parameters: [ParameterShape]
    /// The parameters' names inside the function (`id` of `user(id:)`, `_` for none).
    public var parameterNames: [String]
    public var location: MigrationIndex.Location
    /// `User` of `Promise<User>`.
    public var valueType: String
    public var isGuarantee: Bool
    /// Its generic parameters and `where` clause as written, "" without.
    public var genericSignature = ""
    /// What the type declaration or extension holding it lists as inherited.
    public var blockInherited: [String] = []
    public var isPublic: Bool
    public var isOverride: Bool
    public var isContext: Bool
    public var isProtocolRequirement: Bool
    /// A requirement of a public protocol: conforming types outside the tree implement it.
    public var inPublicProtocol = false
    /// It may return a promise made earlier and kept (``PromiseSharing``).
    public var mayReturnStoredPromise = false
    /// Its body is one chain `--replace` can write as straight-line code (``FileSummary/FunctionRecord/replaceableBody``).
    public var replaceableBody = false
    /// What decides its isolation, and its file's default: whether its alternative is
    /// `nonisolated(nonsending)`, as the declarations stage decides it.
    var isolation: ActorContext = .fileScope
    var defaultIsolation: DefaultIsolation = .nonisolated

    var baseName: String { MigrationIndex.baseName(of: swiftName) }

    /// The alternative's Swift name, as the function's.
    var labels: [String?] { parameters.map(\.label) }
}

extension PromiseFunctionSummary {
    /// The summary of a function the index records, returning `Promise<valueType>` (or a
    /// guarantee) directly or through a typealias, declared in a file of the run (or of
    /// `--context`, `isContext`) whose default isolation is `defaultIsolation`.
    init(_ record: FileSummary.FunctionRecord, valueType: String, isGuarantee: Bool, isContext: Bool,
         defaultIsolation: DefaultIsolation) {
        self.init(scope: record.scope, swiftName: record.swiftName, parameters: record.parameters, parameterNames: record.parameterNames,
                  location: record.location, valueType: valueType, isGuarantee: isGuarantee, isPublic: record.isPublic,
                  isOverride: record.isOverride, isContext: isContext, isProtocolRequirement: record.isProtocolRequirement,
                  mayReturnStoredPromise: record.mayReturnStoredPromise, replaceableBody: record.replaceableBody,
                  isolation: record.declaredIsolation ?? (record.scope.isEmpty ? .fileScope : .member(of: record.scope)),
                  defaultIsolation: defaultIsolation)
        inPublicProtocol = record.inPublicProtocol
        genericSignature = record.genericSignature
        blockInherited = record.blockInherited
    }
}

/// What a call of the tree's promise-returning functions reaches (``MigrationIndex/promiseFunctionCall(baseName:labels:adding:)``).
public struct PromiseFunctionCall: Sendable, Equatable {
    /// Every function it may reach returns a `Guarantee`: awaited without `try`.
    public var returnsGuarantee: Bool
    /// Every function it may reach has an async alternative (or gains one in the run), all of one
    /// kind: `try await load(id: 1)` reaches it and gives what `try await load(id: 1).value` gave.
    public var awaitedDirectly: Bool
    /// One of them may return a promise it made earlier and kept, which other chains may wait on.
    public var mayReturnStoredPromise = false
    /// Every function it may reach becomes async under `--replace --to async` (``PromiseReplacementVerdict``).
    public var replaced = false
    /// Every function it may reach returns the same kind, all promises or all guarantees.
    public var returnsOneKind = true
}

/// What a run with `--to async` does for a promise-returning function.
public enum PromiseAlternativeVerdict: Sendable, Equatable {
    /// The alternative is added; these calls in async code are spelled out `(call as Promise)`.
    case add(spellOut: [ExistingCall])
    /// An async function of that name exists already (the message says where).
    case alreadyMigrated(String)
    /// No alternative, for this reason.
    case skipped(String)
}

extension MigrationIndex {
    /// The promise-returning function declared at `location`, if the index knows it.
    func promiseFunction(named swiftName: String, at location: Location) -> PromiseFunctionSummary? {
        (promiseFunctionsByBaseName[Self.baseName(of: swiftName)] ?? []).first { $0.location == location }
    }

    /// Whether `function` gains an async alternative (``PromiseFunctionSummary``).
    func promiseAlternative(of function: PromiseFunctionSummary) -> PromiseAlternativeVerdict {
        if function.isContext { return .skipped("declared in a --context file, which is never rewritten") }
        if function.isOverride {
            return .skipped("it overrides a superclass's method: the async alternative belongs beside the method it overrides "
                            + "(which reaches this one)")
        }
        if declaresType("Promise") || declaresType("Guarantee") {
            return .skipped("the tree declares a type named `Promise` or `Guarantee` of its own; this function's may not be Vow's")
        }
        for (name, shape) in zip(function.parameterNames, function.parameters) {
            if name == "_" { return .skipped("a parameter of it has no name to pass on") }
            if shape.isVariadic { return .skipped("its variadic parameter `\(name)` cannot be passed on") }
            if name == function.baseName { return .skipped("its parameter `\(name)` hides the function's own name in its body") }
        }
        if !function.isProtocolRequirement,
           let requirement = declaredFunctions(named: function.swiftName, in: function.scope).first(where: \.isProtocolRequirement) {
            return .alreadyMigrated("a default implementation of the requirement at \(requirement.location): the async alternative added "
                                    + "for the requirement serves it too (a second one in this extension would be an invalid redeclaration)")
        }
        if let existing = declaredFunctions(named: function.swiftName, in: function.scope).first(where: \.isAsync) {
            return .alreadyMigrated("already has the async alternative `\(function.swiftName)` at \(existing.location)")
        }
        if let sibling = completionSibling(of: function) {
            return .skipped("the completion-handler function `\(sibling.swiftName)` at \(sibling.location) has the same arguments but its "
                            + "handler: its async alternative `\(function.swiftName)` is the one to add (a second would be a redeclaration)")
        }
        if callersOutsideTreeMayReach(function.isPublic, in: function.location.file) {
            return .skipped("it is public: a caller outside the tree that uses its promise in async code (`let p = \(function.baseName)(...)`) "
                            + "would reach the async alternative instead, and stop compiling; add an alternative under another name by hand")
        }
        var spelled: [ExistingCall] = []
        for call in callsByBaseName[function.baseName] ?? []
        where call.inAsyncCode && mayReach(call, scope: function.scope) && CallBinding.bind(call, to: function.parameters) != nil {
            switch call.resultUse {
            case .needsPromise:
                continue
            case .readsValue where Self.hasNoValueMember(function.valueType):
                continue
            case .optionalChained:
                return .skipped("the call `\(call.description)` at \(call.location) is in async code, reached through optional chaining: "
                                + "the async alternative would take it over; bind its promise with its type "
                                + "(`let promise: \(function.isGuarantee ? "Guarantee" : "Promise")<\(function.valueType)>? = ...`), then run again")
            case .readsValue, .other:
                break
            }
            let place = "`\(call.description)` at \(call.location)"
            if call.inContextFile {
                return .skipped("the call \(place) is in async code in a --context file (never rewritten), "
                                + "where the async alternative would take it over")
            }
            if receiver(of: call) == .other {
                // `client.load()` with a receiver of unknown type: spelled out only if every
                // function of the name it can reach returns a promise, so `as Promise` fits.
                let reachable = (declaredShapes[function.baseName] ?? []).filter { CallBinding.bind(call, to: $0.parameters) != nil }
                let promises = promiseFunctionsByBaseName[function.baseName] ?? []
                if reachable.contains(where: { shape in !promises.contains { $0.location == shape.location } }) {
                    return .skipped("the call \(place) is in async code, on a receiver whose type syntax does not show, and may call "
                                    + "another `\(function.baseName)` that returns no promise: the async alternative could take it "
                                    + "over and it cannot be spelled out; write the receiver's type, or bind the promise with its type")
                }
            }
            spelled.append(call)
        }
        return .add(spellOut: spelled)
    }

    /// What a call of promise-returning functions named `baseName` passing exactly `labels`
    /// reaches: nil if none of the tree's (not counting overrides, reached through the method
    /// they override).
    func promiseFunctionCall(baseName: String, labels: [String?], adding: Bool) -> PromiseFunctionCall? {
        let functions = (promiseFunctionsByBaseName[baseName] ?? []).filter { $0.labels == labels && !$0.isOverride }
        guard !functions.isEmpty else { return nil }
        // Awaited directly, the alternative makes the call: on the caller's actor only when it is
        // `nonisolated(nonsending)`; otherwise the function would run elsewhere than it did.
        let awaited = functions.allSatisfy { function in
            guard promiseAlternativeRunsOnCallersActor(function) else { return false }
            switch promiseAlternative(of: function) {
            case .add: return adding
            case .alreadyMigrated: return true
            case .skipped: return false
            }
        }
        let oneKind = Set(functions.map(\.isGuarantee)).count == 1
        return PromiseFunctionCall(returnsGuarantee: functions.allSatisfy(\.isGuarantee),
                                   awaitedDirectly: awaited && oneKind,
                                   mayReturnStoredPromise: functions.contains(where: \.mayReturnStoredPromise),
                                   replaced: functions.allSatisfy { replacedPromiseFunctions.contains($0.location) },
                                   returnsOneKind: oneKind)
    }

    /// Whether the function's async alternative is `nonisolated(nonsending)` (as
    /// `FileRewrite.runsOnCallersActor` decides it in the function's own file).
    func promiseAlternativeRunsOnCallersActor(_ function: PromiseFunctionSummary) -> Bool {
        switch function.isolation {
        case .isolated: return false
        case .explicitlyNonisolated: return true
        case .fileScope: return function.defaultIsolation == .nonisolated
        case .member(let type): return function.defaultIsolation == .nonisolated && isProvablyNonisolated(type)
        }
    }

    /// Whether `call` (in async code, its promise awaited: `try await load(id: 1).value`) can
    /// call the async alternative instead: every function of its name it can reach returns a
    /// promise and gains one in this run (or has one), and no completion-handler function of the
    /// name could take the call.
    func awaitsAlternative(_ call: ExistingCall) -> Bool {
        guard promiseFunctionCall(baseName: call.baseName, labels: call.labels, adding: true)?.awaitedDirectly == true,
              call.trailingClosures.isEmpty else { return false }
        let promises = promiseFunctionsByBaseName[call.baseName] ?? []
        return (declaredShapes[call.baseName] ?? []).allSatisfy { shape in
            promises.contains { $0.location == shape.location } || CallBinding.bind(call, to: shape.parameters) == nil
        }
    }

    /// A completion-handler function of the same type whose async alternative would have this
    /// function's name: `load(id:completion:)` beside `load(id:) -> Promise<User>` (its promise
    /// alternative, added by hand or by vow-migrate).
    private func completionSibling(of function: PromiseFunctionSummary) -> DeclaredShape? {
        let labels = function.parameters.map(\.label)
        return (declaredShapesInType[Self.typeKey(function.baseName, function.scope)] ?? []).first { shape in
            shape.location != function.location && shape.parameters.contains(where: \.takesClosure)
                && shape.parameters.filter { !$0.takesClosure }.map(\.label) == labels
                && (shape.scope == function.scope || Self.lastComponent(shape.scope) == Self.lastComponent(function.scope))
        }
    }

    /// Value types known to have no `value` member: `try await load().value` in async code reads
    /// the promise's, whichever overload is there to pick.
    static func hasNoValueMember(_ type: String) -> Bool {
        var text = type.trimmingSpaces()
        while text.hasSuffix("?") { text.removeLast() }
        if text.hasPrefix("[") || text.hasPrefix("(") { return true }
        return ["Void", "String", "Int", "Int64", "Int32", "UInt", "Double", "Float", "Bool", "Data", "Date", "URL", "UUID", "Decimal"]
            .contains(text)
    }
}
