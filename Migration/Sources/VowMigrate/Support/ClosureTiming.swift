import SwiftSyntax

/// When a closure runs, as far as the syntax around it shows: at once, later, many times, or
/// never on its own (a bridge settles a promise; nothing to flatten in it).
///
/// "Later" is only claimed for APIs that never call their closure before they return: a queue hop
/// (`DispatchQueue.main.async { }`, `queue.asyncAfter(deadline:) { }`, `group.notify(queue:) { }`,
/// `OperationQueue.main.addOperation { }`), a new task (`Task { }`, `Task.detached { }`), a
/// `URLSession` task's completion (`dataTask(with:) { }`, `uploadTask`, `downloadTask`: called once
/// the task, not yet resumed, has run), and actions that run when the user acts or time passes
/// (`UIAlertAction(...) { }`, `UIAction { }`, `UIContextualAction(...) { }`,
/// `Timer.scheduledTimer(...) { }`, `addObserver(forName:...)`). They are known by name, as the
/// syntax shows them. `DispatchWorkItem { }` is not: `work.perform()` may run it at once.
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

    /// Read from the called expression's last names only, never its whole text: a closure of a
    /// long chain (`a.then { }.then { }...`) is called on everything before it.
    static func of(_ closure: ClosureExprSyntax) -> ClosureTiming {
        guard let call = call(taking: closure) else { return .atOnceOrUnknown }
        let (base, name) = names(of: call.calledExpression)
        if base == nil, name == "Promise" || name == "Guarantee" || name == "withTaskCancellationHandler"
            || (name.hasPrefix("with") && name.hasSuffix("Continuation")) {
            return .bridge
        }
        if (base == "Vow" || base == "PromiseKit"), name == "Promise" || name == "Guarantee" { return .bridge }
        if iterating.contains(name) { return .repeated }
        if isNewTask(base: base, name: name) { return .later }
        if base == nil, laterInitializers.contains(name) { return .later }
        // `queue.async { }`, `DispatchQueue.global().async(execute: { })`, `session.dataTask(with: url) { }`.
        if call.calledExpression.is(MemberAccessExprSyntax.self), laterMethods.contains(name) { return .later }
        if name == "addObserver", call.arguments.first?.label?.text == "forName" { return .later }
        if base == "Timer", name == "scheduledTimer" { return .later }
        return .atOnceOrUnknown
    }

    /// Whether the closure runs on the main queue (or the main actor), later: handed to
    /// `DispatchQueue.main.async`/`asyncAfter`, `OperationQueue.main.addOperation`,
    /// `RunLoop.main.perform`, `MainActor.run`, or a `Task { @MainActor in }`.
    static func runsOnMain(_ closure: ClosureExprSyntax) -> Bool {
        guard let call = call(taking: closure) else { return false }
        if isMainHop(call) { return true }
        if isNewTask(closure) {
            return closure.signature?.attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "MainActor" } ?? false
        }
        return false
    }

    /// `DispatchQueue.main.async(...)`, `DispatchQueue.main.asyncAfter(...)`,
    /// `OperationQueue.main.addOperation(...)`, `RunLoop.main.perform(...)`, `MainActor.run(...)`:
    /// whatever it is handed (a closure, or a function by name: `execute: completion`) runs on the
    /// main queue.
    static func isMainHop(_ call: FunctionCallExprSyntax) -> Bool {
        let called = call.calledExpression.trimmedDescription.filter { !$0.isWhitespace }
        if mainHops.contains(called) { return true }
        // `group.notify(queue: .main) { }`, `queue.async(group: g, execute:)` aside.
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "notify",
           let queue = call.arguments.first(where: { $0.label?.text == "queue" })?.expression.trimmedDescription.filter({ !$0.isWhitespace }) {
            return queue == ".main" || queue == "DispatchQueue.main"
        }
        return false
    }

    private static let mainHops: Set<String> = [
        "DispatchQueue.main.async", "DispatchQueue.main.asyncAfter", ".main.async", ".main.asyncAfter",
        "OperationQueue.main.addOperation", "RunLoop.main.perform", "MainActor.run",
    ]

    /// `Task { }`, `Task<Void, Never> { }`, `Task.detached { }`.
    static func isNewTask(_ closure: ClosureExprSyntax) -> Bool {
        guard let call = call(taking: closure) else { return false }
        let (base, name) = names(of: call.calledExpression)
        return isNewTask(base: base, name: name)
    }

    private static func isNewTask(base: String?, name: String) -> Bool {
        (base == nil && name == "Task") || (base == "Task" && name == "detached")
    }

    /// `DispatchQueue.main.async` gives (`main`, `async`), `Task` (nil, `Task`), `Promise<Int>`
    /// (nil, `Promise`); the base is the name just before the last, when it is a plain name.
    private static func names(of expression: ExprSyntax) -> (base: String?, name: String) {
        var expression = expression
        if let specialized = expression.as(GenericSpecializationExprSyntax.self) { expression = specialized.expression }
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return (nil, reference.baseName.text) }
        guard let member = expression.as(MemberAccessExprSyntax.self) else { return (nil, "") }
        var base = member.base
        if let specialized = base?.as(GenericSpecializationExprSyntax.self) { base = specialized.expression }
        let baseName = base?.as(DeclReferenceExprSyntax.self)?.baseName.text ?? base?.as(MemberAccessExprSyntax.self)?.declName.baseName.text
        return (baseName ?? "", member.declName.baseName.text)
    }

    private static let laterMethods: Set<String> = ["async", "asyncAfter", "addOperation", "notify",
                                                    "dataTask", "uploadTask", "downloadTask"]
    private static let laterInitializers: Set<String> = ["UIAlertAction", "UIAction", "UIContextualAction"]
    static let iterating: Set<String> = ["forEach", "map", "compactMap", "flatMap", "filter", "reduce", "sorted",
                                         "first", "contains", "allSatisfy", "enumerateObjects", "concurrentPerform"]
}
