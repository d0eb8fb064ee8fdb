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
    /// Why the callee gets no alternative, when it does not.
    var noAlternativeReason: String?
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
            let gains: Bool
            if function.location.file == fileName {
                gains = gainedHere.contains(function.swiftName)
            } else {
                gains = addingAlternatives && !function.isContext && function.skipReason == nil
            }
            return CalleeSummary(
                baseName: function.baseName,
                labels: function.argumentLabels,
                handlerIndex: function.handlerIndex,
                shape: function.failureIndex == nil ? function.shape : .split(value: function.valueType),
                producesGuarantee: !function.shape.canFail && !function.isThrowing && function.cancellableHandle == nil,
                hasPromiseAlternative: function.promiseCounterpart != nil || gains,
                hasAsyncAlternative: function.asyncCounterpart != nil || gains,
                noAlternativeReason: function.skipReason,
                handlerIsOptional: function.handlerIsOptional
            )
        }
    }
}
