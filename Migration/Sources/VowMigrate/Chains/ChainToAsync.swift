import SwiftParser
import SwiftSyntax

/// `--to async` at call sites: an existing promise chain statement
/// (`firstly { a() }.then { x in b(x) }.map { ... }.done { ... }.catch { error in ... }`) becomes
/// straight-line `try await` code in `Task { @MainActor in do { } catch { } }`. The first call is
/// still made where the statement stood (`let tokenPromise = api.login(user)`), as `firstly` made it.
///
/// The chain's handlers name no queue (or the main one), so they ran on `conf.Q`'s default, the
/// main queue: the task runs on the main actor. A tree that assigns `conf.Q` or `conf.D` anywhere
/// (``DefaultQueueAssignment``) changes that default, so there only handlers naming the main
/// queue are converted. Its `catch` skipped cancellation errors (the
/// default policy), so the `catch` block returns early for them. Calls with an async alternative
/// the index knows are awaited directly; anything else through `.value`. The steps after the first
/// run when the task does (reported).
///
/// A method this stage does not know (`ensureThen`, a link the app defines on `Thenable`) ends
/// the links it reads: everything up to it stays promise code, the first promise made at once.
///
/// Each link keeps what Vow does with it:
/// - `compactMap`: `guard let value = ... else { throw PMKError.compactMap(input, T.self) }`, the
///   error Vow throws (`T` from the handler's return type, an `as? T` or a `T(...)` initializer);
/// - `recover`: everything before it goes into `do { } catch { }` (inside an immediately called
///   closure when a later link reads the value); under the default policy the `catch` rethrows
///   cancellations, which `recover` passes on untouched; `-> Guarantee<T>` and `.value(x)` (the
///   guarantee form) see every error;
/// - `ensure` (and `tap { _ in }`): a `defer` at the top of the code before it, so it runs once
///   that settles either way and before any later handler; `finally`: a `defer` at the top of the
///   task, after the `catch` block;
/// - no `catch` (a statement, or `_ = ...`, ending in `done` or `ensure`): the task's `catch`
///   makes the report Vow made of the rejection nobody observed
///   (`conf.unhandledRejectionHandler`), skipping cancellations as Vow did;
/// - `asVoid`: the value is dropped; a handler taking a tuple (`when(fulfilled: a, b)`) destructures
///   it (`let (a, b) = try await when(fulfilled: a, b).value`: the combinator is awaited as it is,
///   so its first rejection in time still wins; `async let` would await in order instead).
///
/// A chain with handlers `on: nil` (they ran on the thread settling the promise, the callee's
/// queue) goes into a plain `Task { }`, whose code runs on the task's executor, as the call-site
/// writer does with callbacks; its `done`, `get` and `catch` on the main queue hop there with
/// `await MainActor.run { }`.
///
/// A `then`, `map`, `get` or `done` `on:` another queue (`on: .global()`) keeps running its code
/// there: `try await DispatchQueue.global().async(.promise) { ... }.value`, the next step awaiting it.
///
/// Refused, with the reason: other links on another queue, a queue named by a bare name inside a
/// task or the bridge (`self.` or not), other links on the main
/// queue in a chain with handlers `on: nil`, `flags:`, `tap` reading its `Result`,
/// handlers that leave early (`guard ... else { throw e }` is kept; the last `done` and the
/// `catch` may, since their code ends the task) or hold
/// a `defer`, `$1`, capture lists other than `[weak self]` on every handler that uses `self`,
/// handlers declaring a name twice in the one scope or reading one an earlier handler's value
/// hides, and `recover` handlers whose form syntax cannot tell.
struct ChainToAsync {
    let bytes: [UInt8]
    let catalog: CalleeCatalog

    enum Kind: String {
        case then, map, compactMap, done, get, tap, asVoid, recover, ensure
        case `catch`, finally, cauterize
        // The sequence helpers: their closure stays a closure, given to the `Sequence` method
        // Vow calls with it (``sequenceMethod``).
        case mapValues, flatMapValues, compactMapValues, filterValues, sortedValues, thenMap, thenFlatMap

        /// `map` of `mapValues`: what Vow does with the value and the closure.
        var sequenceMethod: String? {
            switch self {
            case .mapValues, .thenMap, .thenFlatMap: "map"
            case .flatMapValues: "flatMap"
            case .compactMapValues: "compactMap"
            case .filterValues: "filter"
            case .sortedValues: "sorted"
            default: nil
            }
        }

        /// A sequence helper whose closure transforms or tests each element (a key path can).
        var takesTransform: Bool { sequenceMethod != nil && self != .sortedValues }
    }

    private struct Link {
        var kind: Kind
        var call: FunctionCallExprSyntax
        var closure: ClosureExprSyntax?
        var parameters: [String]
        var statements: [CodeBlockItemSyntax]
        /// `policy: .allErrors`: cancellation errors reach the handler too.
        var allErrors = false
        /// `weak self` or `unowned self` in the handler's capture list (``captures(_:)``).
        var selfCapture: String?
        /// `[self]` in the handler's capture list: its code may use `self` implicitly.
        var strongSelf = false
        /// A key path given as the handler (`map(\.name)`, `mapValues(\.id)`): no closure.
        var keyPath: KeyPathExprSyntax?
        /// `on: nil`: the handler ran on the thread that settled the promise.
        var onSettlingThread = false
        /// The `on: nil` argument, for refusals.
        var settlingArgument: LabeledExprSyntax?
        /// Comments written before the link.
        var comments: [String] = []
        /// On the main queue in a chain otherwise `on: nil`: its code hops to the main actor.
        var hopsToMain = false
        /// `.cauterize()`: a `catch` on the default queue that hands the error to Vow's log.
        var cauterizes = false
        /// No `catch` at all (the chain ends in `done` or `ensure`): the rejection of its last
        /// promise went to Vow's unhandled-rejection report when nothing else held it.
        var reportsUnhandled = false
        /// A `then` whose handler answers with a chain of its own: the first promise of that
        /// chain, whose links follow this one in the links read (``spliced(_:)``).
        var resultOverride: ExprSyntax?
        /// `on: .global()`: the queue its code runs on, other than the main queue.
        var queue: ExprSyntax?
        /// `on: worker` of a task's chain: the name of the queue the task's capture list takes
        /// where the chain read it (``ChainToAsync/captureQueues(_:_:_:handlers:)``).
        var hoistedQueue: String?
        /// A link of such a chain: it reads the names of the handler it stood in.
        var inheritsScope = false
        /// A `then` whose handler answers with a guarantee, as its return type (or the one of the
        /// handler whose chain it is part of) says: it is awaited without `try`.
        var answersGuarantee = false

        /// Where a refusal about the handler points.
        var node: Syntax { closure.map(Syntax.init) ?? Syntax(call) }

        /// The handler says it answers with a guarantee (`{ x -> Guarantee<T> in ... }`).
        var declaresGuarantee: Bool {
            closure?.signature?.returnClause?.type.trimmedDescription.hasPrefix("Guarantee") == true
        }

        /// Whether the handler reads the value it is given.
        var readsValue: Bool { keyPath != nil || parameters.contains { $0 != "_" && ChainToAsync.mentions(statements, $0) } }
    }

    /// Where the current value of the chain is in the code written so far.
    private enum Value {
        /// `Void`, or dropped (`done`, `asVoid`).
        case none
        /// Held by a name declared in the straight-line code.
        case named(String)
        /// An expression not yet evaluated (`try await api.profile(token).value`).
        case pending(CodeLines)
    }

    /// Chain methods with no closure of their own that are not converted.

    /// A link's handler: its trailing closure, or a closure given as its last argument without a
    /// label (`.map(on: queue, { value in ... })`, as some codebases write every link).
    static func handlerClosure(of call: FunctionCallExprSyntax) -> ClosureExprSyntax? {
        if let trailing = call.trailingClosure { return trailing }
        guard let last = call.arguments.last, last.label == nil else { return nil }
        return last.expression.as(ClosureExprSyntax.self)
    }

    /// A link's handler given as a function by name (`.catch(handleError)`, `.done(self.show)`,
    /// `.finally(finish)`): its last argument, unlabelled, a name or a member, with no closure.
    static func handlerReference(of call: FunctionCallExprSyntax) -> ExprSyntax? {
        guard call.trailingClosure == nil, let last = call.arguments.last, last.label == nil else { return nil }
        let expression = last.expression
        if expression.is(DeclReferenceExprSyntax.self) { return expression }
        if let member = expression.as(MemberAccessExprSyntax.self), member.base != nil { return expression }
        return nil
    }

    /// A link's handler, as a closure or as a function by name.
    private static func hasHandler(_ call: FunctionCallExprSyntax) -> Bool {
        handlerClosure(of: call) != nil || handlerReference(of: call) != nil
    }

