/// Whether adding an alternative would change which function an existing call reaches.
///
/// Swift prefers, among the overloads a call matches, the one that needs fewer default
/// arguments, and in async code the async one. So an alternative that drops a defaulted handler
/// (`load(id:completion: ... = nil)` gaining `load(id:)`) takes over every call that leaves the
/// handler out: silently in promise form (the call now builds a promise nobody reads), as a
/// compile error in async code. A trailing closure can also be matched to another closure
/// parameter of the alternative than the handler it filled. The check runs over every call of
/// the name in the tree and in `--context`, before any file is rewritten, so every file of a run
/// reaches the same verdict.
public enum CaptureCheck: Sendable, Equatable {
    /// No existing call can reach the alternative.
    case none
    /// These calls leave a defaulted handler out: each is spelled out (`completion: nil`) in its
    /// own file, so it keeps calling the original.
    case spellOut([ExistingCall])
    /// The alternative would capture a call that cannot be spelled out; it is not added.
    case refused(String)
}

/// What the check needs to know of a function and its alternative.
struct CaptureSubject {
    var baseName: String
    var scope: String
    var location: MigrationIndex.Location
    var parameterShapes: [ParameterShape]
    var alternative: [ParameterShape]
    var handlerIndex: Int
    var failureIndex: Int?
    var handlerDefaults: [Int: String]
    var isPublic: Bool

    var handlerIndices: [Int] { [handlerIndex] + (failureIndex.map { [$0] } ?? []) }
}

extension MigrationIndex {
    /// The calls of `function` an alternative in `target`'s form would capture, and what to do.
    public func captureCheck(of function: CompletionFunctionSummary, target: MigrationTarget) -> CaptureCheck {
        captureCheck(CaptureSubject(
            baseName: function.baseName, scope: function.scope, location: function.location,
            parameterShapes: function.parameterShapes,
            alternative: target == .promise ? function.promiseAlternativeParameters : function.asyncAlternativeParameters,
            handlerIndex: function.handlerIndex, failureIndex: function.failureIndex,
            handlerDefaults: function.handlerDefaults, isPublic: callersOutsideTreeMayReach(function.isPublic, in: function.location.file)))
    }

    /// The check for a function read from its declaration (the file that declares it).
    func captureCheck(of function: CompletionFunction, emitter: AlternativeEmitter, scope: String,
                      location: Location) -> CaptureCheck {
        let baseName = function.name.filter { $0 != "`" }
        let isPublic = (declaredShapesInType[Self.typeKey(baseName, scope)] ?? []).first { $0.location == location }?.isPublic ?? false
        return captureCheck(CaptureSubject(
            baseName: baseName, scope: scope, location: location,
            parameterShapes: function.parameters.map(\.shape), alternative: emitter.alternativeParameterShapes,
            handlerIndex: function.handlerIndex, failureIndex: function.failureIndex,
            handlerDefaults: function.handlerDefaults, isPublic: callersOutsideTreeMayReach(isPublic, in: location.file)))
    }

    func captureCheck(_ function: CaptureSubject) -> CaptureCheck {
        let alternative = function.alternative
        let original = function.parameterShapes
        guard !original.isEmpty || !alternative.isEmpty else { return .none }
        let defaulted = function.handlerIndices.filter { function.handlerDefaults[$0] != nil }
        if function.isPublic && !defaulted.isEmpty {
            return .refused("it is public and its handler has a default value: callers outside the tree that leave the handler out "
                            + "would call the alternative instead; drop the default, or add the alternative by hand under another name")
        }
        if function.isPublic, let external = externalTrailingClosureCall(of: function),
           CallBinding.bind(external, to: alternative) != nil {
            return .refused("it is public, and a caller outside the tree passing its handler as a trailing closure "
                            + "(`\(external.description)`) would reach the alternative's other closure parameter instead")
        }
        var spelled: [ExistingCall] = []
        for call in callsByBaseName[function.baseName] ?? [] where mayReach(call, scope: function.scope) {
            // Already a call of an alternative (a converted call site, awaited or chained).
            if call.usesAlternativeResult { continue }
            guard CallBinding.bind(call, to: alternative) != nil else { continue }
            let place = "`\(call.description)` at \(call.location)"
            guard let slots = CallBinding.bind(call, to: original) else {
                // A call on a receiver syntax cannot type most likely reaches another type's
                // function; one on this type would resolve to the alternative.
                if receiver(of: call) == .other { continue }
                return .refused("the existing call \(place) would resolve to the alternative")
            }
            let omitted = function.handlerIndices.filter { slots[$0] == nil }
            if omitted.isEmpty {
                return .refused("the existing call \(place) passes the handler as a trailing closure, which the alternative "
                                + "would take for another closure parameter")
            }
            if call.inContextFile {
                return .refused("the existing call \(place) leaves the handler out, and is in a --context file, which is never rewritten")
            }
            if let unspellable = omitted.first(where: { CallBinding.spellableDefault(function.handlerDefaults[$0] ?? "") == nil }) {
                return .refused("the existing call \(place) leaves the handler out, and its default `\(function.handlerDefaults[unspellable] ?? "")` "
                                + "cannot be written at the call with the same meaning")
            }
            let lastOmitted = omitted.max() ?? 0
            if slots.enumerated().contains(where: { position, slot in
                if case .trailing = slot { return position < lastOmitted }
                return false
            }) {
                return .refused("the existing call \(place) leaves the handler out after a trailing closure, so it cannot be spelled out")
            }
            if let other = otherDeclaration(binding: call, besides: function) {
                return .refused("the existing call \(place) leaves the handler out and may call `\(other.swiftName)` "
                                + "(\(other.location)) instead; syntax cannot tell which, so it cannot be spelled out")
            }
            spelled.append(call)
        }
        return spelled.isEmpty ? .none : .spellOut(spelled)
    }

