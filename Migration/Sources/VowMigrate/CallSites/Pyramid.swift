import SwiftSyntax

/// A callback pyramid read from one statement: a call to a completion-handler function whose
/// handler, on success, ends by calling the next one, and so on. Each level keeps the statements
/// it runs before the next call, and the branch it runs on failure.
struct Pyramid {
    struct Failure {
        /// What the branch does, its final `return` dropped.
        var statements: [CodeBlockItemSyntax]
        /// The name the branch gives the error; nil for the `false` branch of a Bool flag.
        var errorName: String?
        /// `guard error == nil else { show(error!); return }`: the branch reads the error as
        /// `error!`, which a `catch`'s error is without the `!`.
        var unwrapsError = false
        /// `if let user { ... } else { show(error) }`: the branch runs for an error and for an
        /// answer of neither, and reads the error as optional (nil for the second); the `catch`
        /// declares it so first.
        var errorIsOptional = false
        /// Promise form: `case .failure(SyncError.cancelled): ...` before the `.failure` that takes
        /// any error: each pattern's code, matched in the `catch` before this branch.
        var patterned: [(pattern: String, statements: [CodeBlockItemSyntax])] = []
        /// Promise form: the branch reads its error as the callee's own failure type
        /// (`error.userMessage` of a `Result<User, APIError>`): the `catch` matches it as that
        /// type (`case let error as APIError:`), which is all the alternative rejects with.
        var typedAs: String?
        /// The comments above the test the branch came from (`// Signing in works without push`
        /// above `if error != nil { ... }`), which the branch keeps.
        var comments: [String] = []
    }

    /// Promise form, the last call: its callback's whole body was one `DispatchQueue.main.async { }`,
    /// around the error check or the `switch` too.
    enum MainHop {
        /// The chain's handlers run `on: .mainActor` (the hop took no capture list of its own, or
        /// the one the chain's handlers take anyway).
        case handlers
        /// The hop's own `[weak self]`, which the callback did not take: each handler keeps the
        /// hop as written around its code (`opening` is its first line, `guardingSelf` its
        /// `guard let self else { return }`), so `self` is held strongly until the answer
        /// arrives and weakly during the hop, as before.
        case kept(opening: String, guardingSelf: String?)
    }

    /// Promise form: `guard case .success(let invites) = result, let invite = ... else { B; return }`:
    /// the conditions after the first, which the handler tests first, running `statements` (B)
    /// and stopping where one fails. `statement` is the guard as written (for what it declares).
    struct ExitGuard {
        var statement: CodeBlockItemSyntax
        var conditions: [Syntax]
        var statements: [CodeBlockItemSyntax]
    }

    struct Level {
        var call: FunctionCallExprSyntax
        var callee: CalleeSummary
        /// `api.login(user)`: the call without its handler, which is the alternative's call.
        var invocation: String
        /// The name the handler gives the value, nil when it has none or ignores it (`_`).
        var valueName: String?
        /// `(T?, Error?)`: the handler reads the value as `value!`; the alternative's value is
        /// not optional, so those reads lose the `!`.
        var unwrapsValue = false
        /// A Bool flag whose `false` branch is this level's failure.
        var flagName: String?
        /// The statements run on success before the next level's call (the last level: all of them).
        var success: [CodeBlockItemSyntax]
        /// The last level's success statements were one `DispatchQueue.main.async { }`: these are
        /// its body, to run on the main queue.
        var successOnMain: [CodeBlockItemSyntax]?
        var failure: Failure?
        /// Promise form: the branch the callback runs for an answer of neither a value nor an
        /// error (`guard let user else { ...; return }` after the error check of a `(T?, Error?)`
        /// callback, `guard ok else` after that of a `(Bool, Error?)` one), which the alternative
        /// rejects with `PMKError.invalidCallingConvention`: the `catch` runs it for that error.
        var neither: Failure?
        /// Promise form, the last call: the callback takes several values and no error, which
        /// the alternative's `Guarantee` passes as a tuple; `valueName` lists their names
        /// (`accepted, declined`), the handler's parameters taking the tuple apart.
        var passesSeveralValues = false
        /// Promise form, the last call: `case .success(let v) where C: A` cases before the
        /// `.success` that takes any value (or `if case .success(let v) = result, C { A } else
        /// { B }`), which the handler writes as `if C { A } else ...`;
        /// `success` holds all their code, for what reads it.
        var successCases: [(conditions: [Syntax], statements: [CodeBlockItemSyntax])] = []
        /// The statement calling the next level, taken out of `success`.
        var nextStatement: CodeBlockItemSyntax?
        var mainHop: MainHop?
        /// Promise form: ``ExitGuard``.
        var exitGuard: ExitGuard?
        /// Promise form, a callback with a next call: the bare `return`s ending its top-level
        /// `if C { X; return }` and `guard C else { X; return }` before that call, which its
        /// handler writes as `throw Failure.returned` (the `catch` ignores that case).
        var earlyReturns: [ReturnStmtSyntax] = []
        /// Promise form, the last call: its last statement calls a completion-handler function
        /// whose callback this chain cannot hold (`[weak self]` of its own, a `guard let self`
        /// before an early exit) but which converts where it stands: its own chain, written there.
        var innerChain: Pyramid?
        /// The value's type as the handler spells it when that differs from the callee's
        /// (`{ (result: Result<[T], Error>) in }` for `get<T>`'s `T`): a generic callee may get its
        /// type from nowhere else, so the converted call states it.
        var annotatedValueType: String?
        /// Promise form, one call: the `[weak self]` callback began with `guard let self else
        /// { return }`, which each handler of the chain begins with.
        var guardsSelf = false
        /// Promise form, one call: code before the error check or around the `switch` is part of
        /// the success and the failure statements both.
        var hasCodeAround = false

        /// The value's type, for code that names it.
        var valueType: String { annotatedValueType ?? callee.shape.valueType }
    }

    /// The statement the pyramid replaces.
    var statement: CodeBlockItemSyntax
    var levels: [Level]
    /// `[weak self]` or `[unowned self]`, from the outermost handler.
    var selfCapture: String?
    /// Promise form: why the callback of the last level's last call was not read; that call
    /// stays as written in the last handler.
    var keptCallback: Refusal?
}

/// Why a call site was left alone, and where.
struct Refusal: Error {
    var reason: String
    var node: Syntax
    /// Printed under the reason (``Finding/detail``).
    var detail: String?

    init(_ reason: String, at node: some SyntaxProtocol, detail: String? = nil) {
        self.reason = reason
        self.node = Syntax(node)
        self.detail = detail
    }
}
