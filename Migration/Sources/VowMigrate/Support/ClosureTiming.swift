import SwiftSyntax

/// When a closure runs, as far as the syntax around it shows: at once, later, many times, or
/// never on its own (a bridge settles a promise; nothing to flatten in it).
///
/// "Later" is only claimed for APIs that never call their closure before they return: a queue hop
/// (`DispatchQueue.main.async { }`, `queue.asyncAfter(deadline:) { }`,
/// `OperationQueue.main.addOperation { }`), a new task (`Task { }`, `Task.detached { }`), and UI
/// actions that run when the user acts (`UIAlertAction(...) { }`, `UIAction { }`,
/// `UIContextualAction(...) { }`, `Timer.scheduledTimer(...) { }`, `addObserver(forName:...)`).
/// Any other closure may be called before the call that takes it returns (a cache answering
/// at once, `DispatchQueue.main.sync { }`, `autoreleasepool { }`).
enum ClosureTiming {
    case atOnceOrUnknown
    case later
    /// `forEach`, `map` and the like, and `DispatchQueue.concurrentPerform`: the closure runs once
    /// per element, which is a loop.
    case repeated
    /// `Promise { seal in }`, `Guarantee { }`, `with...Continuation { }`, `withTaskCancellationHandler`.
    case bridge

    /// The call a closure is an argument (or trailing closure) of.
    static func call(taking closure: ClosureExprSyntax) -> FunctionCallExprSyntax? {
        if let call = closure.parent?.as(FunctionCallExprSyntax.self) { return call }
        // An argument (closure, LabeledExpr, LabeledExprList, call) or an additional trailing
        // closure (closure, MultipleTrailingClosureElement, its list, call).
        return closure.parent?.parent?.parent?.as(FunctionCallExprSyntax.self)
    }

    static func of(_ closure: ClosureExprSyntax) -> ClosureTiming {
        guard let call = call(taking: closure) else { return .atOnceOrUnknown }
        let callee = call.calledExpression.trimmedDescription
        if callee.hasPrefix("Promise") || callee.hasPrefix("Guarantee")
            || (callee.hasPrefix("with") && callee.hasSuffix("Continuation")) || callee == "withTaskCancellationHandler" {
            return .bridge
        }
        let lastName = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
            ?? call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text ?? callee
        if iterating.contains(lastName) { return .repeated }
        if callee == "Task" || callee == "Task.detached" || laterInitializers.contains(callee) { return .later }
        // `queue.async { }`, `DispatchQueue.global().async(execute: { })`, `asyncAfter(deadline:execute:)`.
        if call.calledExpression.is(MemberAccessExprSyntax.self), laterMethods.contains(lastName) { return .later }
        if lastName == "addObserver", call.arguments.first?.label?.text == "forName" { return .later }
        if lastName == "scheduledTimer", callee.hasSuffix("Timer.scheduledTimer") { return .later }
        return .atOnceOrUnknown
    }

    private static let laterMethods: Set<String> = ["async", "asyncAfter", "addOperation"]
    private static let laterInitializers: Set<String> = ["UIAlertAction", "UIAction", "UIContextualAction"]
    static let iterating: Set<String> = ["forEach", "map", "compactMap", "flatMap", "filter", "reduce", "sorted",
                                         "first", "contains", "allSatisfy", "enumerateObjects", "concurrentPerform"]
}