    /// The receiver as far as the tree tells: a type the tree does not declare (a framework
    /// class), or `Store.shared` (typed by convention only), says nothing about which function a
    /// call reaches.
    func receiver(of call: ExistingCall) -> ExistingCall.Receiver {
        if call.receiverTypedByConvention { return .other }
        if case .typed(let name) = call.receiver, !declaresType(name), typeAlias(named: name) == nil { return .other }
        return call.receiver
    }

    /// Whether a call could reach a member of `scope` (a global function for "").
    func mayReach(_ call: ExistingCall, scope: String) -> Bool {
        let receiver = receiver(of: call)
        if scope.isEmpty {
            switch receiver {
            case .implicit: return true
            case .type(let name): return !declaresType(name)  // `Module.function()`
            case .selfOrSuper, .typed, .other: return false
            }
        }
        switch receiver {
        case .implicit, .selfOrSuper:
            return !call.scope.isEmpty && inherits(call.scope, from: scope)
        case .type(let name), .typed(let name):
            return inherits(name, from: scope)
        case .other:
            return true
        }
    }

    /// Whether `call` reaches a member of `scope` (a global function for "") as the compiler
    /// resolves it, by what syntax shows of the receiver: unlike ``mayReach(_:scope:)``, which
    /// errs towards reaching, a receiver of a type the tree does not declare (a framework class)
    /// reaches only what the tree declares in extensions of it, and `self` only what its own
    /// hierarchy declares. A receiver whose type syntax does not show may reach any.
    func resolves(_ call: ExistingCall, toMemberOf scope: String) -> Bool {
        switch call.receiver {
        case .other:
            return true
        case .implicit:
            return scope.isEmpty || (!call.scope.isEmpty && inherits(call.scope, from: scope))
        case .selfOrSuper:
            return !scope.isEmpty && !call.scope.isEmpty && inherits(call.scope, from: scope)
        case .type(let name):
            return scope.isEmpty ? !declaresType(name) && typeAlias(named: name) == nil : inherits(name, from: scope)
        case .typed(let name):
            return !scope.isEmpty && inherits(name, from: scope)
        }
    }

    /// The names `type` inherits, through its superclasses and conformances declared in the tree
    /// (last components, generic arguments dropped).
    func inheritedNames(of type: String) -> Set<String> {
        var names: Set<String> = []
        var pending = [Self.lastComponent(type)]
        var seen: Set<String> = []
        while let next = pending.popLast() {
            guard seen.insert(next).inserted else { continue }
            for parent in inheritance[next] ?? [] {
                let name = Self.lastComponent(Self.baseTypeName(parent))
                names.insert(name)
                pending.append(name)
            }
        }
        return names
    }

    /// The other functions of the same type (in any file) whose alternative would be the same as
    /// this one's: they differ only in the closure parameters an alternative drops
    /// (`title(completion:)` with a `Result<String, Error>` and with a `Result<String,
    /// CustomError>` handler both give `title()`). A requirement and its default implementation
    /// have the same parameters: they are one function.
    func collidingOverloads(of function: CompletionFunction, scope: String, location: Location) -> [DeclaredShape] {
        let baseName = function.name.filter { $0 != "`" }
        let kept = function.keptParameters.map { [$0.label ?? "_", $0.typeText] }
        let all = function.parameters.map { [$0.label ?? "_", $0.typeText] }
        let dropped = function.handlerIndices.count
        return (declaredShapesInType[Self.typeKey(baseName, scope)] ?? []).filter { other in
            guard other.location != location else { return false }
            let theirs = other.parameters.map { [$0.label ?? "_", $0.typeText] }
            // Their alternative drops their own handlers, as many as they have (a split
            // `success:`/`failure:` pair beside a `completion:` drops two).
            let theirDropped = theirs.count - kept.count
            guard theirs != all, theirDropped >= 1, theirDropped <= max(dropped, 2) else { return false }
            // Drop `dropped` closure parameters from theirs in every way; one must leave `kept`.
            // A callback taking a closure of its own (`challengeHandler: (Challenge, @escaping
            // (Bool) -> Void) -> Void`) is no completion handler: their alternative keeps it.
            let closures = other.parameters.indices.filter {
                other.parameters[$0].takesClosure && !Self.takesClosureArgument(other.parameters[$0].typeText)
            }
            func matches(_ remaining: Int, from start: Int, removed: Set<Int>) -> Bool {
                if remaining == 0 {
                    return theirs.indices.filter { !removed.contains($0) }.map { theirs[$0] } == kept
                }
                for position in closures where position >= start {
                    if matches(remaining - 1, from: position + 1, removed: removed.union([position])) { return true }
                }
                return false
            }
            return matches(theirDropped, from: 0, removed: [])
        }
    }