    /// Whether the statement is a chain this stage should look at (ends in `.catch { }`, in
    /// `.cauterize()`, or in either then `.finally { }`; or in `.done { }` or `.ensure { }`
    /// without a `catch`, after another link or on a promise `knownPromise` says a call makes).
    static func isChain(_ call: FunctionCallExprSyntax, knownPromise: (FunctionCallExprSyntax) -> Bool = { _ in false }) -> Bool {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self) else { return false }
        switch member.declName.baseName.text {
        case "catch": return hasHandler(call)
        case "finally": return hasHandler(call) && (member.base?.as(FunctionCallExprSyntax.self).map { isChain($0) } ?? false)
        // `x.done { }` could be any type's method: only after a chain link (`.then`, `.map`...),
        // on `firstly`/`when`/`race`/`after`, or on a call the index knows returns a promise.
        case "done", "ensure":
            guard hasHandler(call), call.additionalTrailingClosures.isEmpty,
                  let base = member.base?.as(FunctionCallExprSyntax.self) else { return false }
            if let link = base.calledExpression.as(MemberAccessExprSyntax.self), link.base != nil,
               Kind(rawValue: link.declName.baseName.text) != nil {
                return true
            }
            let called = base.calledExpression.trimmedDescription
            return PromiseEvidence.promiseFunctions.contains(called) || knownPromise(base)
        // `.cauterize()` after at least one link: `p.done { }.cauterize()`, not a bare `p.cauterize()`.
        case "cauterize":
            guard call.arguments.isEmpty, call.trailingClosure == nil,
                  let base = member.base?.as(FunctionCallExprSyntax.self) else { return false }
            return base.calledExpression.as(MemberAccessExprSyntax.self).map { Kind(rawValue: $0.declName.baseName.text) != nil } ?? false
        default: return false
        }
    }

    /// ``isChain(_:knownPromise:)`` with the calls the index knows return a promise.
    func isConvertibleChain(_ call: FunctionCallExprSyntax) -> Bool {
        Self.isChain(call) { base in
            // A call of a function `--replace` made async, wrapped to be a promise.
            if ReplacedPromiseCalls.unwrapped(ExprSyntax(base)) != nil { return true }
            guard let name = PyramidReader.baseName(base) else { return false }
            return catalog.promiseFunctionCall(named: name, labels: base.arguments.map { $0.label?.text }) != nil
        }
    }

    // MARK: Reading

    private func read(_ call: FunctionCallExprSyntax) throws(Refusal) -> (root: ExprSyntax, links: [Link]) {
        var links: [Link] = []
        var current = ExprSyntax(call)
        // From the end back to the root; the first call that is not a chain method is the root.
        while let link = current.as(FunctionCallExprSyntax.self), let member = link.calledExpression.as(MemberAccessExprSyntax.self),
              let base = member.base {
            let name = member.declName.baseName.text
            // The statement's last link given its handler by name (`.catch(report)`,
            // `.finally(finish)`): not a call of the tree's, which `isTreeCall` would take it for.
            if link.id == call.id, [.catch, .finally, .done, .ensure].contains(Kind(rawValue: name)),
               let reference = Self.handlerReference(of: link) {
                throw Refusal("a `\(name)` given a function by name (`\(reference.trimmedDescription)`) instead of a closure; "
                              + "write a closure calling it to convert the chain", at: reference)
            }
            // Any other method (`ensureThen`, a link the app defines on `Thenable`, the call
            // making the first promise) ends the links read: what is left of it is the first
            // promise, made at once where the statement stood, as it was; only the links after it
            // move into straight-line code.
            guard let kind = Kind(rawValue: name), !Self.isTreeCall(link, catalog: catalog) else { break }
            var read = try readLink(kind, link)
            read.comments = member.period.leadingTrivia.compactMap { piece in
                switch piece {
                case .lineComment(let text), .blockComment(let text), .docLineComment(let text), .docBlockComment(let text): return text
                default: return nil
                }
            }
            links.insert(read, at: 0)
            current = base
        }
        return (current, spliced(links))
    }

    /// `client.get("/api/version")`: a call that shares a link's name (`get`) but passes
    /// arguments and no closure or key path to be a link's body (every link taking arguments takes
    /// its handler so) is a function's, the first promise, not a link: the tree's own function's,
    /// or one no file of the run declares. Read so by syntax alone, a body `--replace` weighs
    /// (`return api.get("/scenes")`) is decided the same before and after the call is wrapped.
    private static func isTreeCall(_ call: FunctionCallExprSyntax, catalog: CalleeCatalog) -> Bool {
        call.trailingClosure == nil && call.additionalTrailingClosures.isEmpty && !call.arguments.isEmpty
            && !call.arguments.contains(where: { $0.expression.is(ClosureExprSyntax.self) || $0.expression.is(KeyPathExprSyntax.self) })
            && PyramidReader.baseName(call) != nil
    }

    /// The tree's completion-handler functions named `base` whose promise alternative a call
    /// passing exactly `labels` (no handler) reaches.
    private static func promiseAlternativeCallees(named base: String, labels: [String?], catalog: CalleeCatalog) -> [CalleeSummary] {
        catalog.callees(named: base).filter { callee in
            var alternative = callee.labels
            alternative.remove(at: callee.handlerIndex)
            return alternative == labels && callee.hasPromiseAlternative
        }
    }

    /// `a.then { x in b(x).map { f($0) } }` reads as `a.then { x in b(x) }.map { f($0) }`: the
    /// chain a `then` handler answers with, when its links only carry the value on (`then`, `map`,
    /// `compactMap`, `get`, `asVoid`: no `recover`, `ensure` or `catch`, whose reach would widen to
    /// the links before), follows in the same straight-line code, as Vow runs it: each handler in
    /// turn on the main queue.
    private func spliced(_ links: [Link]) -> [Link] {
        let carrying: Set<Kind> = [.then, .map, .compactMap, .get, .asVoid]
        var result: [Link] = []
        for link in links {
            result.append(link)
            // (A handler answering in several places answers with more than that chain.)
            // (A handler on another queue runs whole there, its answer included: nothing to splice.)
            guard link.kind == .then, link.resultOverride == nil, link.selfCapture == nil, !link.onSettlingThread, link.queue == nil,
                  !Self.returnsBeforeEnd(link.statements),
                  let last = link.statements.last, let answer = Self.resultExpression(last),
                  let inner = answer.as(FunctionCallExprSyntax.self), ReplacedPromiseCalls.unwrapped(answer) == nil,
                  let (root, innerLinks) = try? read(inner), !innerLinks.isEmpty,
                  innerLinks.allSatisfy({ carrying.contains($0.kind) && $0.selfCapture == nil && !$0.onSettlingThread && !$0.hopsToMain
                      && $0.queue == nil }),
                  (root.as(FunctionCallExprSyntax.self)).map({ ChainToAsync.constructedType($0) != "firstly" }) ?? true
            else { continue }
            // `-> Guarantee<T>`: the chain is a guarantee's, and so are its first promise and what
            // its `then`s answer with (a `compactMap` would make it a promise's).
            let guarantee = (link.answersGuarantee || link.declaresGuarantee) && !innerLinks.contains { $0.kind == .compactMap }
            result[result.count - 1].resultOverride = root
            result[result.count - 1].answersGuarantee = guarantee
            result += innerLinks.map { inner in
                var inner = inner
                inner.inheritsScope = true
                inner.answersGuarantee = inner.answersGuarantee || (guarantee && inner.kind == .then)
                return inner
            }
        }
        return result
    }

    /// `conf.Q.map`, `conf.Q.return` and their module-qualified spellings.
    static let defaultQueueNames: Set<String> = Set(["", "Vow.", "PromiseKit."].flatMap { module in
        ["map", "return"].map { module + "conf.Q." + $0 }
    })

    private func readLink(_ kind: Kind, _ call: FunctionCallExprSyntax) throws(Refusal) -> Link {
        var allErrors = false
        var settlingArgument: LabeledExprSyntax?
        var queue: ExprSyntax?
        var keyPath: KeyPathExprSyntax?
        let argumentClosure = call.trailingClosure == nil ? Self.handlerClosure(of: call) : nil
        if kind != .asVoid, !call.arguments.contains(where: { $0.label?.text == "on" }),
           let assignment = catalog.defaultQueueAssignment {
            throw Refusal("a chain link on the default queue, which this tree changes (`conf.Q`/`conf.D` assigned at \(assignment)): "
                          + "its handlers need not run on the main queue; write the queue (`on: .main`) where that is where they run", at: call.calledExpression)
        }
        for argument in call.arguments {
            if let argumentClosure, argument.expression.id == ExprSyntax(argumentClosure).id { continue }
            let value = argument.expression.trimmedDescription.filter { $0 != " " }
            let written = argument.detached.with(\.trailingComma, nil).trimmedDescription
            switch argument.label?.text {
            case "on":
                if value == "nil" {
                    settlingArgument = argument
                    continue
                }
                // `on: conf.Q.return`, `on: Vow.conf.Q.map`: the default queues spelled out (an
                // optional `DispatchQueue`), main unless the tree assigns them.
                if Self.defaultQueueNames.contains(value) {
                    if let assignment = catalog.defaultQueueAssignment {
                        throw Refusal("a chain link on `\(written)`, which this tree changes (`conf.Q`/`conf.D` assigned at \(assignment)): "
                                      + "its handlers need not run on the main queue; write the queue (`on: .main`) where that is where they run",
                                      at: argument)
                    }
                    continue
                }
                guard [".main", "DispatchQueue.main", ".mainActor", "MainActorQueue.mainActor"].contains(value) else {
                    // `map(on: .global()) { }`: its code goes to that queue (``writeOnQueue(_:queue:_:)``).
                    if [.then, .map, .get, .done, .catch, .recover, .finally].contains(kind) {
                        queue = argument.expression
                        continue
                    }
                    throw Refusal("a chain link with `\(written)`: only the default queue (main) is converted", at: argument)
                }
            case "policy" where kind == .catch || kind == .recover:
                switch value {
                case ".allErrors", "CatchPolicy.allErrors": allErrors = true
                case ".allErrorsExceptCancellation", "CatchPolicy.allErrorsExceptCancellation": allErrors = false
                default: throw Refusal("a chain link with `\(written)`: only the two named policies are converted", at: argument)
                }
            case nil where (kind == .map || kind.takesTransform) && call.trailingClosure == nil && keyPath == nil
                && argument.expression.is(KeyPathExprSyntax.self):
                // `map(\.name)`: the key path reads the value as `{ $0.name }` would.
                keyPath = argument.expression.as(KeyPathExprSyntax.self)
            default:
                throw Refusal("a chain link with `\(written)`: only `on:` the main queue and `policy:` are converted", at: argument)
            }
        }
        if let keyPath {
            var link = Link(kind: kind, call: call, closure: nil, parameters: [], statements: [],
                            onSettlingThread: settlingArgument != nil, settlingArgument: settlingArgument)
            link.keyPath = keyPath
            link.queue = queue
            return link
        }
        if kind == .cauterize {
            // Vow's `cauterize()` is `catch { error in conf.logHandler(.cauterized(error)) }`.
            guard call.trailingClosure == nil, call.arguments.isEmpty else { throw Refusal("a `cauterize` with arguments", at: call) }
            return Link(kind: .catch, call: call, closure: nil, parameters: ["error"], statements: [], cauterizes: true)
        }
        if kind == .asVoid {
            guard call.trailingClosure == nil, call.arguments.isEmpty else { throw Refusal("an `asVoid` with arguments", at: call) }
            return Link(kind: kind, call: call, closure: nil, parameters: [], statements: [], onSettlingThread: true)
        }
        if kind == .sortedValues {
            guard call.trailingClosure == nil else { throw Refusal("a `sortedValues` with a closure", at: call) }
            return Link(kind: kind, call: call, closure: nil, parameters: [], statements: [],
                        onSettlingThread: settlingArgument != nil, settlingArgument: settlingArgument)
        }
        if kind.sequenceMethod != nil {
            // The closure is kept whole (its parameters, `$0`, its own `return`s); its statements
            // only tell whether it uses `self`, as a handler's do.
            guard let closure = call.trailingClosure ?? argumentClosure, call.additionalTrailingClosures.isEmpty else {
                throw Refusal("a `\(kind.rawValue)` without a trailing closure", at: call)
            }
            // Kept whole, its capture list stays with it: only its constants must hold, later.
            let captures = try Self.captures(of: closure)
            var link = Link(kind: kind, call: call, closure: closure, parameters: [], statements: Array(closure.statements),
                            selfCapture: captures.selfCapture, onSettlingThread: settlingArgument != nil, settlingArgument: settlingArgument)
            link.strongSelf = captures.strongSelf
            return link
        }
        guard let closure = call.trailingClosure ?? argumentClosure, call.additionalTrailingClosures.isEmpty else {
            throw Refusal("a chain link without a trailing closure", at: call)
        }
        let names: [String]
        if closure.signature == nil {
            // `{ $0.name }`: one value named `$0`, renamed where it is bound. `$1` (a tuple) is
            // not read, nor `$0` of the handler and of a closure inside it at once.
            var own: Set<String> = []
            var nested = false
            for token in closure.statements.flatMap({ $0.tokens(viewMode: .sourceAccurate) }) {
                guard case .dollarIdentifier(let name) = token.tokenKind else { continue }
                if Self.isNested(token, in: closure) { nested = true } else { own.insert(name) }
            }
            if own.isEmpty {
                names = []
            } else if own == ["$0"] && !nested {
                names = ["$0"]
            } else {
                throw Refusal("a chain handler using `$1`, or `$0` both in it and in a closure inside it", at: closure)
            }
        } else if let read = PyramidReader.parameterNames(closure) {
            names = read
        } else {
            throw Refusal("a chain handler names its parameters implicitly (`$0`)", at: closure)
        }
        let tupleAllowed: Set<Kind> = [.then, .map, .compactMap, .done, .get]
        if names.count > 1 && !tupleAllowed.contains(kind) {
            throw Refusal("a `\(kind.rawValue)` handler with several parameters", at: closure)
        }
        if (kind == .ensure || kind == .finally) && !names.isEmpty {
            throw Refusal("an `\(kind.rawValue)` handler with parameters", at: closure)
        }
        let captures = try Self.captures(of: closure)
        let selfCapture = captures.selfCapture
        // A bare `return` ending a handler does nothing there; in straight-line code it would end the task.
        var statements = Array(closure.statements)
        if let last = statements.last?.item.as(ReturnStmtSyntax.self), last.expression == nil { statements.removeLast() }
        var link = Link(kind: kind, call: call, closure: closure, parameters: names, statements: statements,
                        allErrors: allErrors, selfCapture: selfCapture, onSettlingThread: settlingArgument != nil, settlingArgument: settlingArgument)
        link.queue = queue
        link.strongSelf = captures.strongSelf
        if captures.strongSelf, queue != nil {
            throw Refusal("a handler capturing `[self]` on another queue: the block written for that queue would need the capture too", at: closure)
        }
        return link
    }

    /// A handler's capture list, as straight-line code keeps it: `weak self` or `unowned self`
    /// (taken by the task or bridge, ``selfCapture(of:)``), `self` (strong, as a task captures it;
    /// a bridge's closure says `[self]` for the implicit `self` the handler may use), and names
    /// of constants (a `let`, a parameter, a `let` property of the type), whose value read later
    /// is the one captured. A `var` or an expression (`[x = y]`) could differ by then: refused.
    private static func captures(of closure: ClosureExprSyntax) throws(Refusal) -> (selfCapture: String?, strongSelf: Bool) {
        guard let capture = closure.signature?.capture else { return (nil, false) }
        var selfCapture: String?
        var strongSelf = false
        for item in capture.items {
            let specifier = item.specifier?.trimmedDescription.filter { $0 != " " }
            let name = item.name.text
            if name == "self", item.initializer == nil, specifier == "weak" || specifier == "unowned", selfCapture == nil {
                selfCapture = "\(specifier!) self"
            } else if name == "self", item.initializer == nil, specifier == nil {
                strongSelf = true
            } else if item.initializer == nil, specifier == nil, ConstantNames.isConstant(name, at: Syntax(capture)) {
                continue
            } else {
                throw Refusal("a chain handler capturing `\(item.detached.with(\.trailingComma, nil).trimmedDescription)`, which may not hold the same value "
                              + "once the code runs later in straight-line code (only `weak self`, `unowned self`, `self` and constants are)", at: item)
            }
        }
        if selfCapture != nil && strongSelf {
            throw Refusal("a chain handler capturing `self` both strongly and weakly", at: capture)
        }
        return (selfCapture, strongSelf)
    }

    /// `firstly { expression }` becomes the expression, made at once as `firstly` made it; a
    /// body with several statements, `try` or `await` stays a `firstly { }`, made at once too.
    private func rootExpression(_ root: ExprSyntax) throws(Refusal) -> ExprSyntax {
        guard let firstly = root.as(FunctionCallExprSyntax.self), firstly.calledExpression.trimmedDescription == "firstly" else { return root }
        guard firstly.arguments.isEmpty, let body = firstly.trailingClosure, firstly.additionalTrailingClosures.isEmpty else {
            throw Refusal("a `firstly` with arguments", at: firstly)
        }
        guard body.signature == nil, body.statements.count == 1, let only = body.statements.first else { return root }
        let value: ExprSyntax
        if let ret = only.item.as(ReturnStmtSyntax.self), let expression = ret.expression {
            value = expression
        } else if let expression = PyramidReader.expression(only) {
            value = expression
        } else {
            return root
        }
        let effects = value.tokens(viewMode: .sourceAccurate).contains { token in
            (token.tokenKind == .keyword(.try) || token.tokenKind == .keyword(.await)) && !StatementText.isInsideClosure(token, below: value)
        }
        return effects ? root : value
    }

    /// The first promise is made on its own (`let firstPromise = ...`), so it must have a type
    /// without the links after it: `Promise(error: e)` takes its type from them
    /// (`.compactMap { Int($0) }` makes it `Promise<String>`), and alone it has none.
    /// `loading?.catch { }`, `self?.api.load().done { }`: through `?.` the chain may not run at
    /// all, and its first promise is optional.
    private func requireNoOptionalChaining(_ root: ExprSyntax) throws(Refusal) {
        final class Finder: SyntaxVisitor {
            var found: OptionalChainingExprSyntax?
            override func visit(_ node: OptionalChainingExprSyntax) -> SyntaxVisitorContinueKind { found = found ?? node; return .skipChildren }
            override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
            // `coupon?.code` as an argument ends there: the call is made either way.
            override func visit(_ node: LabeledExprListSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
        }
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(root)
        if let found = finder.found {
            throw Refusal("the chain starts through `?.` (`\(found.trimmedDescription)`), so it may not run at all; "
                          + "unwrap it first (`guard let` or `if let`)", at: found)
        }
    }

    /// `func reportErrors() -> PMKFinalizer { self.catch { ... } }`: the chain is the value the
    /// function returns (implicitly), not a statement.
    private func requireStatement(_ call: FunctionCallExprSyntax) throws(Refusal) {
        guard let item = call.parent?.as(CodeBlockItemSyntax.self), let list = item.parent?.as(CodeBlockItemListSyntax.self),
              list.count == 1, let body = list.parent?.as(CodeBlockSyntax.self) else { return }
        let returnType: String? = if let function = body.parent?.as(FunctionDeclSyntax.self) {
            function.signature.returnClause?.type.trimmedDescription
        } else if let accessor = body.parent?.as(AccessorDeclSyntax.self) {
            accessor.accessorSpecifier.tokenKind == .keyword(.get) ? "a getter's value" : nil
        } else {
            nil
        }
        if let returnType, !["Void", "()"].contains(returnType) {
            throw Refusal("the chain is the value its function returns, not a statement", at: call)
        }
    }

    /// Chains that wait on one promise take turns, link by link (``PromiseSharing``): a chain
    /// whose first promise may be such a one is left alone.
    private func requireUnsharedRoot(_ root: ExprSyntax) throws(Refusal) {
        var expression = root
        if let reference = expression.as(DeclReferenceExprSyntax.self), Self.isFreshLocal(reference) { return }
        let onSelf = Refusal("its first promise is `self`, the promise this method is called on, which other chains may wait on too: "
                             + "their links take turns on the main queue, which one task's straight-line code would not", at: root)
        if expression.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) { throw onSelf }
        guard expression.is(FunctionCallExprSyntax.self) else {
            throw Refusal("its first promise, `\(root.trimmedDescription)`, is a stored one, which other chains may wait on too: "
                          + "their links take turns on the main queue, which one task's straight-line code would not", at: root)
        }
        var calledOnBase: String?
        while let call = expression.as(FunctionCallExprSyntax.self) {
            if let base = PyramidReader.baseName(call),
               catalog.promiseFunctionCall(named: base, labels: call.arguments.map { $0.label?.text })?.mayReturnStoredPromise == true {
                throw Refusal("its first promise comes from `\(base)`, which may return one it kept (other chains may wait on it too): "
                              + "their links take turns on the main queue, which one task's straight-line code would not", at: call)
            }
            guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base else { break }
            calledOnBase = member.declName.baseName.text
            expression = base
        }
        // `map { $0 }.ensure { }` or `self.map { }` in an extension of a promise type: the chain
        // starts on the promise the method is called on, which its callers may share. A method
        // of `self` making a promise (`self.load(id)`) is not one.
        let startsOnSelf = if let call = expression.as(FunctionCallExprSyntax.self), let name = call.calledExpression.as(DeclReferenceExprSyntax.self) {
            Kind(rawValue: name.baseName.text) != nil
        } else {
            expression.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) && calledOnBase.map { Kind(rawValue: $0) != nil } != false
        }
        if startsOnSelf { throw onSelf }
    }

    /// `promise` declared above in the same code by a call (`let promise = load()`,
    /// `let (promise, seal) = Promise<Int>.pending()`), and read nowhere else after it: no other
    /// chain can wait on it.
    private static func isFreshLocal(_ reference: DeclReferenceExprSyntax) -> Bool {
        let name = reference.baseName.text
        var node = reference.parent
        while let current = node {
            if let list = current.as(CodeBlockItemListSyntax.self) {
                for (position, item) in list.enumerated() {
                    guard item.positionAfterSkippingLeadingTrivia.utf8Offset < reference.positionAfterSkippingLeadingTrivia.utf8Offset,
                          let variable = item.item.as(VariableDeclSyntax.self), variable.bindingSpecifier.tokenKind == .keyword(.let),
                          let binding = variable.bindings.first(where: { binds($0.pattern, name) }) else { continue }
                    // `let chain: Promise<Void>` given its value below (once on each path: a `let`),
                    // by a call wherever it is.
                    let declaredOnly = binding.initializer == nil && binding.typeAnnotation != nil
                    guard declaredOnly || binding.initializer?.value.is(FunctionCallExprSyntax.self) == true else { return false }
                    // Every read of the name after its declaration in this code: this one only.
                    var reads = 0
                    for token in list.dropFirst(position + 1).flatMap({ $0.tokens(viewMode: .sourceAccurate) }) {
                        guard token.text == name, let read = token.parent?.as(DeclReferenceExprSyntax.self),
                              read.parent?.as(MemberAccessExprSyntax.self)?.declName.id != read.id else { continue }
                        if let value = assignedValue(read) {
                            guard declaredOnly, value.is(FunctionCallExprSyntax.self) else { return false }
                        } else {
                            reads += 1
                        }
                    }
                    return reads == 1
                }
            }
            if current.is(FunctionDeclSyntax.self) || current.is(ClosureExprSyntax.self) { return false }
            node = current.parent
        }
        return false
    }

    /// `x` of `name = x`.
    private static func assignedValue(_ name: DeclReferenceExprSyntax) -> ExprSyntax? {
        guard let list = name.parent?.as(ExprListSyntax.self), list.parent?.is(SequenceExprSyntax.self) == true else { return nil }
        let elements = Array(list)
        guard elements.count == 3, elements[0].id == name.id, elements[1].is(AssignmentExprSyntax.self) else { return nil }
        return elements[2]
    }

    /// Whether a `let` pattern binds `name`: `promise`, or `(promise, seal)`.
    private static func binds(_ pattern: PatternSyntax, _ name: String) -> Bool {
        if let identifier = pattern.as(IdentifierPatternSyntax.self) { return identifier.identifier.text == name }
        if let tuple = pattern.as(TuplePatternSyntax.self) { return tuple.elements.contains { binds($0.pattern, name) } }
        return false
    }

    /// A chain statement inside a handler (in a closure there: an alert action, a queue hop)
    /// would stay a chain in the task's code, where a second run would convert it: the run that
    /// converts the outer chain must leave it alone too. The last statement of the last `done`
    /// is not counted (``nestedChain(_:onMainActor:insideCatch:)`` writes it as nested code).
    private func requireNoInnerChain(_ handlers: [Link]) throws(Refusal) {
        final class Finder: SyntaxVisitor {
            let skipped: SyntaxIdentifier?
            let chains: ChainToAsync
            var found: FunctionCallExprSyntax?
            init(skipped: SyntaxIdentifier?, chains: ChainToAsync) {
                self.skipped = skipped
                self.chains = chains
                super.init(viewMode: .sourceAccurate)
            }
            override func visit(_ node: CodeBlockItemSyntax) -> SyntaxVisitorContinueKind {
                // A chain without `catch` that a closure returns is a value, left alone.
                if found == nil, let call = chains.chainStatement(node), call.id != skipped,
                   !(ChainToAsync.isClosureValue(call) && !ChainToAsync.endsInCatch(call)) {
                    found = call
                }
                return .visitChildren
            }
        }
        let lastDone = handlers.last(where: { $0.kind == .done })
        let nested = lastDone?.statements.last.flatMap(chainStatement)
        let nestedInCatch = handlers.last(where: { $0.kind == .catch })?.statements.last.flatMap(chainStatement)
        for link in handlers {
            guard let closure = link.closure else { continue }
            let finder = Finder(skipped: (link.kind == .catch ? nestedInCatch : nested)?.id, chains: self)
            finder.walk(closure)
            if let found = finder.found { throw Self.innerChainRefusal(at: found) }
        }
    }

    private static func innerChainRefusal(at inner: FunctionCallExprSyntax) -> Refusal {
        Refusal("a promise chain inside a handler of another: convert them together by hand, "
                + "or move the inner one into a function of its own", at: inner)
    }

    private func requireOwnType(_ root: ExprSyntax) throws(Refusal) {
        guard let call = root.as(FunctionCallExprSyntax.self),
              let name = call.calledExpression.as(DeclReferenceExprSyntax.self), ["Promise", "Guarantee"].contains(name.baseName.text),
              call.arguments.first?.label?.text == "error" else { return }
        throw Refusal("its first promise, `\(root.trimmedDescription)`, takes its type from the links after it; "
                      + "write its type (`\(name.baseName.text)<Value>(error: ...)`) to convert it", at: root)
    }

    // MARK: Writing

    /// The task's code, whether it runs on the main actor (handlers on the default queue) or not
    /// (every handler `on: nil`), and the name it declares for the root promise, which is none of
    /// `taken` (the names of the enclosing function, and of other chains converted in it).
    func write(_ call: FunctionCallExprSyntax, taken: Set<String> = []) throws(Refusal) -> (lines: CodeLines, onMainActor: Bool, declared: String) {
        var (root, links) = try read(call)
        var finallyLink: Link?
        if links.last?.kind == .finally { finallyLink = links.removeLast() }
        var catchLink = try catchLink(&links, finallyLink: finallyLink, chain: call)
        try requireStatement(call)
        if catchLink.reportsUnhandled && Self.isClosureValue(call) {
            throw Refusal("the chain is the only statement of a closure, which returns its promise (`ensureThen { }`, `then { }` "
                          + "use it); write `_ = ` before it where the closure returns nothing", at: call)
        }
        root = try rootExpression(root)
        try requireNoOptionalChaining(root)
        try requireOwnType(root)
        try requireUnsharedRoot(root)

        // `[weak self]` (or `[unowned self]`) on every handler that uses `self`, or on none: the
        // task captures `self` as the handlers did.
        // The report standing for a missing `catch` runs wherever the last promise went away.
        let handlers = links + (catchLink.reportsUnhandled ? [] : [catchLink]) + (finallyLink.map { [$0] } ?? [])
        try requireNoInnerChain(handlers)
        let selfCapture = try selfCapture(of: handlers)

        // Handlers on the main queue run in a task on the main actor; handlers that all ran on
        // the thread settling the promise (`on: nil`, never the main queue for a callee answering
        // on its own queue) in a task of their own. A chain mixing both is left alone.
        // Where they are mixed, a `done`, `get` or `catch` on the main queue hops there from the
        // task (`await MainActor.run { }`); other links on the main queue cannot, and are refused.
        let queued = handlers.filter { $0.kind != .asVoid }
        let onMainActor = !queued.contains(where: \.onSettlingThread)
        if !onMainActor {
            let hopping: Set<Kind> = [.done, .get, .catch]
            if let main = queued.first(where: { !$0.onSettlingThread && !hopping.contains($0.kind) }) {
                throw Refusal("a chain with handlers `on: nil` and a `\(main.kind.rawValue)` on the main queue: one task cannot run both where they ran", at: main.node)
            }
            for index in links.indices where links[index].kind != .asVoid && !links[index].onSettlingThread && links[index].queue == nil {
                links[index].hopsToMain = true
            }
            catchLink.hopsToMain = !catchLink.onSettlingThread && !catchLink.reportsUnhandled && catchLink.queue == nil
        }

        // Bound even when the root is a name: a `var` would not compile captured by the task.
        let started = Self.rootName(links, taken: taken)
        let queues = try captureQueues(&links, &catchLink, &finallyLink, handlers: handlers)
        let effects = isGuarantee(root) ? "await" : "try await"
        // A chain that is the last thing the chain's `done` does becomes nested code (see
        // ``nestedChain(_:onMainActor:insideCatch:)``), unless something of the outer chain runs after `done`.
        let nesting: Nesting? = finallyLink == nil ? Nesting(onMainActor: onMainActor) : nil
        var writer = try straightLine(links, from: "\(effects) \(started).value", returningValue: false, nesting: nesting)
        writer.discard()

        // (A chain whose every rejection a `recover` ends, in its guarantee form, throws nothing.)
        let throwing = (!isGuarantee(root) || Self.tries(writer.body)) && Self.canThrow(writer.body)
        // A chain kept as it is must end up in a `do` block, which the stage does not read again.
        if writer.keptInnerChain && !throwing && catchLink.reportsUnhandled { throw Self.innerChainRefusal(at: call) }
        let block = try doCatch(writer.body, catchLink, chain: "chain", throwing: throwing, nesting: nesting)
        var lines = CodeLines()
        lines.add(hoistedBinding(started, root, in: call, links: links), 0)
        let captures = (selfCapture.map { [$0] } ?? []) + queues
        switch (onMainActor, captures.isEmpty) {
        case (true, true): lines.add("Task { @MainActor in", 0)
        case (true, false): lines.add("Task { @MainActor [\(captures.joined(separator: ", "))] in", 0)
        case (false, true): lines.add("Task {", 0)
        case (false, false): lines.add("Task { [\(captures.joined(separator: ", "))] in", 0)
        }
        if let finallyLink, finallyLink.queue != nil {
            // `finally(on: queue) { }`: its code goes to that queue once everything else is over,
            // as the last thing the task does (its `return`s stay the block's).
            let text = StatementText(bytes: bytes)
            lines.add("defer {", 1)
            lines.add("\(try queueText(finallyLink, text, inClosure: true)).async " + Self.blockHead(finallyLink, returnType: nil, throwing: false), 2)
            for line in finallyLink.comments + text.lines(finallyLink.statements) { lines.add(line, 3) }
            lines.add("}", 2)
            lines.add("}", 1)
        } else if let finallyLink {
            try check(finallyLink.statements)
            lines.add("defer {", 1)
            for line in finallyLink.comments + StatementText(bytes: bytes).lines(finallyLink.statements) { lines.add(line, 2) }
            lines.add("}", 1)
        }
        lines.add(block, indentedBy: 1)
        lines.add("}", 0)
        return (lines, onMainActor, started)
    }

    /// `map(on: queue)`, `catch(on: worker)`: the chain read the queue named where it was built;
    /// the task takes it in its capture list there (`Task { [queue] in }`, a property or a local
    /// alike), and its code names the constant. Refused where a handler declares that name.
    private func captureQueues(_ links: inout [Link], _ catchLink: inout Link, _ finallyLink: inout Link?,
                               handlers: [Link]) throws(Refusal) -> [String] {
        var names: [String] = []
        func capture(_ link: inout Link) throws(Refusal) {
            try hoistQueue(&link, handlers: handlers, into: &names)
        }
        for index in links.indices { try capture(&links[index]) }
        try capture(&catchLink)
        if var link = finallyLink {
            try capture(&link)
            finallyLink = link
        }
        return names
    }

    /// The chain's `catch` (or `cauterize()`), taken off the end of `links`; for a chain ending
    /// in `done` or `ensure` without one, a `catch` standing for Vow's unhandled-rejection report.
    private func catchLink(_ links: inout [Link], finallyLink: Link?, chain: FunctionCallExprSyntax) throws(Refusal) -> Link {
        var result: Link?
        if let last = links.last, last.kind == .catch {
            result = links.removeLast()
        } else if finallyLink == nil, let last = links.last, last.kind == .done || last.kind == .ensure {
            result = Link(kind: .catch, call: last.call, closure: nil, parameters: ["error"], statements: [],
                          onSettlingThread: true, reportsUnhandled: true)
        }
        guard let result, !links.contains(where: { $0.kind == .catch || $0.kind == .finally }) else {
            throw Refusal("a promise chain with `catch` in the middle", at: chain)
        }
        return result
    }

    /// Whether straight-line code calls anything that throws (`try`): a guarantee's chain whose
    /// code does not needs no `do { } catch { }`.
    private static func tries(_ code: CodeLines) -> Bool {
        code.lines.contains { line in line.text.hasPrefix("try ") || line.text.contains(" try ") || line.text.contains("(try ") }
    }

    /// `do { body } catch { ... }`: the `catch` returns early for a cancellation unless the
    /// chain's `catch` saw those too (its policy), then runs the `catch` handler's code, or
    /// `cauterize()`'s report to Vow's log, or, for a chain without a `catch`, the report Vow made
    /// of the rejection nothing handled. `chain` names the chain in the comment. `throwing`: the
    /// body may throw; a guarantee's chain whose code cannot is the body alone.
    private func doCatch(_ body: CodeLines, _ catchLink: Link, chain: String, throwing: Bool = true, nesting: Nesting? = nil) throws(Refusal) -> CodeLines {
        if catchLink.reportsUnhandled && !throwing { return body }
        let catchText = errorText(catchLink)
        let caught = catchLink.reportsUnhandled ? "error" : Self.caughtName(catchLink)
        try check(catchLink.statements, leaving: true)
        var lines = CodeLines()
        lines.add("do {", 0)
        lines.add(body, indentedBy: 1)
        lines.add(Self.catchClause(caught), 0)
        if catchLink.reportsUnhandled {
            lines.add("// The \(chain) had no `catch`: Vow reported its rejection as unhandled (a cancellation is not).", 1)
            lines.add("if error.isCancelled { return }", 1)
            lines.add("conf.unhandledRejectionHandler(UnhandledRejection(error: error, creationSite: nil))", 1)
            lines.add("}", 0)
            return lines
        }
        if !catchLink.allErrors {
            lines.add("// The \(chain)'s `catch` skipped cancellations (its default policy).", 1)
            lines.add("if \(caught).isCancelled { return }", 1)
        }
        // A chain the `catch` ends with: nested code in the `catch` block, as for the last `done`
        // (nothing of the outer chain runs after its `catch` without a `finally`). Otherwise it
        // stays a chain, as the `catch` ran it, in the `catch` block.
        var handler = CodeLines()
        if catchLink.queue != nil {
            // `catch(on: queue) { }`: its code runs on that queue, and the task waits for it
            // there (nothing of the chain ran after its `catch`).
            handler.add("await \(try queueText(catchLink, catchText, inClosure: true)).async(.promise) " + Self.blockHead(catchLink, returnType: nil, throwing: false), 0)
            for line in catchLink.comments + catchText.lines(catchLink.statements) { handler.add(line, 1) }
            handler.add("}.value", 0)
        } else if let last = catchLink.statements.last, let inner = chainStatement(last), let nesting, catchText.renamed.isEmpty, caught == "error", !catchLink.hopsToMain,
           let nested = try? nestedChain(inner, onMainActor: nesting.onMainActor, insideCatch: true) {
            for line in catchLink.comments + catchText.lines(Array(catchLink.statements.dropLast())) { handler.add(line, 0) }
            handler.add(nested, indentedBy: 0)
        } else {
            let catchLines = catchLink.cauterizes ? ["conf.logHandler(.cauterized(error))"] : catchText.lines(catchLink.statements)
            handler = Self.hopping(catchLink, catchLink.comments + catchLines)
        }
        lines.add(handler, indentedBy: 1)
        lines.add("}", 0)
        return lines
    }

    /// Where a chain nested in the last `done` of a task's chain runs: on the main actor with the
    /// task, or on the task's executor.
    private struct Nesting {
        var onMainActor: Bool
    }

    /// `{ load().done { } }`: the statement is a closure's only one, whose value it returns.
    static func isClosureValue(_ call: FunctionCallExprSyntax) -> Bool {
        guard let item = call.parent?.as(CodeBlockItemSyntax.self), let list = item.parent?.as(CodeBlockItemListSyntax.self) else { return false }
        return list.count == 1 && list.parent?.is(ClosureExprSyntax.self) == true
    }

    /// Whether the chain ends in `catch`, `cauterize()` or `finally`: its value is no promise.
    static func endsInCatch(_ call: FunctionCallExprSyntax) -> Bool {
        let name = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
        return name == "catch" || name == "cauterize" || name == "finally"
    }

    /// `_ = chain`: the chain, whose last promise the statement drops as a chain statement does.
    static func discardedCall(_ item: CodeBlockItemSyntax) -> FunctionCallExprSyntax? {
        guard let sequence = PyramidReader.expression(item)?.as(SequenceExprSyntax.self) else { return nil }
        let elements = Array(sequence.elements)
        guard elements.count == 3, elements[0].is(DiscardAssignmentExprSyntax.self), elements[1].is(AssignmentExprSyntax.self) else { return nil }
        return elements[2].as(FunctionCallExprSyntax.self)
    }

    /// A statement that is a chain this stage converts (``isChain(_:)``).
    private func chainStatement(_ item: CodeBlockItemSyntax) -> FunctionCallExprSyntax? {
        guard let call = PyramidReader.callStatement(item) ?? Self.discardedCall(item), isConvertibleChain(call) else { return nil }
        return call
    }

    /// A chain the outer chain's last `done` ends with, as code nested in the task: its first call
    /// is made where the handler made it, its handlers' code runs as each step settles, on the
    /// same actor, and its `catch` takes only its own errors (`do { } catch { }` of its own). It
    /// was the last thing the outer chain did before settling, and nothing of the outer chain runs
    /// after `done` (no `finally`, no `ensure`), so the order is kept. Refused (and left as a
    /// chain in the task) when its handlers capture `self`, run on another queue than the outer
    /// chain's, or it has a `finally`.
    private func nestedChain(_ call: FunctionCallExprSyntax, onMainActor: Bool, insideCatch: Bool) throws(Refusal) -> CodeLines {
        var (root, links) = try read(call)
        if links.last?.kind == .finally { throw Refusal("a nested promise chain ending in `finally`", at: call) }
        let catchLink = try catchLink(&links, finallyLink: nil, chain: call)
        root = try rootExpression(root)
        try requireNoOptionalChaining(root)
        let handlers = links + (catchLink.reportsUnhandled ? [] : [catchLink])
        if let captured = handlers.first(where: { $0.selfCapture != nil }) {
            throw Refusal("a nested promise chain whose handlers capture `self`", at: captured.node)
        }
        if let other = handlers.first(where: { $0.kind != .asVoid && $0.onSettlingThread == onMainActor }) {
            throw Refusal("a nested promise chain whose handlers run elsewhere than the outer chain's", at: other.node)
        }
        // In the outer `catch` block, the inner `catch` block's own `error` would hide the outer
        // one its handler read.
        if insideCatch, !catchLink.reportsUnhandled, catchLink.parameters.first != "error", Self.mentions(catchLink.statements, "error") {
            throw Refusal("a nested promise chain whose `catch` reads the outer chain's `error`", at: catchLink.node)
        }
        let effects = isGuarantee(root) ? "await" : "try await"
        var writer = try straightLine(links, from: "\(effects) \(StatementText(bytes: bytes).text(of: root)).value", returningValue: false,
                                      firstType: spelledFirstType(root, links: links))
        writer.discard()
        return try doCatch(writer.body, catchLink, chain: "nested chain",
                           throwing: (!isGuarantee(root) || Self.tries(writer.body)) && Self.canThrow(writer.body))
    }

    /// A chain the function returns (`return load(id).then { ... }`), where the function keeps
    /// its promise type: its first call is still made at once, into a constant, and the links
    /// become straight-line code in `Promise { @MainActor in ... }` (`Guarantee` for a function
    /// returning one), Vow's bridge, which settles the promise the function returns with what the
    /// code returns or throws. The handlers ran on the main queue, one at a time as each promise
    /// settled; the bridge's code runs on the main actor, resuming as each promise settles. Read
    /// and refused as a statement's chain is, but for its ending: nothing handles its rejection
    /// here, the function's callers do.
    func bridgedReturn(_ call: FunctionCallExprSyntax, guarantee: Bool, valueType: String? = nil,
                       taken: Set<String>) throws(Refusal) -> (lines: CodeLines, declared: String)? {
        var (root, links) = try read(call)
        guard let firstLink = links.first else { return nil }
        // `items.map { }` in a function returning a promise is an array's, ending in `Promise(...)`
        // or not: the chain's first link must be one only a promise has, or its root a promise.
        let ambiguous: Set<Kind> = [.map, .compactMap, .filterValues, .mapValues, .compactMapValues, .flatMapValues]
        if ambiguous.contains(firstLink.kind) && !isKnownPromise(root) { return nil }
        if let link = links.first(where: { $0.kind == .catch || $0.kind == .finally }) {
            throw Refusal("a returned chain with a `\(link.kind.rawValue)`", at: link.call.calledExpression)
        }
        root = try rootExpression(root)
        try requireNoOptionalChaining(root)
        try requireOwnType(root)
        try requireUnsharedRoot(root)
        try requireNoInnerChain(links)
        if let link = links.first(where: { $0.kind != .asVoid && $0.onSettlingThread }) {
            let reason = "a chain link with `on: nil` runs on the thread that settles the promise, which the bridge's code on the main actor would not keep"
            if let argument = link.settlingArgument { throw Refusal(reason, at: argument) }
            throw Refusal(reason, at: link.node)
        }
        let selfCapture = try selfCapture(of: links)
        let queues = try hoistQueues(&links)
        let started = Self.rootName(links, taken: taken)
        var writer = try straightLine(links, from: "\(isGuarantee(root) ? "await" : "try await") \(started).value", returningValue: true,
                                      valueType: valueType)
        if let value = writer.valueExpression {
            writer.body.add(value.prefixed("return "), indentedBy: 0)
        }
        if guarantee && Self.canThrow(writer.body) {
            throw Refusal("a chain a function returning a guarantee returns, whose code can throw", at: call)
        }
        var lines = CodeLines()
        lines.add(hoistedBinding(started, root, in: call, links: links), 0)
        // `@Sendable`: Swift 6.3 cannot check a `@MainActor` closure that awaits, given to the
        // bridge's `sending @isolated(any)` parameter ("pattern that the region-based isolation
        // checker does not understand"); a `@Sendable` one it can.
        lines.add("return \(guarantee ? "Guarantee" : "Promise") { @MainActor @Sendable\(Self.bridgeCapture(selfCapture, links, queues: queues)) in", 0)
        lines.add(writer.body, indentedBy: 1)
        lines.add("}", 0)
        return (lines, started)
    }

    /// A chain used as a value (`let mirror = ...`, what a closure answers, an argument) whose
    /// first promise is a call `--replace` made async, wrapped
    /// (`Promise.immediate { @MainActor @Sendable in try await load(id) }.map { ... }`): the wrapper made
    /// at once, into a constant (`let valuePromise = Promise.immediate { ... }`, `declaration`), and
    /// Vow's bridge of the chain's own type around the chain's straight-line code
    /// (`Promise { @MainActor @Sendable in let value = try await valuePromise.value ... }`). Where no
    /// statement can go before it (`inPlace`: the chain is evaluated after something else of its
    /// statement), it is refused: Swift 6.3 does not compile the wrapper's closure in the bridge's
    /// capture list ("thrown expression type 'any Error' cannot be converted to error type 'Never'").
    ///
    /// The call is still made at once, as the wrapper made it; the links' code runs on the main
    /// actor, where the handlers ran, each once the step before it answered, and never before the
    /// code after the chain (a handler ran a turn of the main queue later, even on a promise already
    /// settled: the bridge's task starts then too). Nil for a chain not starting on such a wrapper,
    /// or ending in `catch`, `finally` or `cauterize()` (a statement's, converted as one).
    func wrappedValue(_ call: FunctionCallExprSyntax, inPlace: Bool, taken: Set<String>) throws(Refusal) -> (declaration: String, lines: CodeLines)? {
        var (root, links) = try read(call)
        guard !links.isEmpty, ReplacedPromiseCalls.unwrapped(root) != nil,
              !links.contains(where: { [.catch, .finally, .cauterize].contains($0.kind) }) else { return nil }
        let guarantee = try answersGuarantee(links, startingOnGuarantee: isGuarantee(root))
        if let link = links.first(where: { $0.kind != .asVoid && $0.onSettlingThread }) {
            let reason = "a chain link with `on: nil` runs on the thread that settles the promise, which the bridge's code on the main actor would not keep"
            if let argument = link.settlingArgument { throw Refusal(reason, at: argument) }
            throw Refusal(reason, at: link.node)
        }
        if inPlace {
            throw Refusal("a chain inside an expression, after other code of its statement: its first call cannot be made "
                          + "into a constant before the statement; move the chain into a constant of its own", at: call)
        }
        try requireNoInnerChain(links)
        // The wrapper holds `self` while the call runs, as it did; the bridge as the handlers did.
        let selfCapture = try selfCapture(of: links)
        let queues = try hoistQueues(&links)
        let started = Self.rootName(links, taken: taken.union(call.identifierNames))
        var writer = try straightLine(links, from: "\(isGuarantee(root) ? "await" : "try await") \(started).value", returningValue: true)
        if let value = writer.valueExpression {
            writer.body.add(value.prefixed("return "), indentedBy: 0)
        }
        if guarantee && Self.canThrow(writer.body) {
            throw Refusal("a chain of a guarantee whose code can throw", at: call)
        }
        let qualified = root.as(FunctionCallExprSyntax.self)?.calledExpression.trimmedDescription.hasPrefix("Vow.") == true
        let type = (qualified ? "Vow." : "") + (guarantee ? "Guarantee" : "Promise")
        let wrapper = StatementText(bytes: bytes).text(of: root)
        var lines = CodeLines()
        lines.add("\(type) { @MainActor @Sendable\(Self.bridgeCapture(selfCapture, links, queues: queues)) in", 0)
        lines.add(writer.body, indentedBy: 1)
        lines.add("}", 0)
        return ("let \(started) = \(wrapper)", lines)
    }

    /// `Promise.immediate { @MainActor @Sendable in try await register() }.cauterize()`, a statement:
    /// the wrapper made at once into a constant, as the statement made it, and a task awaiting it,
    /// which hands the error to Vow's log as `cauterize()` did on the main queue (but
    /// cancellations), a turn later. Nil for any other statement.
    func wrappedCauterized(_ call: FunctionCallExprSyntax, taken: Set<String>) throws(Refusal) -> (declaration: String, lines: CodeLines)? {
        var (root, links) = try read(call)
        guard links.count == 1, links[0].cauterizes, let (_, guarantee) = ReplacedPromiseCalls.unwrapped(root), !guarantee else { return nil }
        let catchLink = try catchLink(&links, finallyLink: nil, chain: call)
        let started = Self.rootName(links, taken: taken.union(call.identifierNames))
        let block = try doCatch(CodeLines(line: "_ = try await \(started).value"), catchLink, chain: "chain")
        var lines = CodeLines()
        lines.add("Task { @MainActor in", 0)
        lines.add(block, indentedBy: 1)
        lines.add("}", 0)
        return ("let \(started) = \(StatementText(bytes: bytes).text(of: root))", lines)
    }

    /// Whether the chain `links` make on a promise (or a guarantee) is a guarantee's, as Vow's
    /// overloads decide: `map`, `get`, `done` and `asVoid` keep what they are called on; a `then`
    /// on a guarantee is one when its handler answers with one; a `recover` is one in its guarantee
    /// form. Refused where syntax cannot tell.
    private func answersGuarantee(_ links: [Link], startingOnGuarantee: Bool) throws(Refusal) -> Bool {
        var guarantee = startingOnGuarantee
        for link in links {
            switch link.kind {
            case .map, .get, .done, .asVoid:
                continue
            case .then:
                guard guarantee else { continue }
                if let declared = link.closure?.signature?.returnClause?.type.trimmedDescription {
                    guarantee = declared.hasPrefix("Guarantee")
                } else if let last = link.statements.last, let answer = Self.resultExpression(last),
                          ReplacedPromiseCalls.unwrapped(answer)?.guarantee ?? Self.namesGuarantee(answer.as(FunctionCallExprSyntax.self)?.calledExpression ?? answer) {
                    guarantee = true
                } else {
                    throw Refusal("a `then` on a guarantee whose handler's answer syntax cannot tell a promise from a guarantee; write its return type", at: link.node)
                }
            case .recover:
                guard let last = link.statements.last else { throw Refusal("an empty `recover` handler", at: link.call) }
                if Self.alwaysThrows(last) { guarantee = false; continue }
                // The `Void` form is the guarantee one where its handler cannot throw.
                if Self.isVoidRecover(link, returnType: link.closure?.signature?.returnClause?.type.trimmedDescription) {
                    guarantee = !link.statements.contains { HandlerUseAnalyzer.canThrow(Syntax($0)) }
                    continue
                }
                guarantee = Self.recoverPicksGuarantee(link, answer: Self.resultExpression(last)?.trimmedDescription ?? "")
            case .compactMap, .tap, .ensure, .mapValues, .flatMapValues, .compactMapValues, .filterValues, .sortedValues, .thenMap, .thenFlatMap:
                if guarantee { throw Refusal("a `\(link.kind.rawValue)` on a guarantee", at: link.node) }
            case .catch, .finally, .cauterize:
                guarantee = false
            }
        }
        return guarantee
    }

    /// The constant holding the chain's first promise, named after the value its first handler
    /// reads (`tokenPromise`), else `firstPromise`; none of `taken`.
    private static func rootName(_ links: [Link], taken: Set<String>) -> String {
        let reading: Set<Kind> = [.then, .map, .compactMap, .get, .done]
        let first = links.first.flatMap { reading.contains($0.kind) ? $0.parameters.first { $0 != "_" && !$0.hasPrefix("$") } : nil } ?? "first"
        var started = first + "Promise"
        var suffix = 2
        while taken.contains(started) { started = "\(first)Promise\(suffix)"; suffix += 1 }
        return started
    }

    /// Whether straight-line code can throw out of itself: a `try` (not `try?` or `try!`) or a
    /// `throw` outside closures and outside the body of a `do` whose `catch` takes every error
    /// (a `recover` that handles every error leaves none).
    static func canThrow(_ code: CodeLines) -> Bool {
        final class ThrowFinder: SyntaxVisitor {
            var found = false
            override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
            override func visit(_ node: TryExprSyntax) -> SyntaxVisitorContinueKind {
                if node.questionOrExclamationMark == nil { found = true }
                return .visitChildren
            }
            override func visit(_ node: ThrowStmtSyntax) -> SyntaxVisitorContinueKind {
                found = true
                return .skipChildren
            }
            override func visit(_ node: DoStmtSyntax) -> SyntaxVisitorContinueKind {
                guard node.catchClauses.contains(where: { $0.catchItems.isEmpty }) else { return .visitChildren }
                for clause in node.catchClauses { walk(clause) }
                return .skipChildren
            }
        }
        let finder = ThrowFinder(viewMode: .sourceAccurate)
        finder.walk(Parser.parse(source: code.render(baseIndent: "", unit: "    ")))
        return finder.found
    }

    /// The capture the task (or bridge) takes: `weak self` (or `unowned self`) when every handler
    /// that uses `self` says so, nil when none does; a chain mixing them is refused.
    private func selfCapture(of handlers: [Link]) throws(Refusal) -> String? {
        let captures = Set(handlers.compactMap(\.selfCapture))
        if captures.count > 1, let unowned = handlers.first(where: { $0.selfCapture == "unowned self" }) {
            throw Refusal("a chain that captures `self` weakly in some handlers and unowned in others", at: unowned.node)
        }
        let selfCapture = captures.first
        if let selfCapture, let strong = handlers.first(where: { $0.selfCapture == nil && ($0.strongSelf || StatementText.mentionsSelf($0.statements)) }) {
            throw Refusal("a chain that captures `self` \(selfCapture == "weak self" ? "weakly" : "unowned") in some handlers and strongly in others",
                          at: strong.node)
        }
        return selfCapture
    }

    /// What a key path reads after its root, spelled on a value: `.name` of `\.name` and of
    /// `\Item.name`, `[0]` of `\.[0]`, `?.count` of `\.?.count`.
    static func keyPathTail(_ keyPath: KeyPathExprSyntax) -> String {
        keyPath.components.map { component in
            // A property is `.name` on a value; a subscript or `?` / `!` follows without the dot.
            component.component.is(KeyPathPropertyComponentSyntax.self) ? "." + component.component.trimmedDescription
                : component.component.trimmedDescription
        }.joined()
    }

    /// The capture list of a bridge's closure (` [weak self]`, or ` [self]` where a handler said
    /// so: its code may use `self` implicitly, which a `Task`'s closure allows and a bridge's does
    /// not without it), or nothing.
    /// The bridge closure's capture list: `self` as the handlers took it, and the queues of
    /// `on: worker` links (``hoistQueues(_:)``), read where the chain was built.
    private static func bridgeCapture(_ selfCapture: String?, _ links: [Link], queues: [String] = []) -> String {
        let own = selfCapture ?? (links.contains(where: \.strongSelf) ? "self" : nil)
        let all = (own.map { [$0] } ?? []) + queues
        return all.isEmpty ? "" : " [\(all.joined(separator: ", "))]"
    }

    /// `map(on: worker)` in a chain that becomes the code of Vow's bridge (an escaping closure):
    /// the bridge takes the queue in its capture list where the chain was built, a property or
    /// a local alike, as a statement's task does (``captureQueues(_:_:_:handlers:)``).
    private func hoistQueues(_ links: inout [Link]) throws(Refusal) -> [String] {
        var names: [String] = []
        let handlers = links
        for index in links.indices { try hoistQueue(&links[index], handlers: handlers, into: &names) }
        return names
    }

    private func hoistQueue(_ link: inout Link, handlers: [Link], into names: inout [String]) throws(Refusal) {
        guard let queue = link.queue, let name = Self.bareName(queue) else { return }
        if let declaring = handlers.first(where: { $0.parameters.contains(name) || Self.declaredNameTokens($0.statements).contains { $0.text == name } }) {
            throw Refusal("a chain link `on: \(name)` after a handler declaring `\(name)`, which straight-line code would read instead", at: declaring.node)
        }
        link.hoistedQueue = name
        if !names.contains(name) { names.append(name) }
    }

    /// `firstly { }`, `when(...)`, `race(...)`, `after(...)`, `Promise(...)`, `Promise.value(...)`,
    /// or a call the index knows returns a promise.
    private func isKnownPromise(_ root: ExprSyntax) -> Bool {
        guard let head = root.as(FunctionCallExprSyntax.self) else { return false }
        let called = head.calledExpression.trimmedDescription
        if ["firstly", "when", "race", "after", "Promise", "Guarantee"].contains(called)
            || called.hasPrefix("Promise.") || called.hasPrefix("Guarantee.") || called.hasPrefix("Promise<") || called.hasPrefix("Guarantee<") {
            return true
        }
        guard let name = PyramidReader.baseName(head) else { return false }
        return catalog.promiseFunctionCall(named: name, labels: head.arguments.map { $0.label?.text }) != nil
    }

    /// The body of a function returning `Promise<T>` (or `Guarantee<T>`) whose body ends in
    /// returning `chain` (`--replace`): its straight-line `try await` code, ending in
    /// `return value`. A promise returned as it is (`api.request(.store(id))`, no link after it)
    /// is awaited and its value returned. `reserved`: names the code before it declares or reads.
    /// `valueType`: `T` of the `Promise<T>` the function returns, where known: the type of a
    /// `compactMap` that only links keeping their value's type follow.
    func functionBody(_ chain: FunctionCallExprSyntax, guarantee: Bool = false, reserved: Set<String> = [],
                      valueType: String? = nil) throws(Refusal) -> CodeLines {
        try functionBody(chain, guarantee: guarantee, reserved: reserved, valueType: valueType, depth: 0)
    }

    /// `depth`: how many `then` handlers this chain is returned from (``writeAnsweringThen(_:_:)``).
    private func functionBody(_ chain: FunctionCallExprSyntax, guarantee: Bool, reserved: Set<String>,
                              valueType: String?, depth: Int) throws(Refusal) -> CodeLines {
        var (root, links) = try read(chain)
        if let link = links.first(where: { $0.kind == .catch || $0.kind == .finally }) {
            throw Refusal("a function returning a promise whose chain has a `\(link.kind.rawValue)`", at: link.call.calledExpression)
        }
        if let link = links.first(where: { $0.selfCapture != nil }), let capture = link.selfCapture {
            throw Refusal("a `[\(capture)]` handler, which straight-line code in a method cannot keep", at: link.node)
        }
        if let argument = links.first(where: { $0.settlingArgument != nil })?.settlingArgument {
            throw Refusal("a chain link with `on: nil` runs on the thread that settles the promise, which a function on the main actor would not keep", at: argument)
        }
        root = try rootExpression(root)
        try requireNoOptionalChaining(root)
        // Links on a promise other chains may wait on too take turns with theirs, as a
        // statement's would (a promise returned as it is only has its value awaited).
        if !links.isEmpty { try requireUnsharedRoot(root) }
        // The first call is awaited where the first value is declared: a name it reads (the
        // property `cart` of `cart.validatedCart()`) must not be the one declared.
        var reserved = reserved
        for token in root.tokens(viewMode: .sourceAccurate) {
            guard case .identifier(let name) = token.tokenKind, let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
            if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id { continue }
            reserved.insert(name)
        }
        var writer = try straightLine(links, from: awaited(root, StatementText(bytes: bytes)), returningValue: true, reserved: reserved,
                                      valueType: valueType, answering: depth < 4 ? (guarantee, depth) : nil,
                                      firstType: spelledFirstType(root, links: links))
        if let value = writer.valueExpression {
            writer.body.add(value.prefixed("return "), indentedBy: 0)
        }
        if guarantee && Self.canThrow(writer.body) {
            throw Refusal("a function returning a guarantee whose chain's code can throw", at: chain)
        }
        return writer.body
    }

    /// A `return` of a function `--replace` makes async, before its last statement (`guard ...
    /// else { return Promise(error: e) }`): `return x` for a promise fulfilled with `x`, `throw e`
    /// for one rejected with `e`, straight-line code for a chain (``functionBody(_:guarantee:reserved:)``),
    /// and any other promise (one kept in a property) awaited. `indent`: the line's, for text
    /// written over several lines.
    func returnStatement(_ expression: ExprSyntax, guarantee: Bool, reserved: Set<String>, valueType: String? = nil,
                         indent: String) throws(Refusal) -> CodeLines {
        try returnStatement(expression, guarantee: guarantee, reserved: reserved, valueType: valueType, indent: indent, depth: 0)
    }

    private func returnStatement(_ expression: ExprSyntax, guarantee: Bool, reserved: Set<String>, valueType: String?,
                                 indent: String, depth: Int) throws(Refusal) -> CodeLines {
        let text = StatementText(bytes: bytes)
        var written: String
        if let value = Self.immediateValue(expression) {
            // `Promise.value(())`: a `Void` function's `return`.
            let isVoid = value.as(TupleExprSyntax.self)?.elements.isEmpty == true
            written = isVoid ? "return" : "return " + text.text(of: value)
        } else if let error = Self.rejection(expression) {
            written = "throw " + text.text(of: error)
        } else if let call = expression.as(FunctionCallExprSyntax.self) {
            return try functionBody(call, guarantee: guarantee, reserved: reserved, valueType: valueType, depth: depth)
        } else {
            written = "return " + (guarantee ? "await " : "try await ") + (Self.isSimple(expression) ? text.text(of: expression) : "(\(text.text(of: expression)))") + ".value"
        }
        var lines = CodeLines()
        for line in StatementText.lines(of: written, startingAt: indent) { lines.add(line, 0) }
        return lines
    }

    /// `e` of `Promise(error: e)` (`Promise<T>(error: e)`, `.init(error: e)`).
    static func rejection(_ expression: ExprSyntax) -> ExprSyntax? {
        guard let call = expression.as(FunctionCallExprSyntax.self), call.trailingClosure == nil, call.arguments.count == 1,
              let argument = call.arguments.first, argument.label?.text == "error" else { return nil }
        // `.init(error: e)` where a promise is expected: only `Promise` has that initializer.
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.base == nil,
           member.declName.baseName.tokenKind == .keyword(.`init`) { return argument.expression }
        return Self.constructedType(call) == "Promise" ? argument.expression : nil
    }

    /// `Promise` of `Promise(...)` or `Promise<T>(...)`: the name the call is made on, when it is
    /// a bare name (a type's initializer or a global function), else nil.
    static func constructedType(_ call: FunctionCallExprSyntax) -> String? {
        (call.calledExpression.as(DeclReferenceExprSyntax.self)
            ?? call.calledExpression.as(GenericSpecializationExprSyntax.self)?.expression.as(DeclReferenceExprSyntax.self))?.baseName.text
    }

    /// The links as straight-line code, starting from the root's value (`start`).
    /// `.mapValues { $0.name }` is `values.map { $0.name }`, the closure as written; `thenMap`
    /// starts every promise at once and waits for them all, as Vow does
    /// (`try await when(fulfilled: values.map { load($0) }).value`).
    private func writeSequenceHelper(_ link: Link, method: String, _ writer: inout Writer) throws(Refusal) {
        guard let values = writer.valueName(declaring: "values") else {
            throw Refusal("a `\(link.kind.rawValue)` on the `Void` value of the step before it", at: link.node)
        }
        var applied = "\(values).\(method)"
        if let keyPath = link.keyPath {
            applied += "(\(keyPath.trimmedDescription))"
        } else if let closure = link.closure {
            applied += " " + StatementText(bytes: bytes).text(of: closure)
            // A transform that throws rejected the result: it throws here. (A closure inside it
            // throws for itself.)
            if closure.statements.tokens(viewMode: .sourceAccurate).contains(where: { token in
                (token.tokenKind == .keyword(.try) || token.tokenKind == .keyword(.throw)) && !StatementText.isInsideClosure(token, below: closure)
            }) {
                applied = "try " + applied
            }
        } else {
            applied += "()"
        }
        let (before, after): (String, String) = switch link.kind {
        case .thenMap: ("try await when(fulfilled: ", ").value")
        case .thenFlatMap: ("try await when(fulfilled: ", ").value.flatMap { $0 }")
        default: ("", "")
        }
        let hop = link.hopsToMain ? ("await MainActor.run { ", " }") : ("", "")
        // A closure written over several lines keeps its lines, indented as they were relative
        // to the line it starts on.
        let indent = link.closure.map { Indentation.lineIndent(in: bytes, at: $0.positionAfterSkippingLeadingTrivia.utf8Offset) } ?? ""
        var code = CodeLines()
        for line in StatementText.lines(of: before + hop.0 + applied + hop.1 + after, startingAt: indent) { code.add(line, 0) }
        writer.state = .pending(code)
    }

    private func straightLine(_ links: [Link], from start: String, returningValue: Bool, nesting: Nesting? = nil,
                              reserved: Set<String> = [], valueType: String? = nil,
                              answering: (guarantee: Bool, depth: Int)? = nil, firstType: String? = nil) throws(Refusal) -> Writer {
        var writer = Writer(bytes: bytes, links: links, valueReturned: returningValue)
        writer.firstType = firstType
        writer.valueType = valueType
        writer.answering = answering
        writer.nesting = nesting
        writer.reserved = reserved
        writer.state = .pending(CodeLines(line: start))
        for index in links.indices {
            try write(links[index], at: index, &writer)
            writer.firstType = nil
        }
        return writer
    }

    /// The straight-line code written so far, and where the chain's value is.
    private struct Writer {
        let bytes: [UInt8]
        let links: [Link]
        /// The value after the last link is returned (a function's body), not dropped.
        let valueReturned: Bool
        var body = CodeLines()
        var state = Value.none
        /// Every name the straight-line scope declares, and the handler parameter each came from.
        var seen: [String: String] = [:]
        /// Set when a chain ending `done`'s code may be written as nested code.
        var nesting: Nesting?
        /// A chain ending a `done` was copied as it is (it could not be nested code).
        var keptInnerChain = false
        /// Names the code around reads, which no declaration may hide.
        var reserved = Set<String>()
        /// The type of the chain's last value, where the function returning it says it.
        var valueType: String?
        /// The type the first link's binding spells (``ChainToAsync/spelledFirstType(_:links:)``).
        var firstType: String?
        /// The names a `then` handler answering with a chain gave that chain's links (its
        /// value's and its locals', as renamed here): ``Link/inheritsScope``.
        var carried: [String: String] = [:]
        /// Set where the chain is a function's answer: whether the function returns a guarantee,
        /// and how many `then` handlers deep the chain is (``writeAnsweringThen(_:_:)``).
        var answering: (guarantee: Bool, depth: Int)?

        /// The type of the value after `links[index]`: the chain's own when every link after it
        /// keeps its value's type (`get`, `tap`, `ensure`, `recover`, ...).
        func typeAfter(_ index: Int) -> String? {
            // `.recover { _ -> Guarantee<T?> in .value(nil) }` right after it: the value it
            // recovers is of that type (home-assistant's `map` leaving early with `nil`).
            if index + 1 < links.count, links[index + 1].kind == .recover,
               let declared = links[index + 1].closure?.signature?.returnClause?.type.as(IdentifierTypeSyntax.self),
               ["Promise", "Guarantee"].contains(declared.name.text), let arguments = declared.genericArgumentClause?.arguments,
               arguments.count == 1, let argument = arguments.first {
                return argument.argument.trimmedDescription
            }
            let keeping: Set<Kind> = [.get, .tap, .recover, .ensure]
            guard let valueType, !valueType.isEmpty, links[(index + 1)...].allSatisfy({ keeping.contains($0.kind) }) else { return nil }
            return valueType
        }

        /// `T` of the function returning `Guarantee<T>` whose chain's last link is `links[index]`
        /// (`T` not `Void`): a `recover` there is the guarantee form.
        func guaranteeValueType(endingAt index: Int) -> String? {
            guard answering?.guarantee == true, index == links.count - 1, let valueType,
                  !valueType.isEmpty, valueType != "Void", valueType != "()" else { return nil }
            return valueType
        }

        /// Parameters bound under another name because the handler declares them again
        /// (`guard let x = x as? T`): their references are renamed up to that offset only.
        var renameLimits: [String: Int] = [:]

        mutating func declare(_ name: String) -> String {
            var candidate = name
            var suffix = 2
            while seen[candidate] != nil || reserved.contains(candidate) { candidate = "\(name)\(suffix)"; suffix += 1 }
            seen[candidate] = name
            return candidate
        }

        /// The name holding the value: its own, or `base` declared for a pending one; nil for `Void`.
        mutating func valueName(declaring base: String) -> String? {
            switch state {
            case .none:
                return nil
            case .named(let name):
                return name
            case .pending(let lines):
                let name = declare(base)
                body.add(lines.prefixed("let \(name) = "), indentedBy: 0)
                state = .named(name)
                return name
            }
        }

        /// Evaluates a pending value without keeping it.
        mutating func discard() {
            if case .pending(let lines) = state { body.add(lines.prefixed("_ = "), indentedBy: 0) }
            state = .none
        }

        /// The value as the expression to `return` from a wrapping closure, nil for none.
        var valueExpression: CodeLines? {
            switch state {
            case .none: return nil
            case .named(let name): return CodeLines(line: name)
            case .pending(let lines): return lines
            }
        }

        /// Whether every link after `index` (before the `catch`) is an `ensure` (or `tap { _ in }`,
        /// `asVoid`): no handler code runs after it in the same scope.
        func onlyEnsuresAfter(_ index: Int) -> Bool {
            links[(index + 1)...].allSatisfy { link in
                link.kind == .ensure || link.kind == .asVoid || (link.kind == .tap && !link.readsValue)
            }
        }

        /// Whether a link after `index` reads the chain's value (through `ensure`s and `recover`s).
        func valueRead(after index: Int) -> Bool {
            for link in links[(index + 1)...] {
                switch link.kind {
                case .ensure, .recover: continue
                case .tap where !link.readsValue: continue
                case .get where !link.readsValue: continue
                case .compactMap, .mapValues, .flatMapValues, .compactMapValues, .filterValues, .sortedValues, .thenMap, .thenFlatMap:
                    return true
                case .then, .map, .done, .get, .tap: return link.readsValue
                case .asVoid, .catch, .finally, .cauterize: return false
                }
            }
            return valueReturned
        }
    }

    /// Binds the chain's value to the handler's parameters; the renames its statements need.
    /// `keep`: the value must stay available afterwards even if the handler ignores it.
    /// `renamingShadowed`: a parameter the handler declares again (`{ json in guard let json =
    /// json as? T ... }`) is bound under another name, read by that name up to the declaration
    /// (``Writer/renameLimits``); the caller's text must apply the limits.
    private func bind(_ link: Link, keep: Bool, renamingShadowed: Bool = false, _ writer: inout Writer) throws(Refusal) -> [String: String] {
        writer.renameLimits = [:]
        let renames = try bindValue(link, keep: keep, renamingShadowed: renamingShadowed && link.resultOverride == nil && !link.inheritsScope, &writer)
        // A link of the chain a `then` handler answered with reads that handler's names too.
        return link.inheritsScope ? renames.merging(writer.carried) { own, _ in own } : renames
    }

    private func bindValue(_ link: Link, keep: Bool, renamingShadowed: Bool, _ writer: inout Writer) throws(Refusal) -> [String: String] {
        var renames: [String: String] = [:]
        // A parameter the handler never reads is bound to nothing (`let n` would warn).
        var link = link
        link.parameters = link.parameters.map { $0 != "_" && Self.mentions(link.statements, $0) ? $0 : "_" }
        let names = link.parameters.filter { $0 != "_" }
        if names.isEmpty {
            if keep, case .pending(let lines) = writer.state {
                let name = writer.declare("value")
                writer.body.add(lines.prefixed("let \(name) = "), indentedBy: 0)
                writer.state = .named(name)
            } else if !keep {
                writer.discard()
            }
            return renames
        }
        if case .none = writer.state {
            throw Refusal("a `\(link.kind.rawValue)` handler reads the `Void` value of the step before it", at: link.node)
        }
        if link.parameters.count == 1, let parameter = names.first {
            let shadowed = renamingShadowed && Self.shadowingEnd(of: parameter, in: link.statements) != nil
            if !shadowed, case .named(let name) = writer.state, writer.seen[name] == parameter {
                renames[parameter] = name
                return renames
            }
            let name = bindingName(of: parameter, in: link, renamingShadowed: renamingShadowed, &writer)
            renames[parameter] = name
            switch writer.state {
            case .named(let value): writer.body.add("let \(name) = \(value)", 0)
            case .pending(let lines): writer.body.add(lines.prefixed("let \(name)\(writer.firstType.map { ": " + $0 } ?? "") = "), indentedBy: 0)
            case .none: break
            }
            writer.state = .named(name)
            return renames
        }
        // A tuple (`when(fulfilled: a, b)`): destructured, as the closure's parameters did.
        var pattern: [String] = []
        for parameter in link.parameters {
            if parameter == "_" { pattern.append("_"); continue }
            let name = bindingName(of: parameter, in: link, renamingShadowed: renamingShadowed, &writer)
            renames[parameter] = name
            pattern.append(name)
        }
        let binding = "let (\(pattern.joined(separator: ", "))) = "
        switch writer.state {
        case .named(let value): writer.body.add(binding + value, 0)
        case .pending(let lines): writer.body.add(lines.prefixed(binding), indentedBy: 0)
        case .none: break
        }
        writer.state = .none
        return renames
    }

    private func write(_ link: Link, at index: Int, _ writer: inout Writer) throws(Refusal) {
        // The last statement of a handler giving a value is that value (awaited where a promise).
        // (A sequence helper's closure stays a synchronous closure, where no async function is picked.)
        let answering: Set<Kind> = [.then, .map, .compactMap, .recover]
        if link.kind.sequenceMethod == nil {
            try checkNoCapturedCall(answering.contains(link.kind) ? Array(link.statements.dropLast()) : link.statements)
        }
        if let method = link.kind.sequenceMethod {
            try writeSequenceHelper(link, method: method, &writer)
            return
        }
        if let keyPath = link.keyPath {
            // `map(\.name)`: the value's `name`, read where the value is (a key path reads, it
            // does nothing else, so neither the queue nor the time it runs at matters).
            guard let input = writer.valueName(declaring: "value") else {
                throw Refusal("a `map` with a key path on the `Void` value of the step before it", at: keyPath)
            }
            writer.state = .pending(CodeLines(line: input + Self.keyPathTail(keyPath)))
            return
        }
        if let queue = link.queue, link.kind != .recover {
            try writeOnQueue(link, queue: queue, &writer)
            return
        }
        if link.kind == .then, writer.answering != nil, index == writer.links.count - 1, Self.returnsBeforeEnd(link.statements) {
            try writeAnsweringThen(link, &writer)
            return
        }
        // The last `done` ends the task's code: leaving it early ends the task, as it ended the handler.
        // The last `map` of the value a function (or the bridge) returns gives that value: a
        // `return x` in it returns `x`, as the map did (a `recover` after it sees no error).
        let givesReturnedValue = link.kind == .map && writer.valueReturned
            && writer.links[(index + 1)...].allSatisfy { $0.kind == .recover }
        // A `recover` whose value is read after it answers from a block of its own (the
        // function's, or an immediately called closure): its early `return`s answer there.
        let recoverAnswers = link.kind == .recover && writer.valueRead(after: index)
        do throws(Refusal) {
            try check(link.statements, leaving: (link.kind == .done && !writer.valueReturned && writer.onlyEnsuresAfter(index))
                      || givesReturnedValue || recoverAnswers)
        } catch {
            // A `map` or `then` in the middle that leaves early with its value (`guard let
            // strongSelf = self else { return [] }`): its code in a closure called at once, whose
            // `return`s give the value as the handler's did.
            guard try writeCalledHandler(link, at: index, &writer) else { throw error }
            return
        }
        // Comments written before the link (`// .allErrors: ...` above `.catch`) stay before its code.
        for comment in link.comments { writer.body.add(comment, 0) }
        switch link.kind {
        case .then, .map, .compactMap:
            let renames = try bind(link, keep: link.kind == .compactMap, renamingShadowed: true, &writer)
            let input: String? = if case .named(let name) = writer.state { name } else { nil }
            try declareLocals(link, renames: renames, &writer)
            // The chain the handler answers with reads its names, as it did inside the handler.
            if link.resultOverride != nil { writer.carried = renames.merging(Self.declaredNameTokens(link.statements).map { ($0.text, $0.text) }) { own, _ in own } }
            var text = StatementText(bytes: bytes)
            text.renamed = renames.filter { $0.key != $0.value }
            text.renamedUntil = writer.renameLimits
            // The last `map` of the value a function returns, ending in an `if`/`switch` whose
            // every branch returns or throws (`if let x = ... { return x } else { throw e }`):
            // its code as it is gives the function's value, or its error.
            if link.kind == .map, givesReturnedValue, index == writer.links.count - 1, link.resultOverride == nil,
               let last = link.statements.last, Self.resultExpression(last) == nil, Self.alwaysThrows(last, returning: true) {
                for line in text.lines(link.statements) { writer.body.add(line, 0) }
                writer.state = .none
                return
            }
            guard let last = link.statements.last, let result = link.resultOverride ?? Self.resultExpression(last) else {
                throw Refusal("a `\(link.kind.rawValue)` handler that does not end with its value", at: link.statements.last.map(Syntax.init) ?? Syntax(link.call))
            }
            for line in text.lines(Array(link.statements.dropLast())) { writer.body.add(line, 0) }
            switch link.kind {
            case .then:
                // `{ x -> Guarantee<T> in ... }`: whatever it answers with cannot fail.
                let answersGuarantee = link.answersGuarantee || (link.resultOverride == nil && link.declaresGuarantee)
                writer.state = .pending(CodeLines(line: awaited(result, text, knownGuarantee: answersGuarantee)))
            case .map:
                var value = text.text(of: result)
                // `{ x -> any Sendable in ... }`: the value keeps the type the handler gave it.
                if let type = link.closure?.signature?.returnClause?.type.trimmedDescription {
                    value = (Self.isSimple(result) ? value : "(\(value))") + " as \(type)"
                }
                writer.state = .pending(CodeLines(line: value))
            default:
                guard let type = compactMapType(link, result) ?? writer.typeAfter(index) else {
                    throw Refusal("a `compactMap` whose result type syntax does not show (the `PMKError.compactMap` it throws names it): write `-> T?` on its handler", at: link.node)
                }
                let next = index + 1 < writer.links.count ? writer.links[index + 1] : nil
                let reading: Set<Kind> = [.then, .map, .compactMap, .get, .done]
                let wanted = next.flatMap { reading.contains($0.kind) && $0.parameters.count == 1 && $0.readsValue ? Self.bindable($0.parameters[0]) : nil } ?? "value"
                // A value nothing after it reads is only checked (`let value2` would be unused).
                let read = writer.valueRead(after: index)
                let name = read ? writer.declare(wanted) : "_"
                // `scenes.first { $0.name == name }`: a trailing closure in a condition needs parentheses.
                var unwrapped = text.text(of: result)
                if result.tokens(viewMode: .sourceAccurate).contains(where: { $0.tokenKind == .leftBrace }) { unwrapped = "(\(unwrapped))" }
                writer.body.add("guard let \(name) = \(unwrapped) else { throw PMKError.compactMap(\(input ?? "()"), \(type).self) }", 0)
                writer.state = read ? .named(name) : .none
            }
        case .get, .done:
            let renames = try bind(link, keep: link.kind == .get, renamingShadowed: true, &writer)
            try declareLocals(link, renames: renames, &writer)
            var text = StatementText(bytes: bytes)
            text.renamed = renames.filter { $0.key != $0.value }
            text.renamedUntil = writer.renameLimits
            // The last `done` of a task's chain ending in a chain of its own: nested code, where
            // nothing renamed in the handler could reach the inner chain's text unrenamed.
            if link.kind == .done, index == writer.links.count - 1, let nesting = writer.nesting, text.renamed.isEmpty, !link.hopsToMain,
               let last = link.statements.last, let inner = chainStatement(last),
               let nested = try? nestedChain(inner, onMainActor: nesting.onMainActor, insideCatch: false) {
                for line in text.lines(Array(link.statements.dropLast())) { writer.body.add(line, 0) }
                writer.body.add(nested, indentedBy: 0)
            } else {
                // Otherwise a chain ending it stays a chain, in the task's `do` block (where the
                // stage does not look again, so a second run leaves it too).
                if link.kind == .done, link.statements.last.flatMap(chainStatement) != nil { writer.keptInnerChain = true }
                writer.body.add(Self.hopping(link, text.lines(link.statements)), indentedBy: 0)
            }
            if link.kind == .done { writer.state = .none }
        case .asVoid:
            writer.discard()
        case .tap, .ensure:
            if link.kind == .tap && link.readsValue {
                try writeResultTap(link, at: index, &writer)
                return
            }
            var deferred = CodeLines()
            deferred.add("defer {", 0)
            for line in StatementText(bytes: bytes).lines(link.statements) { deferred.add(line, 1) }
            deferred.add("}", 0)
            // It runs once everything before it has settled, either way, and before what follows.
            if writer.onlyEnsuresAfter(index) {
                // Nothing else runs after it in this scope: a `defer` at its top (later ones go
                // above it, so they run after it; a returned value is computed before them).
                if !writer.valueReturned { writer.discard() }
                var body = deferred
                body.add(writer.body, indentedBy: 0)
                writer.body = body
            } else if writer.valueRead(after: index) {
                let value = writer.valueExpression
                var wrapped = CodeLines()
                wrapped.add("try await { () async throws in", 0)
                wrapped.add(deferred, indentedBy: 1)
                wrapped.add(writer.body, indentedBy: 1)
                if let value { wrapped.add(value.prefixed("return "), indentedBy: 1) }
                wrapped.add("}()", 0)
                writer.body = CodeLines()
                writer.seen = [:]   // what it declared is out of scope now
                writer.state = .pending(wrapped)
            } else {
                writer.discard()
                var block = CodeLines()
                block.add("do {", 0)
                block.add(deferred, indentedBy: 1)
                block.add(writer.body, indentedBy: 1)
                block.add("}", 0)
                writer.body = block
                writer.seen = [:]
            }
        case .recover:
            try writeRecover(link, at: index, &writer)
        case .catch, .finally, .cauterize:
            throw Refusal("a promise chain with `catch` in the middle", at: link.call)
        case .mapValues, .flatMapValues, .compactMapValues, .filterValues, .sortedValues, .thenMap, .thenFlatMap:
            break  // Written above.
        }
    }

    /// Whether a `recover` is in its guarantee form, as Swift's overload ranking picks it: its
    /// handler's return type says `Guarantee`; without one, it answers a `Guarantee` or `.value(x)`,
    /// or `otherwise` (what the code around it requires) holds.
    private static func recoverPicksGuarantee(_ link: Link, answer: String, otherwise: Bool = false) -> Bool {
        if let declared = link.closure?.signature?.returnClause?.type.trimmedDescription { return declared.hasPrefix("Guarantee") }
        return answer.hasPrefix("Guarantee") || answer.hasPrefix(".value(") || otherwise
    }

    private func writeRecover(_ link: Link, at index: Int, _ writer: inout Writer) throws(Refusal) {
        if link.queue != nil {
            try writeRecoverBlocks(at: index, catchBody: recoverOnQueue(link, at: index, writer), recovered: nil, caught: Self.caughtName(link), &writer)
            return
        }
        var text = errorText(link)
        let returnType = link.closure?.signature?.returnClause?.type.trimmedDescription
        guard let last = link.statements.last else { throw Refusal("an empty `recover` handler", at: link.call) }
        if Self.isVoidRecover(link, returnType: returnType) {
            try writeVoidRecover(link, at: index, text: text, &writer)
            return
        }
        // What the handler settles the chain with, and which errors it sees.
        var recovered: String?
        var seesCancellation = link.allErrors
        if Self.alwaysThrows(last) {
            recovered = nil
        } else if let result = Self.resultExpression(last) {
            let written = result.trimmedDescription
            let explicit = returnType != nil || last.item.is(ReturnStmtSyntax.self) || written.hasPrefix("Promise") || written.hasPrefix("Guarantee")
            // Without a return type, `.value(x)` picks the guarantee form (Swift's overload ranking).
            // The last link of the chain a function returning `Guarantee<T>` answers with is that
            // form too (`T` not `Void`, whose own form takes a handler returning nothing).
            let answersGuarantee = writer.guaranteeValueType(endingAt: index) != nil
            // A call of the tree's own promise (or guarantee) function answers with what it returns.
            let treeCall = result.as(FunctionCallExprSyntax.self).flatMap { call in
                PyramidReader.baseName(call).flatMap { catalog.promiseFunctionCall(named: $0, labels: call.arguments.map { $0.label?.text }) }
            }.flatMap { $0.returnsOneKind ? $0 : nil }
            let guarantee = Self.recoverPicksGuarantee(link, answer: written, otherwise: answersGuarantee)
                || (returnType == nil && treeCall?.returnsGuarantee == true)
            guard explicit || guarantee || treeCall != nil else {
                throw Refusal("a `recover` handler ending in a call: syntax cannot tell a promise (cancellations passed on) from the `Void` form (cancellations seen); write its return type", at: link.node)
            }
            if guarantee {
                // The guarantee form sees every error, cancellations included.
                seesCancellation = true
                recovered = awaited(result, text, knownGuarantee: true)
            } else {
                recovered = awaited(result, text)
            }
        } else if writer.valueRead(after: index), Self.alwaysThrows(last, returning: true),
                  returnType != nil || link.statements.contains(where: { Self.containsThrow(Syntax($0)) }) {
            // `if case .noAttachment = error { throw error } else { return .value(x) }`: every path
            // leaves, each `return` answering as the handler did (below). A declared return type, or
            // a `throw` (which the guarantee form cannot take), says which form Swift picked.
            recovered = nil
            if returnType?.hasPrefix("Guarantee") == true { seesCancellation = true }
        } else {
            throw Refusal("a `recover` handler that does not end with its value or a `throw`", at: last)
        }
        let handled = recovered == nil ? link.statements : Array(link.statements.dropLast())
        // `if cached { return .value(x) }` before the end: the block answers `x`, as the handler did.
        if writer.valueRead(after: index) {
            for statement in handled {
                for answer in Self.returns(in: statement) {
                    guard let expression = answer.expression else {
                        throw Refusal("a `recover` handler that does not end with its value or a `throw`", at: answer)
                    }
                    // `.value(x)` is `x` itself (``awaited(_:_:knownGuarantee:)``).
                    let written = Self.rejection(expression).map { "throw " + text.text(of: $0) }
                        ?? "return " + awaited(expression, text, knownGuarantee: returnType?.hasPrefix("Guarantee") == true)
                    let range = answer.positionAfterSkippingLeadingTrivia.utf8Offset..<answer.endPositionBeforeTrailingTrivia.utf8Offset
                    text.replacedStatements.append((range, written))
                }
            }
        }
        let caught = Self.caughtName(link)
        var catchBody = CodeLines()
        if !seesCancellation {
            catchBody.add("// `recover` passed cancellations on (its default policy).", 0)
            catchBody.add("if \(caught).isCancelled { throw \(caught) }", 0)
        }
        for line in text.lines(handled) { catchBody.add(line, 0) }
        try writeRecoverBlocks(at: index, catchBody: catchBody, recovered: recovered, caught: caught, &writer)
    }

    /// A handler statement keeping the promise of a call of the tree's promise-returning function
    /// without saying its type (`let confirmation = awaitConfirmation(for: serial)`, `_ = save()`,
    /// or the call alone), where that function has an async alternative (or gains one in this
    /// run): moved into async code, the call would reach the alternative, which Swift prefers there.
    private func checkNoCapturedCall(_ statements: [CodeBlockItemSyntax]) throws(Refusal) {
        for statement in statements {
            var expression: ExprSyntax?
            if let variable = statement.item.as(VariableDeclSyntax.self), variable.bindings.count == 1,
               let binding = variable.bindings.first, binding.typeAnnotation == nil {
                expression = binding.initializer?.value
            } else if let written = PyramidReader.expression(statement) {
                expression = written
                if let sequence = written.as(SequenceExprSyntax.self), sequence.elements.count == 3,
                   sequence.elements.first?.is(DiscardAssignmentExprSyntax.self) == true,
                   sequence.elements.dropFirst().first?.is(AssignmentExprSyntax.self) == true {
                    expression = sequence.elements.last
                }
            }
            guard let call = expression?.as(FunctionCallExprSyntax.self), call.trailingClosure == nil,
                  let base = PyramidReader.baseName(call),
                  let reached = catalog.promiseFunctionCall(named: base, labels: call.arguments.map { $0.label?.text }),
                  reached.awaitedDirectly, !reached.replaced else { continue }
            throw Refusal("a chain handler keeps the promise of `\(base)` without naming its type: in async code Swift would pick "
                          + "its async alternative there; write the type (`let x: Promise = ...`)", at: call)
        }
    }

    /// Whether a `recover` is the form a chain of `Void` has, whose handler answers nothing: its
    /// return type says `Void` (or `()`), or its code ends in what gives no value (`()`, an
    /// assignment, a declaration, an `if` or `switch` after other statements, or one without
    /// `else`).
    private static func isVoidRecover(_ link: Link, returnType: String?) -> Bool {
        if let returnType { return returnType == "Void" || returnType == "()" }
        guard let last = link.statements.last else { return false }
        if last.item.is(DeclSyntax.self) { return true }
        guard let expression = PyramidReader.expression(last) else { return false }
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.isEmpty { return true }
        if let sequence = expression.as(SequenceExprSyntax.self), sequence.elements.contains(where: { $0.is(AssignmentExprSyntax.self) }) {
            return true
        }
        if expression.is(IfExprSyntax.self) || expression.is(SwitchExprSyntax.self) {
            return link.statements.count > 1 || (expression.as(IfExprSyntax.self).map { $0.elseBody == nil } ?? false)
        }
        return false
    }

    /// The `recover` of a chain of `Void` whose handler answers nothing, as Swift picks its form:
    /// a handler that cannot throw is the guarantee form, which sees every error, cancellations
    /// included; one that can throw is the promise form, which passes cancellations on unless its
    /// policy is `.allErrors`, and passes on what it throws. Its code is the `catch` block's, the
    /// chain's value after it `()`.
    private func writeVoidRecover(_ link: Link, at index: Int, text: StatementText, _ writer: inout Writer) throws(Refusal) {
        var handled = link.statements
        if let last = handled.last, let tuple = PyramidReader.expression(last)?.as(TupleExprSyntax.self), tuple.elements.isEmpty {
            handled.removeLast()
        }
        // A `return` in it would leave the function around the straight-line code.
        try check(handled)
        let throwing = handled.contains { HandlerUseAnalyzer.canThrow(Syntax($0)) }
        let caught = Self.caughtName(link)
        var catchBody = CodeLines()
        if throwing && !link.allErrors {
            catchBody.add("// `recover` passed cancellations on (its default policy).", 0)
            catchBody.add("if \(caught).isCancelled { throw \(caught) }", 0)
        }
        for line in text.lines(handled) { catchBody.add(line, 0) }
        try writeRecoverBlocks(at: index, catchBody: catchBody, recovered: "()", caught: caught, &writer)
    }

    /// `recover(on: queue) { error -> Promise<T> in ... }`: the handler's code, as written, runs
    /// on that queue in a closure typed as the handler was, and what it answers with is awaited:
    /// `return try await queue.async(.promise) { () -> Promise<T> in ... }.value.value`. Its
    /// `return`s stay the closure's. The form is the one its return type picks.
    private func recoverOnQueue(_ link: Link, at index: Int, _ writer: Writer) throws(Refusal) -> CodeLines {
        // Without a return type, the last link of the chain a function returning `Guarantee<T>`
        // answers with is the guarantee form (as ``writeRecover(_:at:_:)`` reads it).
        let answered = writer.guaranteeValueType(endingAt: index).map { "Guarantee<\($0)>" }
        guard let returnType = link.closure?.signature?.returnClause?.type.trimmedDescription ?? answered,
              returnType.hasPrefix("Promise") || returnType.hasPrefix("Guarantee") else {
            throw Refusal("a `recover` on another queue without its return type: syntax cannot tell its form; write it (`-> Promise<T>`)", at: link.node)
        }
        let text = errorText(link)
        let guarantee = returnType.hasPrefix("Guarantee")
        let throwing = link.statements.contains { HandlerUseAnalyzer.canThrow(Syntax($0)) }
        let queue = try queueText(link, text, inClosure: writer.answering == nil)
        var catchBody = CodeLines()
        if !guarantee && !link.allErrors {
            let caught = Self.caughtName(link)
            catchBody.add("// `recover` passed cancellations on (its default policy).", 0)
            catchBody.add("if \(caught).isCancelled { throw \(caught) }", 0)
        }
        let answer = writer.valueRead(after: index) ? "return " : "_ = "
        let effects = guarantee && !throwing ? "await " : "try await "
        catchBody.add(answer + effects + queue + ".async(.promise) " + Self.blockHead(link, returnType: returnType, throwing: throwing), 0)
        for line in text.lines(link.statements) { catchBody.add(line, 1) }
        catchBody.add("}.value.value", 0)
        return catchBody
    }

    /// The `do { } catch { }` of a `recover`: the code before it in `do`, `catchBody` (and
    /// `recovered`, the value it settles with) in `catch`, as a block giving the value where it
    /// is read after.
    private func writeRecoverBlocks(at index: Int, catchBody: CodeLines, recovered: String?, caught: String, _ writer: inout Writer) throws(Refusal) {
        let needed = writer.valueRead(after: index)
        var block = CodeLines()
        // `do { ...; return value } catch { ...; return recovered }`: each branch gives the value.
        func returningBlock() -> CodeLines {
            var lines = CodeLines()
            lines.add("do {", 0)
            lines.add(writer.body, indentedBy: 1)
            lines.add((writer.valueExpression ?? CodeLines(line: "()")).prefixed("return "), indentedBy: 1)
            lines.add(Self.catchClause(caught), 0)
            lines.add(catchBody, indentedBy: 1)
            if let recovered { lines.add("return \(recovered)", 1) }
            lines.add("}", 0)
            return lines
        }
        if needed && writer.valueReturned && index == writer.links.count - 1 {
            // The function's value: the block returns it, with no closure around it.
            writer.body = returningBlock()
            writer.seen = [:]
            writer.state = .none
        } else if needed {
            // A `recover` catching every error whose own code cannot throw gives a value for
            // sure: no `try` (a function returning a guarantee may hold it).
            let returning = returningBlock()
            block.add(Self.canThrow(returning) ? "try await { () async throws in" : "await { () async in", 0)
            block.add(returning, indentedBy: 1)
            block.add("}()", 0)
            writer.body = CodeLines()
            writer.seen = [:]   // what it declared is out of scope now
            writer.state = .pending(block)
        } else {
            writer.discard()
            block.add("do {", 0)
            block.add(writer.body, indentedBy: 1)
            block.add(Self.catchClause(caught), 0)
            block.add(catchBody, indentedBy: 1)
            if let recovered, recovered != "()" { block.add("_ = \(recovered)", 1) }
            block.add("}", 0)
            writer.body = block
            writer.seen = [:]
            writer.state = .none
        }
    }

    /// The handler's locals join the one straight-line scope: two handlers declaring the same name,
    /// or a handler reading a name an earlier one declared (it meant an outer one), are refused.
    /// `scoped`: the handler's code goes into a closure of its own (a block for another queue),
    /// whose declarations end with it: they may shadow earlier names and hide none later.
    private func declareLocals(_ link: Link, renames: [String: String], scoped: Bool = false, _ writer: inout Writer) throws(Refusal) {
        var declared: [(String, TokenSyntax)] = []
        // `let`/`var` declarations and `guard let` bindings stay in scope after the handler.
        for token in Self.declaredNameTokens(link.statements) where !scoped {
            if writer.seen[token.text] != nil {
                throw Refusal("two chain handlers declare `\(token.text)`, which straight-line code would declare twice", at: token)
            }
            declared.append((token.text, token))
        }
        let own = Set(renames.values).union(declared.map(\.0))
        for name in Self.references(link.statements) where writer.seen[name] != nil && !own.contains(name) && renames[name] == nil {
            throw Refusal("a chain handler reads `\(name)`, which an earlier handler's value would hide in straight-line code", at: link.node)
        }
        for (name, _) in declared { writer.seen[name] = name }
    }

    /// The handler's lines, inside `await MainActor.run { }` when it ran on the main queue in a
    /// chain otherwise `on: nil`.
    private static func hopping(_ link: Link, _ lines: [String]) -> CodeLines {
        var result = CodeLines()
        guard link.hopsToMain else {
            for line in lines { result.add(line, 0) }
            return result
        }
        let throwing = link.statements.contains { item in
            item.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .keyword(.try) || $0.tokenKind == .keyword(.throw) }
        }
        result.add((throwing ? "try " : "") + "await MainActor.run {" + (link.selfCapture.map { " [\($0)] in" } ?? ""), 0)
        for line in lines { result.add(line, 1) }
        result.add("}", 0)
        return result
    }

    /// Whether `token` belongs to a closure inside `closure`.
    private static func isNested(_ token: TokenSyntax, in closure: ClosureExprSyntax) -> Bool {
        var node = token.parent
        while let current = node, current.id != closure.id {
            if current.is(ClosureExprSyntax.self) { return true }
            node = current.parent
        }
        return false
    }

    /// Whether `name` (an identifier or `$0`) appears in `items`.
    static func mentions(_ items: [CodeBlockItemSyntax], _ name: String) -> Bool {
        items.contains { item in
            item.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .identifier(name) || $0.tokenKind == .dollarIdentifier(name) }
        }
    }

    /// The name a parameter is declared under (`$0` becomes `value`).
    private static func bindable(_ parameter: String) -> String {
        parameter.hasPrefix("$") ? "value" : parameter
    }

    /// Names the statements read (not member names).
    private static func references(_ items: [CodeBlockItemSyntax]) -> Set<String> {
        var names = Set<String>()
        for item in items {
            for token in item.tokens(viewMode: .sourceAccurate) {
                guard case .identifier(let name) = token.tokenKind, let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
                if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id { continue }
                names.insert(name)
            }
        }
        return names
    }

    /// The value a handler's last statement gives: `return x` or the expression `x`.
    /// A `switch` or `if` ending a handler is a statement here (its branches return or throw),
    /// not a value to await.
    private static func resultExpression(_ item: CodeBlockItemSyntax) -> ExprSyntax? {
        if let ret = item.item.as(ReturnStmtSyntax.self) { return ret.expression }
        guard let expression = PyramidReader.expression(item), !expression.is(SwitchExprSyntax.self), !expression.is(IfExprSyntax.self)
        else { return nil }
        return expression
    }

    /// Whether `node` holds a `throw` of its own (not of a closure inside it).
    private static func containsThrow(_ node: Syntax) -> Bool {
        node.tokens(viewMode: .sourceAccurate).contains { token in
            token.tokenKind == .keyword(.throw) && !StatementText.isInsideClosure(token, below: node)
        }
    }

    /// Every path through the statement ends in `throw` (or, with `returning`, in `return x`):
    /// a `throw`, or a `switch` whose every case, or an `if` with an `else` whose every branch,
    /// ends in one.
    private static func alwaysThrows(_ item: CodeBlockItemSyntax, returning: Bool = false) -> Bool {
        if item.item.is(ThrowStmtSyntax.self) { return true }
        if returning, item.item.as(ReturnStmtSyntax.self)?.expression != nil { return true }
        // `#if os(iOS) return ... #else throw error #endif`: whichever clause is compiled.
        if let conditional = item.item.as(IfConfigDeclSyntax.self) {
            return conditional.clauses.allSatisfy { clause in
                guard case .statements(let statements)? = clause.elements, let last = statements.last else { return false }
                return alwaysThrows(last, returning: returning)
            }
        }
        guard let expression = PyramidReader.expression(item) else { return false }
        if let switchExpression = expression.as(SwitchExprSyntax.self) {
            return !switchExpression.cases.isEmpty && switchExpression.cases.allSatisfy { element in
                guard let statements = element.as(SwitchCaseSyntax.self)?.statements, let last = statements.last else { return false }
                return alwaysThrows(last, returning: returning)
            }
        }
        if let ifExpression = expression.as(IfExprSyntax.self) {
            guard let last = ifExpression.body.statements.last, alwaysThrows(last, returning: returning),
                  let elseBody = ifExpression.elseBody else { return false }
            switch elseBody {
            case .codeBlock(let block): return block.statements.last.map { alwaysThrows($0, returning: returning) } ?? false
            case .ifExpr(let inner): return alwaysThrows(CodeBlockItemSyntax(item: .expr(ExprSyntax(inner))), returning: returning)
            }
        }
        return false
    }

    /// `.value(x)`, `Promise.value(x)`, `Guarantee.value(x)`: `x`, with no wait.
    private static func immediateValue(_ expression: ExprSyntax) -> ExprSyntax? {
        guard let call = expression.as(FunctionCallExprSyntax.self), call.trailingClosure == nil, call.arguments.count == 1,
              call.arguments.first?.label == nil, let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              member.declName.baseName.text == "value" else { return nil }
        if let base = member.base {
            let text = base.trimmedDescription
            guard text.hasPrefix("Promise") || text.hasPrefix("Guarantee") else { return nil }
        }
        return call.arguments.first?.expression
    }

    /// The type a `compactMap` wants, where syntax shows it.
    private func compactMapType(_ link: Link, _ result: ExprSyntax) -> String? {
        if let type = link.closure?.signature?.returnClause?.type {
            if let optional = type.as(OptionalTypeSyntax.self) { return optional.wrappedType.trimmedDescription }
            if let optional = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return optional.wrappedType.trimmedDescription }
            return nil
        }
        if let cast = result.as(AsExprSyntax.self), cast.questionOrExclamationMark?.tokenKind == .postfixQuestionMark {
            return cast.type.trimmedDescription
        }
        // The parser leaves `x as? T` unfolded: `x`, `as?`, `T`.
        if let sequence = result.as(SequenceExprSyntax.self), sequence.elements.count == 3,
           let cast = sequence.elements.dropFirst().first?.as(UnresolvedAsExprSyntax.self),
           cast.questionOrExclamationMark?.tokenKind == .postfixQuestionMark,
           let type = sequence.elements.last?.as(TypeExprSyntax.self) {
            return type.type.trimmedDescription
        }
        if let call = result.as(FunctionCallExprSyntax.self), call.trailingClosure == nil {
            var called = call.calledExpression
            if let member = called.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "init", let base = member.base { called = base }
            if let reference = called.as(DeclReferenceExprSyntax.self), reference.baseName.text.first?.isUppercase == true {
                return reference.baseName.text
            }
        }
        return nil
    }

    /// `try await alternative(...)` where the index knows an async alternative, else `.value`.
    /// `knownGuarantee`: the expression is a guarantee, as the handler returning it says.
    private func awaited(_ expression: ExprSyntax, _ text: StatementText, knownGuarantee: Bool = false) -> String {
        if let value = Self.immediateValue(expression) { return text.text(of: value) }
        // `try .value(savedImage(for: error))`: the value, tried.
        if let tried = expression.as(TryExprSyntax.self), tried.questionOrExclamationMark == nil,
           let value = Self.immediateValue(tried.expression) {
            return "try " + text.text(of: value)
        }
        // A call of a function `--replace` made async, wrapped to be a promise: the call itself.
        if let (call, guarantee) = ReplacedPromiseCalls.unwrapped(expression) { return (guarantee ? "await " : "try await ") + text.text(of: call) }
        if let call = expression.as(FunctionCallExprSyntax.self), call.trailingClosure == nil,
           let base = PyramidReader.baseName(call) {
            let labels = call.arguments.map { $0.label?.text }
            let callees = catalog.callees(named: base).filter { callee in
                var alternative = callee.labels
                alternative.remove(at: callee.handlerIndex)
                return alternative == labels && callee.hasAsyncAlternative
            }
            if callees.count == 1, let callee = callees.first {
                return (callee.shape.canFail ? "try await " : "await ") + text.text(of: call)
            }
            // A promise-returning function with an async alternative (``PromiseFunctionSummary``).
            if callees.isEmpty, let reached = catalog.promiseFunctionCall(named: base, labels: labels), reached.awaitedDirectly {
                return (reached.returnsGuarantee ? "await " : "try await ") + text.text(of: call)
            }
        }
        let base = text.text(of: expression)
        // A guarantee cannot fail: `await`, without a `try` that would warn.
        let effects = knownGuarantee || isGuarantee(expression) ? "await " : "try await "
        return effects + (Self.isSimple(expression) ? base : "(\(base))") + ".value"
    }

    /// `after(seconds: 1)`, `after(.seconds(1))`, `Guarantee.value(x)`, `Guarantee { }`, or the
    /// promise alternative of a callee whose handler cannot report an error: a guarantee.
    func isGuarantee(_ expression: ExprSyntax) -> Bool {
        guard let call = expression.as(FunctionCallExprSyntax.self) else { return false }
        let called = call.calledExpression.trimmedDescription
        if called == "after" || Self.namesGuarantee(call.calledExpression) { return true }
        // A link a guarantee answers with a guarantee (`then` may answer a promise).
        // Not where its closure throws: a guarantee's `map { ... throw e }` is a promise.
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
           ["map", "get", "asVoid"].contains(member.declName.baseName.text), base.is(FunctionCallExprSyntax.self) {
            let closures = (call.trailingClosure.map { [$0] } ?? []) + call.arguments.compactMap { $0.expression.as(ClosureExprSyntax.self) }
            return !closures.contains(where: Self.mayThrow) && isGuarantee(base)
        }
        // `when(guarantees:)` and `when(resolved:)` never reject.
        if called == "when", let label = call.arguments.first?.label?.text, label == "guarantees" || label == "resolved" { return true }
        // `race(g1, g2)` and `when(g1, g2)` of guarantees are Vow's guarantee overloads.
        if called == "race" || called == "when", call.trailingClosure == nil, !call.arguments.isEmpty,
           call.arguments.allSatisfy({ $0.label == nil && isGuarantee($0.expression) }) {
            return true
        }
        guard call.trailingClosure == nil, let base = PyramidReader.baseName(call) else { return false }
        let labels = call.arguments.map { $0.label?.text }
        let callees = Self.promiseAlternativeCallees(named: base, labels: labels, catalog: catalog)
        let reached = catalog.promiseFunctionCall(named: base, labels: labels)
        if callees.isEmpty { return reached?.returnsGuarantee ?? false }
        // A completion-handler function's guarantee alternative, unless a promise-returning
        // function of the tree (another type's `load()`) may be the one called.
        return callees.count == 1 && callees[0].producesGuarantee && (reached?.returnsGuarantee ?? true)
    }

    /// The closure says `throws`, or its own code (not a closure inside it) throws or tries.
    static func mayThrow(_ closure: ClosureExprSyntax) -> Bool {
        closure.signature?.effectSpecifiers?.throwsClause != nil || HandlerUseAnalyzer.canThrow(Syntax(closure.statements))
    }

    /// `Guarantee`, `Guarantee<Int>`, `Guarantee.value`, `Guarantee.immediate`: the type itself or
    /// one of its static members, not a link on a guarantee.
    private static func namesGuarantee(_ expression: ExprSyntax) -> Bool {
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text == "Guarantee" }
        if let specialized = expression.as(GenericSpecializationExprSyntax.self) { return namesGuarantee(specialized.expression) }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base { return namesGuarantee(base) }
        return false
    }

    /// `let namePromise = client.load("name")`, where the tree declares `load` answering
    /// different types (`-> Promise<String>`, `-> Promise<[String]>`): the handler that took the
    /// value said which (`.done { (name: String) in }`); the hoisted promise says it instead
    /// (`let namePromise: Promise<String> = ...`), or the call would be ambiguous.
    private func hoistedBinding(_ started: String, _ root: ExprSyntax, in call: FunctionCallExprSyntax, links: [Link]) -> String {
        guard let type = spelledFirstType(root, links: links) else { return "let \(started) = \(hoisted(root, in: call))" }
        return "let \(started): \(isGuarantee(root) ? "Guarantee" : "Promise")<\(type)> = \(StatementText(bytes: bytes).text(of: root))"
    }

    /// The type the first handler gives the value of `root`, a call of a name the tree declares
    /// answering different types (``hoistedBinding(_:_:in:links:)``); nil where it says none or
    /// the name answers one type. Straight-line code binds the value with it
    /// (`let tags: [String] = try await client.load("tags").value`).
    private func spelledFirstType(_ root: ExprSyntax, links: [Link]) -> String? {
        // A call `--replace` made async is wrapped (`Promise.immediate { try await load() }`).
        guard let head = (ReplacedPromiseCalls.unwrapped(root)?.call ?? root).as(FunctionCallExprSyntax.self),
              let base = PyramidReader.baseName(head),
              catalog.promiseValueTypes(named: base).count > 1,
              let first = links.first, [.then, .map, .compactMap, .done, .get].contains(first.kind) else { return nil }
        return ExistingCallCollector.typedParameter(of: first.closure)
    }

    /// `let firstPromise = load(id: 1)` in async code would reach an async overload of `load`,
    /// if one exists: there the promise is spelled out, `(load(id: 1) as Promise)`.
    private func hoisted(_ root: ExprSyntax, in call: FunctionCallExprSyntax) -> String {
        let text = StatementText(bytes: bytes).text(of: root)
        guard let head = root.as(FunctionCallExprSyntax.self), head.trailingClosure == nil, let base = PyramidReader.baseName(head),
              catalog.promiseFunctionCall(named: base, labels: head.arguments.map { $0.label?.text }) != nil,
              ExistingCallCollector.isInAsyncCode(call) else { return text }
        return "(\(text) as \(isGuarantee(root) ? "Guarantee" : "Promise"))"
    }

    /// A call, a name or a member: needs no parentheses before `.value` or `as`.
    private static func isSimple(_ expression: ExprSyntax) -> Bool {
        expression.is(FunctionCallExprSyntax.self) || expression.is(DeclReferenceExprSyntax.self) || expression.is(MemberAccessExprSyntax.self)
    }

    /// A handler `on:` a queue other than main (`map(on: .global()) { }`): its code, as written,
    /// goes to that queue in a closure Vow runs there, `DispatchQueue.async(.promise) { }`, whose
    /// value the straight-line code awaits before the next step, as the next handler waited:
    /// `let value = try await DispatchQueue.global().async(.promise) { ... }.value`. Its `return`s
    /// stay the closure's; a `then`'s promise is awaited too.
    private func writeOnQueue(_ link: Link, queue: ExprSyntax, _ writer: inout Writer) throws(Refusal) {
        let renames = try bind(link, keep: link.kind == .get, &writer)
        try declareLocals(link, renames: renames, scoped: true, &writer)
        var text = StatementText(bytes: bytes)
        text.renamed = renames.filter { $0.key != $0.value }
        let queueText = try queueText(link, text, inClosure: writer.answering == nil)
        // Vow's overloads: a body that throws gives a promise (`try`), one that cannot a guarantee.
        let throwing = link.statements.contains { HandlerUseAnalyzer.canThrow(Syntax($0)) }
        let tries = throwing || (link.kind == .then && !link.declaresGuarantee)
        var code = CodeLines()
        code.add((tries ? "try await " : "await ") + queueText + ".async(.promise) " + Self.blockHead(link, returnType: link.closure?.signature?.returnClause?.type.trimmedDescription, throwing: throwing), 0)
        for line in text.lines(link.statements) { code.add(line, 1) }
        code.add(link.kind == .then ? "}.value.value" : "}.value", 0)
        for comment in link.comments { writer.body.add(comment, 0) }
        switch link.kind {
        case .then, .map:
            writer.state = .pending(code)
        case .get:
            writer.body.add(code, indentedBy: 0)
        default:
            writer.body.add(code, indentedBy: 0)
            writer.state = .none
        }
    }

    /// The queue a link's code goes to, as the straight-line code names it: the value of the
    /// `on:` argument, or the constant a task's capture list took (``Link/hoistedQueue``).
    /// `on: worker` elsewhere in a task or the bridge, escaping closures, is refused: a property
    /// would need `self.`, a local must not have it, and syntax cannot tell them apart.
    private func queueText(_ link: Link, _ text: StatementText, inClosure: Bool) throws(Refusal) -> String {
        guard let queue = link.queue else { return "DispatchQueue.main" }
        if let hoisted = link.hoistedQueue { return hoisted }
        var queueText = text.text(of: queue)
        if queueText.hasPrefix(".") { queueText = "DispatchQueue" + queueText }
        if inClosure, Self.bareName(queue) != nil {
            throw Refusal("a chain link with `on: \(queueText)` inside a closure, where syntax cannot tell a property (`self.\(queueText)`) from a local", at: queue)
        }
        return queueText
    }

    /// The handler's text with its error parameter read as `error`, the name of the `catch`
    /// block its code goes into (`catch`, `recover`).
    private func errorText(_ link: Link) -> StatementText {
        var text = StatementText(bytes: bytes)
        if let name = link.parameters.first, name != "error", name != "_", Self.caughtName(link) == "error" { text.renamed[name] = "error" }
        return text
    }

    /// The name the `catch` block binds a `catch`/`recover` handler's error to: `error`, which
    /// the handler's own name becomes (``errorText(_:)``), unless the handler names it otherwise
    /// and reads something else called `error` (a global `error(value:)` logger), which the
    /// block's implicit `error` would hide: then `catch let e`, which binds no `error`.
    private static func caughtName(_ link: Link) -> String {
        guard let name = link.parameters.first, name != "error", name != "_",
              link.statements.contains(where: { PromiseChainWriter.reference(to: "error", in: Syntax($0)) != nil }) else { return "error" }
        return name
    }

    /// `} catch {`, or `} catch let e {` where the handler's error keeps its name (``caughtName(_:)``).
    private static func catchClause(_ caught: String) -> String {
        caught == "error" ? "} catch {" : "} catch let \(caught) {"
    }

    /// `{ [weak self] () throws -> Promise<T> in`: the opening of the block a handler's code runs
    /// in on another queue, with the handler's `weak`/`unowned` capture of `self` (the task's
    /// `self` is a variable, which a `@Sendable` block may not capture) and its declared return
    /// type (`.value(x)` needs it).
    private static func blockHead(_ link: Link, returnType: String?, throwing: Bool) -> String {
        let capture = link.selfCapture.map { "[\($0)] " } ?? ""
        let signature = returnType.map { "() \(throwing ? "throws " : "")-> \($0) " } ?? ""
        return capture.isEmpty && signature.isEmpty ? "{" : "{ " + capture + signature + "in"
    }

    /// `worker` of `on: worker`: a name that may be a property or a local.
    private static func bareName(_ queue: ExprSyntax) -> String? {
        guard let name = queue.as(DeclReferenceExprSyntax.self), name.argumentNames == nil, name.baseName.text.first?.isLowercase == true else { return nil }
        return name.baseName.text
    }

    /// A `tap` reading its `Result`, where the value's type is known (the function's, only links
    /// keeping it after): the code before it settles a `Vow.Result` (`.fulfilled(value)`, or
    /// `.rejected(error)` for any error, cancellations too, as `tap` saw them), the handler reads
    /// it, and the next step takes the value from it again (`try result.get()`, rethrowing).
    private func writeResultTap(_ link: Link, at index: Int, _ writer: inout Writer) throws(Refusal) {
        guard let type = writer.typeAfter(index), writer.answering?.guarantee != true, let parameter = link.parameters.first,
              link.parameters.count == 1 else {
            throw Refusal("a `tap` handler that reads the `Result`", at: link.node)
        }
        let value = writer.valueExpression ?? CodeLines(line: "()")
        var block = CodeLines()
        let name = writer.declare(Self.bindable(parameter))
        block.add("let \(name): Vow.Result<\(type)>", 0)
        block.add("do {", 0)
        block.add(writer.body, indentedBy: 1)
        if value.lines.count == 1, let only = value.lines.first {
            block.add("\(name) = .fulfilled(\(only.text))", 1)
        } else {
            let held = writer.declare("value")
            block.add(value.prefixed("let \(held) = "), indentedBy: 1)
            block.add("\(name) = .fulfilled(\(held))", 1)
        }
        block.add("} catch {", 0)
        block.add("\(name) = .rejected(error)", 1)
        block.add("}", 0)
        var text = StatementText(bytes: bytes)
        if name != parameter { text.renamed[parameter] = name }
        for line in text.lines(link.statements) { block.add(line, 0) }
        writer.body = block
        writer.seen = [name: parameter]   // what the code before it declared is out of scope now
        writer.state = .pending(CodeLines(line: "try \(name).get()"))
    }

    /// The end of the first statement of the handler that declares `name` again, where the
    /// parameter of that name stops being the one its references read.
    private static func shadowingEnd(of name: String, in statements: [CodeBlockItemSyntax]) -> Int? {
        statements.first { statement in declaredNameTokens([statement]).contains { $0.text == name } }
            .map { $0.endPositionBeforeTrailingTrivia.utf8Offset }
    }

    /// The name the value of the handler's `parameter` is bound to: its own, made unique; one
    /// other than it where the handler declares it again (``shadowingEnd(of:in:)``), with the
    /// rename's limit noted for the handler's text (``Writer/renameLimits``).
    private func bindingName(of parameter: String, in link: Link, renamingShadowed: Bool, _ writer: inout Writer) -> String {
        guard renamingShadowed, let end = Self.shadowingEnd(of: parameter, in: link.statements) else {
            return writer.declare(Self.bindable(parameter))
        }
        writer.reserved.insert(parameter)
        defer { writer.reserved.remove(parameter) }
        writer.renameLimits[parameter] = end
        return writer.declare(Self.bindable(parameter))
    }

    /// The names a handler's statements declare with `let`, `var` or `guard let`, as written.
    private static func declaredNameTokens(_ statements: [CodeBlockItemSyntax]) -> [TokenSyntax] {
        statements.flatMap { item -> [TokenSyntax] in
            var patterns: [Syntax] = []
            if let variable = item.item.as(VariableDeclSyntax.self) {
                patterns = variable.bindings.map { Syntax($0.pattern) }
            } else if let guardStatement = item.item.as(GuardStmtSyntax.self) {
                patterns = guardStatement.conditions.compactMap { $0.condition.as(OptionalBindingConditionSyntax.self).map { Syntax($0.pattern) } }
            }
            return patterns.flatMap { pattern in
                pattern.tokens(viewMode: .sourceAccurate).filter { if case .identifier = $0.tokenKind { true } else { false } }
            }
        }
    }

    /// Whether a handler `return`s anywhere but in its last statement (outside the closures and
    /// functions it declares).
    private static func returnsBeforeEnd(_ statements: [CodeBlockItemSyntax]) -> Bool {
        statements.dropLast().contains { !returns(in: $0).isEmpty }
            || statements.last.map { !$0.item.is(ReturnStmtSyntax.self) && !returns(in: $0).isEmpty } == true
    }

    /// The `return`s of a statement that belong to its handler, not to a closure or function in it.
    private static func returns(in statement: CodeBlockItemSyntax) -> [ReturnStmtSyntax] {
        final class Finder: SyntaxVisitor {
            var found: [ReturnStmtSyntax] = []
            override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
            override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
            override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind { found.append(node); return .skipChildren }
        }
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(statement)
        return finder.found
    }

    /// The last `then` of the chain a function answers with, its handler answering in several
    /// places (`guard granted else { return .value(false) }`): the handler's code becomes the end
    /// of the function's, each `return` the function's own answer (``returnStatement(_:guarantee:reserved:valueType:indent:)``:
    /// `return x` for `.value(x)`, `throw e` for `Promise(error: e)`, straight-line code for a
    /// chain, any other promise awaited).
    private func writeAnsweringThen(_ link: Link, _ writer: inout Writer) throws(Refusal) {
        guard let answering = writer.answering else { return }
        if let deferToken = link.statements.lazy.flatMap({ $0.tokens(viewMode: .sourceAccurate) }).first(where: { $0.tokenKind == .keyword(.defer) }) {
            throw Refusal("a chain handler that leaves early (`defer`)", at: deferToken)
        }
        let renames = try bind(link, keep: false, &writer)
        if let renamed = renames.first(where: { $0.key != $0.value }) {
            throw Refusal("a chain handler reads `\(renamed.key)`, which an earlier handler's value would hide in straight-line code", at: link.node)
        }
        try declareLocals(link, renames: renames, &writer)
        var text = StatementText(bytes: bytes)
        try answerReturns(of: link, in: &text, guarantee: answering.guarantee, valueType: writer.valueType, depth: answering.depth + 1, writer)
        for line in text.lines(link.statements) { writer.body.add(line, 0) }
        writer.state = .none
    }

    /// Each `return` of a `then` handler written as the answer of the code it now ends
    /// (``returnStatement(_:guarantee:reserved:valueType:indent:)``), into `text`.
    private func answerReturns(of link: Link, in text: inout StatementText, guarantee: Bool, valueType: String?, depth: Int,
                               _ writer: Writer) throws(Refusal) {
        let reserved = writer.reserved.union(writer.seen.keys).union(Self.references(link.statements))
        for statement in link.statements {
            for answer in Self.returns(in: statement) {
                guard let expression = answer.expression else {
                    throw Refusal("a `then` handler that does not end with its value", at: answer)
                }
                let indent = Indentation.lineIndent(in: bytes, at: answer.positionAfterSkippingLeadingTrivia.utf8Offset)
                let lines = try returnStatement(expression, guarantee: guarantee, reserved: reserved, valueType: valueType,
                                                indent: indent, depth: depth)
                let written = String(lines.render(baseIndent: indent, unit: "    ").drop { $0 == " " || $0 == "\t" })
                let range = answer.positionAfterSkippingLeadingTrivia.utf8Offset..<answer.endPositionBeforeTrailingTrivia.utf8Offset
                text.replacedStatements.append((range, written.hasSuffix("\n") ? String(written.dropLast()) : written))
            }
        }
    }

    /// A `map` or `then` handler that declares its result type (`{ [weak self] events ->
    /// [Row] in guard let strongSelf = self else { return [] } ... }`, `-> Promise<T>` or
    /// `-> Guarantee<T>`) and leaves early, as a closure called at once, the value the next step
    /// binds (`let rows = { () -> [Row] in ... }()`, for a `then` `let history = try await {
    /// () async throws -> T in ... }()`) or discards (`_ = ...`), each `return` answering as
    /// in ``returnStatement(_:guarantee:reserved:valueType:indent:)`` (`return .value(x)` is
    /// `return x`, a chain is straight-line code, any other promise awaited). Its `return`s
    /// (and a `guard let self`) mean there what they meant in the handler. False where the
    /// handler is not of that shape (the caller's refusal stands).
    private func writeCalledHandler(_ link: Link, at index: Int, _ writer: inout Writer) throws(Refusal) -> Bool {
        let declared = link.closure?.signature?.returnClause?.type
        // A `map` that declares no type, whose value every later link keeps, gives the value of
        // the function returning the chain (`-> Promise<T>`): its type is `T`.
        guard link.kind == .map || link.kind == .then, link.resultOverride == nil, !link.hopsToMain,
              var valueType = declared?.trimmedDescription ?? (link.kind == .map ? writer.typeAfter(index) : nil),
              !link.statements.lazy.flatMap({ $0.tokens(viewMode: .sourceAccurate) }).contains(where: { $0.tokenKind == .keyword(.defer) })
        else { return false }
        var guarantee = false
        if link.kind == .then {
            guard let type = declared?.as(IdentifierTypeSyntax.self),
                  ["Promise", "Guarantee"].contains(type.name.text),
                  let argument = type.genericArgumentClause?.arguments.first, type.genericArgumentClause?.arguments.count == 1
            else { return false }
            valueType = argument.argument.trimmedDescription
            guarantee = type.name.text == "Guarantee"
        }
        let renames = try bind(link, keep: false, renamingShadowed: true, &writer)
        try declareLocals(link, renames: renames, scoped: true, &writer)
        var text = StatementText(bytes: bytes)
        text.renamed = renames.filter { $0.key != $0.value }
        text.renamedUntil = writer.renameLimits
        if link.kind == .then {
            // Its answers are written from their own text, which a renamed value would not reach.
            if let renamed = renames.first(where: { $0.key != $0.value }) {
                throw Refusal("a chain handler reads `\(renamed.key)`, which an earlier handler's value would hide in straight-line code", at: link.node)
            }
            try answerReturns(of: link, in: &text, guarantee: guarantee, valueType: valueType, depth: 1, writer)
        }
        var code = CodeLines()
        for line in text.lines(link.statements) { code.add(line, 0) }
        let throwing = Self.canThrow(code)
        if guarantee && throwing { throw Refusal("a `then` answering a guarantee whose code can throw", at: link.node) }
        let isAsync = link.kind == .then
        let effects = (throwing ? "try " : "") + (isAsync ? "await " : "")
        let signature = (isAsync ? "async " : "") + (throwing ? "throws " : "")
        // Pending: the next link binds it under its own name, or discards it (`_ = `).
        var called = CodeLines()
        called.add("\(effects){ () \(signature)-> \(valueType) in", 0)
        called.add(code, indentedBy: 1)
        called.add("}()", 0)
        writer.state = .pending(called)
        return true
    }

    /// `leaving`: the handler's code is the last of its scope in the straight-line code (the last
    /// `done` before the `catch`, after which only `ensure`s run, as `defer`s; the `catch`), where
    /// `return`, `guard ... else { return }` and `defer` mean what they meant in the handler.
    private func check(_ statements: [CodeBlockItemSyntax], leaving: Bool = false) throws(Refusal) {
        if leaving { return }
        for (index, statement) in statements.enumerated() {
            for node in statement.tokens(viewMode: .sourceAccurate) {
                guard node.tokenKind == .keyword(.return) || node.tokenKind == .keyword(.guard) || node.tokenKind == .keyword(.defer) else { continue }
                // Inside a nested closure or function it belongs to that.
                var parent = node.parent
                var nested = false
                while let current = parent, current.id != statement.id {
                    if current.is(ClosureExprSyntax.self) || current.is(FunctionDeclSyntax.self) { nested = true; break }
                    parent = current.parent
                }
                if nested { continue }
                if node.tokenKind == .keyword(.return) && index == statements.count - 1 && statement.item.is(ReturnStmtSyntax.self) { continue }
                // `guard ... else { throw e }` rejects, as it did in the handler (a `return` in
                // its `else` is refused by itself); `guard let self` would rebind `self` for
                // every later handler.
                if node.tokenKind == .keyword(.guard), let guardStatement = node.parent?.as(GuardStmtSyntax.self),
                   !guardStatement.conditions.contains(where: { $0.condition.as(OptionalBindingConditionSyntax.self)?.pattern.trimmedDescription == "self" }) {
                    continue
                }
                throw Refusal("a chain handler that leaves early (`\(node.text)`)", at: node)
            }
        }
    }
}

private extension CodeLines {
    init(line: String) {
        self.init()
        add(line, 0)
    }

    /// The same lines with `prefix` before the first (`let x = `, `return `).
    func prefixed(_ prefix: String) -> CodeLines {
        var result = CodeLines()
        for (index, line) in lines.enumerated() {
            result.add(index == 0 ? prefix + line.text : line.text, line.level)
        }
        return result
    }
}
