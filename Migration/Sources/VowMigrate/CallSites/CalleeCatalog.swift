/// What the call-site stage needs to know about a function called with a completion handler:
/// how its handler reports the outcome, and whether it has an alternative in each form.
struct CalleeSummary: Equatable {
    var baseName: String
    /// Every parameter's argument label, nil for `_`.
    var labels: [String?]
    var handlerIndex: Int
    var shape: HandlerShape
    /// The alternative is a `Guarantee` (the handler cannot report an error, nothing to cancel).
    var producesGuarantee: Bool
    var hasPromiseAlternative: Bool
    var hasAsyncAlternative: Bool
    /// Why the callee gets no alternative in each form, when it does not.
    var noAlternativeReasons: [MigrationTarget: String] = [:]
    /// The handler is optional or defaulted: a call without it could mean either function.
    var handlerIsOptional = false

    func hasAlternative(for target: MigrationTarget) -> Bool {
        target == .promise ? hasPromiseAlternative : hasAsyncAlternative
    }
}

/// Looks callees up by base name; whatever knows the tree can answer.
protocol CalleeCatalog {
    /// Every completion-handler function named `baseName`, in any type.
    func callees(named baseName: String) -> [CalleeSummary]
}

/// The whole-tree index seen as a catalog of callees. A function counts as having an alternative
/// when one exists anywhere in the tree, or when this run adds it: in this file, what the
/// declarations stage reported added; in other files, every function it can convert (they are
/// migrated by the same `--stage all` run).
struct IndexCalleeCatalog: CalleeCatalog {
    let index: MigrationIndex
    let fileName: String
    /// `--stage all`: the declarations stage runs on every file of the tree too.
    let addingAlternatives: Bool
    /// Swift names this file's declarations stage gave an alternative (or found one for).
    let gainedHere: Set<String>

    func callees(named baseName: String) -> [CalleeSummary] {
        index.completionFunctions(baseName: baseName).map { function in
            func has(_ target: MigrationTarget) -> Bool {
                switch function.alternative(for: target) {
                case .existing: return true
                case .none: return false
                case .generated:
                    // This file: what its declarations stage reported; other files: what the same
                    // `--stage all` run adds there.
                    return function.location.file == fileName
                        ? gainedHere.contains(function.swiftName)
                        : addingAlternatives && !function.isContext
                }
            }
            var reasons: [MigrationTarget: String] = [:]
            for target in MigrationTarget.allCases {
                if case .none(let why) = function.alternative(for: target) { reasons[target] = why }
            }
            return CalleeSummary(
                baseName: function.baseName,
                labels: function.argumentLabels,
                handlerIndex: function.handlerIndex,
                shape: function.failureIndex == nil ? function.shape : .split(value: function.valueType),
                producesGuarantee: !function.shape.canFail && !function.isThrowing && function.cancellableHandle == nil,
                hasPromiseAlternative: has(.promise),
                hasAsyncAlternative: has(.async),
                noAlternativeReasons: reasons,
                handlerIsOptional: function.handlerIsOptional
            )
        }
    }
}