    /// Whether a closure type's own parameters include a closure (`(Int, @escaping (Bool) -> Void)
    /// -> Void`): a delegate-style callback handed its own completion, which no alternative drops.
    static func takesClosureArgument(_ typeText: String) -> Bool {
        guard let open = typeText.firstIndex(of: "(") else { return false }
        var depth = 0
        var index = open
        while index < typeText.endIndex {
            let character = typeText[index]
            if character == "(" { depth += 1 }
            if character == ")" {
                depth -= 1
                if depth == 0 { return typeText[open...index].contains("->") }
            }
            index = typeText.index(after: index)
        }
        return false
    }

    /// Whether overloads whose alternatives would be the same (`rivals`) keep the function at
    /// `location` from having one. One of them may have it where its body allows one and no
    /// rival's does (`readChartData(_:)` with a `Result` handler, called on every path, beside
    /// one with an `[Int]` handler that a path never calls): that is decided from the index
    /// alone, so every file's run, and a second run, agrees on which one it is. Where the index
    /// holds no summary of a function, its body is taken to allow one.
    func collisionBlocks(_ location: Location, baseName: String, rivals: [Location]) -> Bool {
        guard !rivals.isEmpty else { return false }
        return !bodyAllowsAlternative(at: location, baseName: baseName)
            || rivals.contains { bodyAllowsAlternative(at: $0, baseName: baseName) }
    }

    /// ``CompletionFunctionSummary/bodyAllowsAlternative`` of the function at `location`; true
    /// where the index holds no summary of it.
    func bodyAllowsAlternative(at location: Location, baseName: String) -> Bool {
        completionFunctions(baseName: baseName).first { $0.location == location }?.bodyAllowsAlternative ?? true
    }

    /// Whether some file of the tree calls a function of this base name.
    func hasCalls(named baseName: String) -> Bool {
        !(callsByBaseName[baseName] ?? []).isEmpty
    }

    /// Whether the tree calls a function of that name whose arguments fit `parameters`
    /// (`handle(intent:completion:)`, not `handle(request:result:)` of another type).
    func hasCalls(named baseName: String, fitting parameters: [ParameterShape]) -> Bool {
        (callsByBaseName[baseName] ?? []).contains { CallBinding.bind($0, to: parameters) != nil }
    }

    /// Whether `type` is `ancestor` or inherits from it, through the superclasses and protocols
    /// the tree declares (names compared by their last component, as lookups are elsewhere).
    func inherits(_ type: String, from ancestor: String) -> Bool {
        let target = Self.lastComponent(ancestor)
        var start = type
        // `typealias Store = NoteStore`: a receiver typed `Store` is a `NoteStore`.
        for _ in 0..<4 {
            guard let alias = typeAlias(named: Self.lastComponent(start)), alias.genericParameters.isEmpty else { break }
            start = Self.baseTypeName(alias.aliasedType)
        }
        return [type, start].contains { name in
            Self.lastComponent(name) == target || inheritedNames(of: name).contains(target)
        }
    }

    /// Another function of the tree that `call` may reach and binds to, and that has no parameter
    /// labelled as the handler: spelling the handler out would not compile if the call is one of
    /// its (`save(notes)` beside `save(_ notes: [Note])` in the same type; argument types are not
    /// read).
    private func otherDeclaration(binding call: ExistingCall, besides function: CaptureSubject) -> DeclaredShape? {
        let handlerLabels = function.handlerIndices.map { function.parameterShapes[$0].label }
        return (declaredShapes[function.baseName] ?? []).first { declared in
            guard declared.location != function.location, mayReach(call, scope: declared.scope) else { return false }
            // An override or a requirement with the same parameters is the same function.
            guard declared.parameters.map(\.label) != function.parameterShapes.map(\.label) else { return false }
            guard CallBinding.bind(call, to: declared.parameters) != nil else { return false }
            return !handlerLabels.allSatisfy { label in declared.parameters.contains { $0.label == label } }
        }
    }

    /// The call a caller outside the tree most likely writes: every parameter without a default
    /// by its label, the handler as the trailing closure (when it is the last closure parameter).
    private func externalTrailingClosureCall(of function: CaptureSubject) -> ExistingCall? {
        let shapes = function.parameterShapes
        guard function.failureIndex == nil, function.handlerIndex < shapes.count,
              !shapes[(function.handlerIndex + 1)...].contains(where: { $0.takesClosure }) else { return nil }
        let labels = shapes.enumerated().filter { $0.offset != function.handlerIndex && !$0.element.isOmittable }.map(\.element.label)
        return ExistingCall(baseName: function.baseName, labels: labels, trailingClosures: [nil],
                            trailingClosureArities: [shapes[function.handlerIndex].closureArity], receiver: .other, scope: "",
                            location: function.location)
    }
}
