import SwiftSyntax

/// How a function body uses one of its closure parameters, over every path through the body:
/// the fewest and most calls on a path, where a second call can happen, where a path of the body
/// itself ends without a call, and to which functions the handler is handed on.
///
/// A closure the body passes to another API (`URLSession`, `DispatchQueue`) is taken to run once,
/// and a path inside it that ends without a call (the usual `guard let self else { return }`) is
/// not held against the function: only paths of the body itself are. A closure passed to
/// `forEach`, `map` and the like runs any number of times. Several closures handed to one call
/// are taken for its alternative outcomes (a `success:`/`failure:` pair): one of them runs.
struct HandlerUse: Sendable, Equatable {
    /// The fewest and most calls on any path (2 stands for "two or more").
    var minimum: Int
    var maximum: Int
    var repeatAt: MigrationIndex.Location?
    var missingAt: MigrationIndex.Location?
    var handOffs: [HandOff]
    /// Whether the body mentions the handler at all.
    var referenced: Bool
    /// Where the body keeps the handler for later (`operation.completion = completion`), each
    /// counted as one call where it is stored until the index follows it (``settle(_:as:)``).
    var stores: [Store] = []
    /// Every use of the handler is inside a closure that runs after the function returns (a
    /// queue hop or a new task, ``ClosureTiming/later``), so it never calls back before it
    /// returns: code after a call of it runs before the callback. False when it is called,
    /// handed on or stored anywhere else (a `guard` answering an invalid input at once).
    var callsBackOnlyLater = false
    /// Where each use of the handler answers (a call, a store, a hand-off), as far as the body
    /// tells: the index resolves hand-offs and closures handed to its own functions
    /// (``MigrationIndex/answerPlaces(of:)``).
    var placedUses: [PlacedUse] = []
    /// The same body read under other assumptions (``HandlerUseAnalyzer/Assumption``), where they
    /// change what it reads; the index picks the one that holds (``MigrationIndex/resolveCalls``).
    var readings: [Set<HandlerUseAnalyzer.Assumption>: HandlerUse] = [:]
    /// For a function returning an optional: whether it calls the handler exactly on the paths
    /// returning `nil` (once) and never on those returning a value, so that a caller's
    /// `guard let data = filter(response, data, error, callback) else { return }` has the handler
    /// answered on the `else` path and not yet after it. `.unlessCancelled`: so, where a cancelled
    /// request counts as answered (``HandlerUseAnalyzer/Assumption/cancellationAnswers``).
    var answersWhenReturningNil: NilAnswer?

    /// Where a use of the handler answers: on the main queue (inside `DispatchQueue.main.async { }`
    /// and the like), at once (on the thread that called the function), or elsewhere (another
    /// queue, a framework's callback, a stored handler).
    enum AnswerPlace: Sendable, Hashable {
        case main, atOnce, elsewhere
        /// On the queue a parameter of the function names (`queue.async { completion(x) }`,
        /// `func ping(completion:on queue: DispatchQueue = .main)`): its caller says where.
        case queueParameter(String)
    }

    /// One use of the handler and where it answers. `through`: the use is inside a closure handed
    /// to that call (`api.fetch { result in completion(result) }`), or is the handler handed on by
    /// name to it: it answers where that call's callee calls back, which the index reads from the
    /// callee's own uses, its `atOnce` meaning `place` (where the call itself is made).
    struct PlacedUse: Sendable, Equatable {
        var place: AnswerPlace
        var through: HandOff?
    }

    enum NilAnswer: Sendable, Equatable {
        case always
        case unlessCancelled
    }

    /// The handler passed by name to another function: `load(id: id, completion: completion)`.
    struct HandOff: Sendable, Equatable {
        var baseName: String
        /// The labels of the call's listed arguments, nil for unlabelled ones.
        var labels: [String?]
        var trailingClosures: Int
        /// The position of the handler among the call's arguments.
        var argumentPosition: Int?
        var location: MigrationIndex.Location
        /// The call is the value of `guard let x = call(..., handler) else { return }`, read as
        /// answering on the `else` path only (``HandlerUseAnalyzer/Assumption/helpersAnswerWhenNil``):
        /// true only when the callee answers exactly when it returns `nil`.
        var answersWhenNil = false

        func matches(_ callee: MigrationIndex.CompletionFunctionSummary) -> Bool {
            matches(argumentLabels: callee.argumentLabels)
        }

        /// Whether a function with these argument labels takes the call's arguments.
        func matches(argumentLabels: [String?]) -> Bool {
            guard argumentLabels.count == labels.count + trailingClosures else { return false }
            return zip(argumentLabels, labels).allSatisfy { $0.0 == $0.1 }
        }
    }

    /// Counts a hand-off as the calls the callee makes (it was counted as one).
    mutating func settle(_ handOff: HandOff, calls: Int) {
        if calls >= 2 {
            maximum = 2
            repeatAt = repeatAt ?? handOff.location
        }
    }

    var verdict: MigrationIndex.HandlerCalls {
        if !referenced { return .never }
        if maximum >= 2, let repeatAt { return .mayRepeat(repeatAt) }
        if let missingAt { return .mayNotCall(missingAt) }
        for store in stores where store.followed != .once {
            var type: String?
            var problem: String?
            if case .unknown(let known, let found)? = store.followed {
                type = known
                problem = found
            }
            return .stored(.init(target: store.target, type: type, problem: problem, location: store.location, through: store.through))
        }
        return .once
    }
}

/// Computes a ``HandlerUse`` from a function body.
struct HandlerUseAnalyzer {
    /// The handler's names (both of a split `success:`/`failure:` pair), and the names an
    /// optional handler is unwrapped into (`if let done = completion`).
    private(set) var names: Set<String>
    let fileName: String
    let converter: SourceLocationConverter
    private(set) var handOffs: [HandlerUse.HandOff] = []
    private(set) var stores: [HandlerUse.Store] = []
    private(set) var referenced = false
    /// No use of the handler so far outside a closure that runs later (``HandlerUse/callsBackOnlyLater``).
    private var usedOnlyLater = true
    /// The closures running later around the node being read.
    private var laterDepth = 0
    /// The closures around the node being read that decide where a use inside them answers,
    /// innermost last (``HandlerUse/placedUses``).
    private var placeContext: [PlaceContext] = []
    private var placedUses: [HandlerUse.PlacedUse] = []

    /// The function's parameters of a queue type (`DispatchQueue`, `OperationQueue`), whose
    /// `async { }` runs where its caller says.
    var queueParameters: Set<String> = []

    private enum PlaceContext {
        /// A closure run on the main queue or actor.
        case main
        /// A closure run on the queue a parameter names.
        case queueParameter(String)
        /// A closure run later elsewhere: another queue, a new task, a framework's callback.
        case elsewhere
        /// A closure handed to a call the index may know (a function of the tree).
        case through(HandlerUse.HandOff)
    }
    /// Functions declared in the body (`func next(_ cursor: String?) { ... }`): a call of one
    /// counts as the calls its body makes. One being analysed counts, where it calls itself, as
    /// the one call it makes by induction (each run calls the handler once, or recurses once).
    private var localFunctions: [String: FunctionDeclSyntax] = [:]
    private var localCalls: [String: Calls] = [:]
    private var analysingLocal: Set<String> = []
    /// Closures kept in a local constant (`let fail = { completion(nil) }`, real code's
    /// `failureBlock`): its code runs where the constant is called (or handed on), each time,
    /// not where it is declared; read there, in the context of that use.
    private var localClosures: [String: ClosureExprSyntax] = [:]
    private var readingClosures: Set<String> = []
    /// The local closure a name stands for here: none inside that closure's own code, where the
    /// name means what it meant before it (`let completion = { r in completion(r) }`).
    private func localClosure(named name: String) -> ClosureExprSyntax? {
        readingClosures.contains(name) ? nil : localClosures[name]
    }
    let reading: Reading
    /// Local names whose type the body shows (`let operation = FetchOperation()`).
    var localTypes: [String: String] = [:]
    /// What this reading assumes beyond the plain one.
    var assumptions: Set<Assumption> = []
    /// Whether the body has a shape an assumption reads differently.
    private(set) var sawNilAnswerGuard = false
    private(set) var sawCancellationTest = false

    /// Readings of a body beyond the plain one, each valid only where the index shows it holds.
    enum Assumption: Hashable, Sendable, CaseIterable {
        /// `guard let data = helper(..., handler) else { return }`: the helper answered on the
        /// `else` path and has not on the path after it (it answers exactly when it returns nil).
        case helpersAnswerWhenNil
        /// A branch taken for a cancelled request (`if error.code != NSURLErrorCancelled {
        /// completion(...) }`, `if error.code == NSURLErrorCancelled { return }`) that does not
        /// call the handler counts as answering it: the function returns a cancellable handle and
        /// its alternative answers the cancellation itself (the async form's `CancellableAnswer`,
        /// the promise form's `Promise(cancellation:)`).
        case cancellationAnswers
        /// `return value` (not `return nil`) counts as a call: with it, "called once on every
        /// path" says the handler is called exactly on the paths returning nil.
        case valueReturnAnswers
    }

    /// What the names stand for.
    enum Reading {
        /// A parameter of the function: `x.completion` is some other property, and storing the
        /// handler (`x.completion = completion`) is recorded as a ``HandlerUse/Store``.
        case parameter
        /// A stored property of the enclosing type, called in one of its methods: `self.completion`
        /// is it, and so is `completion` unless a parameter of the method hides it; assigning it
        /// (`completion = nil`) is no call.
        case property(bareNameToo: Bool)
    }

    init(names: Set<String>, fileName: String, converter: SourceLocationConverter, reading: Reading = .parameter) {
        self.names = names
        self.fileName = fileName
        self.converter = converter
        self.reading = reading
    }

    /// A range of call counts over a set of paths, with witnesses: UTF-8 offsets in the file,
    /// made locations only for the verdict (so combining paths copies no strings).
    struct Calls {
        var minimum = 0
        var maximum = 0
        var firstCall: Int?
        var repeatAt: Int?
        var missingAt: Int?

        static let zero = Calls()

        static func one(at place: Int) -> Calls {
            Calls(minimum: 1, maximum: 1, firstCall: place)
        }

        /// These calls, then those.
        func then(_ next: Calls) -> Calls {
            var result = Calls(minimum: minimum + next.minimum, maximum: min(2, maximum + next.maximum))
            result.firstCall = firstCall ?? next.firstCall
            result.repeatAt = repeatAt ?? next.repeatAt ?? (maximum >= 1 && next.maximum >= 1 ? next.firstCall : nil)
            // A path that ends without a call stays one only if nothing before it called.
            result.missingAt = result.minimum == 0 ? (next.missingAt ?? missingAt) : nil
            return result
        }

        /// Either these paths or those.
        func or(_ other: Calls) -> Calls {
            Calls(minimum: Swift.min(minimum, other.minimum), maximum: Swift.max(maximum, other.maximum),
                  firstCall: firstCall ?? other.firstCall, repeatAt: repeatAt ?? other.repeatAt,
                  missingAt: (minimum == 0 ? missingAt : nil) ?? (other.minimum == 0 ? other.missingAt : nil))
        }

        /// Any number of times (a loop body, a `forEach` closure).
        func repeated() -> Calls {
            guard maximum >= 1 else { return Calls(minimum: 0, maximum: 0, missingAt: missingAt) }
            return Calls(minimum: 0, maximum: 2, firstCall: firstCall, repeatAt: repeatAt ?? firstCall, missingAt: missingAt)
        }
    }

    /// Paths through statements: those that reach the end, and those that left by `return`.
    struct Paths {
        var falling: Calls?
        var exiting: Calls?

        var all: Calls {
            switch (falling, exiting) {
            case (let falling?, let exiting?): return falling.or(exiting)
            case (let falling?, nil): return falling
            case (nil, let exiting?): return exiting
            case (nil, nil): return .zero
            }
        }

        func or(_ other: Paths) -> Paths {
            Paths(falling: Self.join(falling, other.falling), exiting: Self.join(exiting, other.exiting))
        }

        static func join(_ lhs: Calls?, _ rhs: Calls?) -> Calls? {
            guard let lhs else { return rhs }
            guard let rhs else { return lhs }
            return lhs.or(rhs)
        }
    }

    func location(of node: some SyntaxProtocol) -> MigrationIndex.Location {
        location(at: place(of: node))
    }

    /// Where the node starts, after its leading trivia (where `startLocation` puts it).
    private func place(of node: some SyntaxProtocol) -> Int {
        node.positionAfterSkippingLeadingTrivia.utf8Offset
    }

    private func location(at place: Int) -> MigrationIndex.Location {
        let location = converter.location(for: AbsolutePosition(utf8Offset: place))
        return MigrationIndex.Location(file: fileName, line: location.line, column: location.column)
    }

    /// The use of `names` by a function body: the plain reading, with the readings under the
    /// assumptions the body's shapes call for (``HandlerUse/readings``), and for a function
    /// returning an optional whether it answers exactly when it returns `nil`.
    static func read(body: CodeBlockSyntax, names: Set<String>, fileName: String, converter: SourceLocationConverter,
                     returnsOptional: Bool, queueParameters: Set<String> = []) -> HandlerUse {
        var analyzer = HandlerUseAnalyzer(names: names, fileName: fileName, converter: converter)
        analyzer.queueParameters = queueParameters
        var use = analyzer.analyze(body: body)
        func reading(_ assumptions: Set<Assumption>) -> HandlerUse {
            var other = HandlerUseAnalyzer(names: names, fileName: fileName, converter: converter)
            other.assumptions = assumptions
            return other.analyze(body: body)
        }
        var kinds: [Set<Assumption>] = []
        if analyzer.sawNilAnswerGuard { kinds.append([.helpersAnswerWhenNil]) }
        if analyzer.sawCancellationTest { kinds.append([.cancellationAnswers]) }
        if kinds.count == 2 { kinds.append([.helpersAnswerWhenNil, .cancellationAnswers]) }
        for kind in kinds { use.readings[kind] = reading(kind) }
        if returnsOptional && use.referenced {
            // Answered on the paths returning nil, and only there: once on every path when a
            // returned value counts as a call. Its own direct calls only.
            func answersWhenNil(_ reading: HandlerUse) -> Bool {
                reading.verdict == .once && reading.handOffs.isEmpty && reading.stores.isEmpty
            }
            if answersWhenNil(reading([.valueReturnAnswers])) {
                use.answersWhenReturningNil = .always
            } else if analyzer.sawCancellationTest, answersWhenNil(reading([.valueReturnAnswers, .cancellationAnswers])) {
                use.answersWhenReturningNil = .unlessCancelled
            }
        }
        return use
    }

    /// The use of the handler by a whole function body.
    mutating func analyze(body: CodeBlockSyntax) -> HandlerUse {
        analyze(statements: body.statements, rightBrace: body.rightBrace)
    }

    /// The use of the resolver by the body of `Promise { seal in ... }`, which runs once, at once.
    mutating func analyze(closure: ClosureExprSyntax) -> HandlerUse {
        analyze(statements: closure.statements, rightBrace: closure.rightBrace)
    }

    private mutating func analyze(statements: CodeBlockItemListSyntax, rightBrace: TokenSyntax) -> HandlerUse {
        let body = (statements: statements, rightBrace: rightBrace)
        for item in body.statements {
            if let local = item.item.as(FunctionDeclSyntax.self), local.body != nil, !names.contains(local.name.text) {
                localFunctions[local.name.text] = local
            }
        }
        var paths = block(Array(body.statements), inClosure: false)
        if var falling = paths.falling, falling.minimum == 0, falling.missingAt == nil {
            falling.missingAt = place(of: body.rightBrace)
            paths.falling = falling
        }
        let total = paths.all
        return HandlerUse(minimum: total.minimum, maximum: total.maximum, repeatAt: total.repeatAt.map(location(at:)),
                          missingAt: total.missingAt.map(location(at:)), handOffs: handOffs, referenced: referenced, stores: stores,
                          callsBackOnlyLater: referenced && usedOnlyLater, placedUses: placedUses)
    }

    // MARK: - Statements

    private mutating func block(_ items: [CodeBlockItemSyntax], inClosure: Bool) -> Paths {
        // A local closure is known in the block declaring it (and the blocks inside it) only.
        let outerClosures = localClosures
        defer { localClosures = outerClosures }
        var falling = Calls.zero
        var exiting: Calls?
        var deferred = Calls.zero
        // Actions added to one alert in a row: the user taps one of them.
        var alertActions: (alert: String, calls: Calls)?
        for item in items {
            if let deferStatement = item.item.as(DeferStmtSyntax.self) {
                deferred = deferred.then(block(Array(deferStatement.body.statements), inClosure: inClosure).all)
                continue
            }
            if let alert = Self.alertActionReceiver(item) {
                let calls = statement(item.item, inClosure: inClosure).all
                if let group = alertActions, group.alert == alert {
                    alertActions = (alert, group.calls.or(calls))
                } else {
                    if let group = alertActions { falling = falling.then(group.calls) }
                    alertActions = (alert, calls)
                }
                continue
            }
            if let group = alertActions {
                falling = falling.then(group.calls)
                alertActions = nil
            }
            let paths = statement(item.item, inClosure: inClosure)
            if let leaving = paths.exiting {
                exiting = Paths.join(exiting, falling.then(leaving))
            }
            guard let next = paths.falling else {
                return Paths(falling: nil, exiting: exiting.map { $0.then(deferred) })
            }
            falling = falling.then(next)
        }
        if let group = alertActions { falling = falling.then(group.calls) }
        return Paths(falling: falling.then(deferred), exiting: exiting.map { $0.then(deferred) })
    }

    /// `alert.addAction(UIAlertAction(title: ..., style: ..., handler: { ... }))`: the alert's
    /// name. Of the actions added to an alert, the user taps one (nextcloud's permission prompts
    /// answer `completion(false)` from "Open Settings" and from "Cancel").
    static func alertActionReceiver(_ item: CodeBlockItemSyntax) -> String? {
        guard let call = PyramidReader.callStatement(item),
              let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "addAction",
              let receiver = member.base?.as(DeclReferenceExprSyntax.self), call.arguments.count == 1,
              let action = call.arguments.first?.expression.as(FunctionCallExprSyntax.self),
              action.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "UIAlertAction" else { return nil }
        return receiver.baseName.text
    }

    private mutating func statement(_ node: CodeBlockItemSyntax.Item, inClosure: Bool) -> Paths {
        switch node {
        case .stmt(let statement):
            return self.statement(statement, inClosure: inClosure)
        case .expr(let expression):
            return self.expression(expression, inClosure: inClosure)
        case .decl(let declaration):
            if declaration.is(FunctionDeclSyntax.self) { return Paths(falling: .zero) }
            if let conditional = declaration.as(IfConfigDeclSyntax.self) { return clauses(of: conditional, inClosure: inClosure) }
            if let variable = declaration.as(VariableDeclSyntax.self) {
                if let (name, closure) = Self.localClosure(variable) {
                    localClosures[name] = closure
                    return Paths(falling: .zero)
                }
                noteLocalTypes(variable)
            }
            return Paths(falling: calls(in: declaration, inClosure: inClosure))
        }
    }

    private mutating func statement(_ node: StmtSyntax, inClosure: Bool) -> Paths {
        if let returnStatement = node.as(ReturnStmtSyntax.self) {
            var calls = returnStatement.expression.map { self.calls(in: $0, inClosure: inClosure) } ?? .zero
            if assumptions.contains(.valueReturnAnswers), !inClosure, let value = returnStatement.expression,
               !value.is(NilLiteralExprSyntax.self) {
                calls = calls.then(.one(at: place(of: returnStatement)))
            }
            if !inClosure && calls.minimum == 0 { calls.missingAt = calls.missingAt ?? place(of: returnStatement) }
            return Paths(falling: nil, exiting: calls)
        }
        if let throwStatement = node.as(ThrowStmtSyntax.self) {
            // A synchronous throw answers the caller instead of the handler.
            var calls = self.calls(in: throwStatement.expression, inClosure: inClosure)
            calls.minimum = 1
            return Paths(falling: nil, exiting: calls)
        }
        if node.is(BreakStmtSyntax.self) || node.is(ContinueStmtSyntax.self) || node.is(FallThroughStmtSyntax.self) {
            return Paths(falling: .zero)
        }
        if let expressionStatement = node.as(ExpressionStmtSyntax.self) {
            return expression(expressionStatement.expression, inClosure: inClosure)
        }
        if let guardStatement = node.as(GuardStmtSyntax.self) {
            let (conditions, onlyUnwrapsHandler) = self.conditions(guardStatement.conditions, inClosure: inClosure)
            // `guard let completion else { return }`: an alternative always passes a handler, so
            // the `else` never runs for it.
            if onlyUnwrapsHandler { return Paths(falling: conditions, exiting: nil) }
            // The hand-off is the condition's only use of the handler.
            if conditions.maximum == 1, conditions.minimum == 1, let answering = nilAnsweringHandOff(guardStatement) {
                sawNilAnswerGuard = true
                if assumptions.contains(.helpersAnswerWhenNil) {
                    // The helper's call answers on the `else` path only.
                    handOffs[answering].answersWhenNil = true
                    let elsePaths = block(Array(guardStatement.body.statements), inClosure: inClosure)
                    let leaving = Paths.join(elsePaths.exiting, elsePaths.falling).map { conditions.then($0) }
                    var falling = conditions
                    falling.minimum = 0
                    falling.maximum = 0
                    falling.firstCall = nil
                    return Paths(falling: falling, exiting: leaving)
                }
            }
            var elsePaths = block(Array(guardStatement.body.statements), inClosure: inClosure)
            if cancellationBranch(of: guardStatement.conditions) == .otherwise, elsePaths.all.maximum == 0 {
                sawCancellationTest = true
                // `guard error.code != NSURLErrorCancelled else { return }`.
                if assumptions.contains(.cancellationAnswers) { elsePaths = Self.answered(elsePaths, at: place(of: guardStatement)) }
            }
            // The else branch leaves the scope, whichever way it does.
            let leaving = Paths.join(elsePaths.exiting, elsePaths.falling).map { conditions.then($0) }
            return Paths(falling: conditions, exiting: leaving)
        }
        if let forStatement = node.as(ForStmtSyntax.self) {
            let sequence = calls(in: forStatement.sequence, inClosure: inClosure)
            return loop(sequence, Array(forStatement.body.statements), inClosure: inClosure)
        }
        if let whileStatement = node.as(WhileStmtSyntax.self) {
            let conditions = calls(in: whileStatement.conditions, inClosure: inClosure)
            return loop(conditions, Array(whileStatement.body.statements), inClosure: inClosure)
        }
        if let repeatStatement = node.as(RepeatStmtSyntax.self) {
            let condition = calls(in: repeatStatement.condition, inClosure: inClosure)
            return loop(condition, Array(repeatStatement.body.statements), inClosure: inClosure)
        }
        if let doStatement = node.as(DoStmtSyntax.self) {
            let items = Array(doStatement.body.statements)
            var paths = block(items, inClosure: inClosure)
            guard !doStatement.catchClauses.isEmpty else { return paths }
            // A catch clause runs after whatever the body did before it threw, not instead of it.
            let beforeThrowing = callsBeforeThrowing(items, inClosure: inClosure)
            for clause in doStatement.catchClauses {
                let caught = block(Array(clause.body.statements), inClosure: inClosure)
                paths = paths.or(Paths(falling: caught.falling.map { beforeThrowing.then($0) },
                                       exiting: caught.exiting.map { beforeThrowing.then($0) }))
            }
            return paths
        }
        if let labeled = node.as(LabeledStmtSyntax.self) {
            return statement(labeled.statement, inClosure: inClosure)
        }
        return Paths(falling: calls(in: node, inClosure: inClosure))
    }

    /// `#if` / `#elseif` / `#else`: one clause is compiled, so the clauses are alternatives; without
    /// `#else`, none of them may be (an empty clause).
    private mutating func clauses(of conditional: IfConfigDeclSyntax, inClosure: Bool) -> Paths {
        var paths: Paths?
        var hasElse = false
        for clause in conditional.clauses {
            if clause.poundKeyword.tokenKind == .poundElse { hasElse = true }
            let clausePaths: Paths
            switch clause.elements {
            case .statements(let items)?:
                clausePaths = block(Array(items), inClosure: inClosure)
            case let elements?:
                clausePaths = Paths(falling: calls(in: elements, inClosure: inClosure))
            case nil:
                clausePaths = Paths(falling: .zero)
            }
            paths = paths.map { $0.or(clausePaths) } ?? clausePaths
        }
        let empty = Paths(falling: .zero)
        guard let paths else { return empty }
        return hasElse ? paths : paths.or(empty)
    }

    /// The calls a `do` body can make before it throws to its `catch`: the calls of the statements
    /// before each statement that can throw (`try`, not `try?` or `try!`, or `throw`), plus any of
    /// that statement's own calls when it is compound (an `if`, a loop: a call in it can come
    /// before the throw). The calls of a plain statement (`completion(.success(try decode()))`,
    /// `let value = try decode()`) come after its `try` is evaluated, so not before the throw.
    /// Nothing when no statement can throw.
    private mutating func callsBeforeThrowing(_ items: [CodeBlockItemSyntax], inClosure: Bool) -> Calls {
        // The statements are read a second time: what that records again is dropped.
        let (handOffCount, storeCount) = (handOffs.count, stores.count)
        defer {
            handOffs.removeSubrange(handOffCount...)
            stores.removeSubrange(storeCount...)
        }
        var reaching: Calls? = .zero
        var result: Calls?
        for item in items {
            guard let before = reaching else { break }
            let paths = statement(item.item, inClosure: inClosure)
            if Self.canThrow(Syntax(item.item)) {
                var here = before
                if Self.isCompound(item.item) {
                    var inner = paths.all
                    inner.minimum = 0
                    inner.missingAt = nil
                    here = before.then(inner)
                }
                result = result.map { $0.or(here) } ?? here
            }
            reaching = paths.falling.map { before.then($0) }
        }
        var calls = result ?? .zero
        calls.missingAt = nil
        return calls
    }

    /// A statement whose own calls can come before a throw in it: not an expression, declaration,
    /// `return` or `throw` (an `if` or `switch` expression is one).
    private static func isCompound(_ item: CodeBlockItemSyntax.Item) -> Bool {
        switch item {
        case .decl(let declaration):
            return declaration.is(IfConfigDeclSyntax.self)
        case .expr(let expression):
            return expression.is(IfExprSyntax.self) || expression.is(SwitchExprSyntax.self)
        case .stmt(let statement):
            if let expression = statement.as(ExpressionStmtSyntax.self)?.expression {
                return expression.is(IfExprSyntax.self) || expression.is(SwitchExprSyntax.self)
            }
            return !statement.is(ReturnStmtSyntax.self) && !statement.is(ThrowStmtSyntax.self)
        }
    }

    /// Whether a `try` (not `try?`/`try!`) or `throw` in the node, outside closures and local
    /// functions, can throw.
    static func canThrow(_ node: Syntax) -> Bool {
        if let attempt = node.as(TryExprSyntax.self), attempt.questionOrExclamationMark == nil { return true }
        if node.is(ThrowStmtSyntax.self) { return true }
        if node.is(ClosureExprSyntax.self) || node.is(FunctionDeclSyntax.self) || node.is(TokenSyntax.self) { return false }
        return node.children(viewMode: .sourceAccurate).contains { canThrow($0) }
    }

    private mutating func loop(_ head: Calls, _ body: [CodeBlockItemSyntax], inClosure: Bool) -> Paths {
        let paths = block(body, inClosure: inClosure)
        // The body runs any number of times; a path that leaves it stops the repetition.
        let falling = paths.falling.map { $0.repeated() } ?? .zero
        return Paths(falling: head.then(falling), exiting: paths.exiting.map { head.then(falling).then($0) })
    }

    /// The calls in an `if` or `guard` condition list, where unwrapping an optional handler
    /// (`let completion = completion`, `let completion`, `let done = completion`) is no call: the
    /// name it binds is the handler from there on. Whether the list does nothing else.
    private mutating func conditions(_ list: ConditionElementListSyntax, inClosure: Bool) -> (Calls, onlyUnwrapsHandler: Bool) {
        var result = Calls.zero
        var unwraps = 0
        for element in list {
            if case .optionalBinding(let binding) = element.condition,
               let bound = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
                let source: String? = if let initializer = binding.initializer {
                    initializer.value.as(DeclReferenceExprSyntax.self).flatMap { $0.argumentNames == nil ? $0.baseName.text : nil }
                } else {
                    bound
                }
                if let source, names.contains(source) {
                    names.insert(bound)
                    referenced = true
                    unwraps += 1
                    continue
                }
            }
            result = result.then(calls(in: element, inClosure: inClosure))
        }
        return (result, unwraps > 0 && unwraps == list.count)
    }

    // MARK: - Expressions

    private mutating func expression(_ node: ExprSyntax, inClosure: Bool) -> Paths {
        if let ifExpression = node.as(IfExprSyntax.self) {
            let (conditions, onlyUnwrapsHandler) = self.conditions(ifExpression.conditions, inClosure: inClosure)
            var paths = block(Array(ifExpression.body.statements), inClosure: inClosure)
            // `if let completion = completion { ... }`: the handler an alternative passes is never nil.
            if onlyUnwrapsHandler {
                return Paths(falling: paths.falling.map { conditions.then($0) }, exiting: paths.exiting.map { conditions.then($0) })
            }
            let cancelled = cancellationBranch(of: ifExpression.conditions)
            if cancelled == .body, paths.all.maximum == 0 {
                sawCancellationTest = true
                if assumptions.contains(.cancellationAnswers) { paths = Self.answered(paths, at: place(of: ifExpression)) }
            }
            var elsePaths: Paths
            switch ifExpression.elseBody {
            case .ifExpr(let elseIf):
                elsePaths = expression(ExprSyntax(elseIf), inClosure: inClosure)
            case .codeBlock(let elseBlock):
                elsePaths = block(Array(elseBlock.statements), inClosure: inClosure)
            case nil:
                elsePaths = Paths(falling: .zero)
            }
            if cancelled == .otherwise, elsePaths.all.maximum == 0 {
                sawCancellationTest = true
                if assumptions.contains(.cancellationAnswers) { elsePaths = Self.answered(elsePaths, at: place(of: ifExpression)) }
            }
            paths = paths.or(elsePaths)
            return Paths(falling: paths.falling.map { conditions.then($0) }, exiting: paths.exiting.map { conditions.then($0) })
        }
        if let switchExpression = node.as(SwitchExprSyntax.self) {
            let subject = calls(in: switchExpression.subject, inClosure: inClosure)
            var paths: Paths?
            for casePaths in cases(switchExpression.cases, inClosure: inClosure) {
                paths = paths.map { $0.or(casePaths) } ?? casePaths
            }
            let result = paths ?? Paths(falling: .zero)
            return Paths(falling: result.falling.map { subject.then($0) }, exiting: result.exiting.map { subject.then($0) })
        }
        if let call = node.as(FunctionCallExprSyntax.self), let callee = call.calledExpression.as(DeclReferenceExprSyntax.self),
           ["fatalError", "preconditionFailure"].contains(callee.baseName.text) {
            var calls = calls(in: node, inClosure: inClosure)
            calls.minimum = 1
            return Paths(falling: nil, exiting: calls)
        }
        return Paths(falling: calls(in: node, inClosure: inClosure))
    }

    /// The paths of each case of a switch, those inside `#if` clauses too (every case is an
    /// alternative, whichever clause is compiled).
    private mutating func cases(_ list: SwitchCaseListSyntax, inClosure: Bool) -> [Paths] {
        var result: [Paths] = []
        for element in list {
            switch element {
            case .switchCase(let switchCase):
                result.append(block(Array(switchCase.statements), inClosure: inClosure))
            case .ifConfigDecl(let conditional):
                for clause in conditional.clauses {
                    if case .switchCases(let nested)? = clause.elements {
                        result += cases(nested, inClosure: inClosure)
                    } else if let elements = clause.elements {
                        result.append(Paths(falling: calls(in: elements, inClosure: inClosure)))
                    }
                }
            }
        }
        return result
    }

    /// The calls of a sequence of operands and operators with a ternary (`ok ? success(v) :
    /// failure(e)`, unfolded as the parser leaves it): what comes before the first `?` (its
    /// condition, and an assignment's target), then either its `then` branch or the rest, which is
    /// the `else` branch (only an assignment binds more loosely than `?:`).
    private mutating func ternaryCalls(_ elements: ArraySlice<ExprSyntax>, inClosure: Bool) -> Calls {
        guard let position = elements.firstIndex(where: { $0.is(UnresolvedTernaryExprSyntax.self) }),
              let ternary = elements[position].as(UnresolvedTernaryExprSyntax.self) else {
            var result = Calls.zero
            for element in elements { result = result.then(calls(in: element, inClosure: inClosure)) }
            return result
        }
        var condition = Calls.zero
        for element in elements[..<position] { condition = condition.then(calls(in: element, inClosure: inClosure)) }
        let thenCalls = calls(in: ternary.thenExpression, inClosure: inClosure)
        let elseCalls = ternaryCalls(elements[(position + 1)...], inClosure: inClosure)
        return condition.then(thenCalls.or(elseCalls))
    }

    /// The calls an expression (or any other node) makes, its closures included, in order.
    private mutating func calls(in node: some SyntaxProtocol, inClosure: Bool) -> Calls {
        // A token has no calls in it (most of the nodes walked are tokens).
        if node.is(TokenSyntax.self) { return .zero }
        var result = Calls.zero
        // A local closure's code where it is called (`fail()`) or handed on (`execute: fail`),
        // one named like the handler included (`let completion = { r in completion() }`: inside
        // it, the name is still the handler).
        if let reference = node.as(DeclReferenceExprSyntax.self), reference.argumentNames == nil,
           reference.parent?.as(MemberAccessExprSyntax.self).map({ $0.declName.id != reference.id }) ?? true,
           let closure = localClosure(named: reference.baseName.text) {
            readingClosures.insert(reference.baseName.text)
            defer { readingClosures.remove(reference.baseName.text) }
            var calls = block(Array(closure.statements), inClosure: true).all
            // A second call of it is a second call here.
            if calls.maximum >= 1 { calls.firstCall = place(of: reference) }
            return calls
        }
        if let reference = node.as(DeclReferenceExprSyntax.self), names.contains(reference.baseName.text), reference.argumentNames == nil,
           isHandler(reference) {
            if laterDepth == 0 { usedOnlyLater = false }
            if case .property = reading {
                // `completion = nil`, `self.completion = completion`: set, not called.
                let whole = reference.parent?.as(MemberAccessExprSyntax.self).map(ExprSyntax.init) ?? ExprSyntax(reference)
                if Self.isAssigned(whole) { return .zero }
            } else if let store = store(of: reference) {
                // Kept for later: counted as the one call it stands for until the index follows it.
                stores.append(store)
                placedUses.append(.init(place: .elsewhere))
                referenced = true
                return .one(at: place(of: reference))
            }
            referenced = true
            let handOff = handOffIfArgument(reference)
            placeUse(reference, handedTo: handOff.handOff, onMain: handOff.onMain)
            return .one(at: place(of: reference)).then(handOff.calls)
        }
        if let sequence = node.as(SequenceExprSyntax.self), sequence.elements.contains(where: { $0.is(UnresolvedTernaryExprSyntax.self) }) {
            return ternaryCalls(Array(sequence.elements)[...], inClosure: inClosure)
        }
        // `let x = if ... else ...`, `return switch ...`: arms are alternatives here too.
        if node.is(IfExprSyntax.self) || node.is(SwitchExprSyntax.self), let expression = node.as(ExprSyntax.self) {
            return self.expression(expression, inClosure: inClosure).all
        }
        if let closure = node.as(ClosureExprSyntax.self) {
            let timing = ClosureTiming.of(closure)
            let later = timing == .later
            if later { laterDepth += 1 }
            let context = placeContext(of: closure, timing: timing)
            if let context { placeContext.append(context) }
            var calls = block(Array(closure.statements), inClosure: true).all
            if context != nil { placeContext.removeLast() }
            if later { laterDepth -= 1 }
            // A callback that may not call: trusted (see the type's comment).
            if calls.maximum >= 1 { calls.minimum = max(calls.minimum, 1) }
            if let call = closure.parent?.as(FunctionCallExprSyntax.self) ?? closure.parent?.parent?.parent?.as(FunctionCallExprSyntax.self),
               let member = call.calledExpression.as(MemberAccessExprSyntax.self),
               Self.iterating.contains(member.declName.baseName.text) {
                calls = calls.repeated()
            }
            return calls
        }
        if let ternary = node.as(TernaryExprSyntax.self) {
            let condition = calls(in: ternary.condition, inClosure: inClosure)
            let branches = calls(in: ternary.thenExpression, inClosure: inClosure).or(calls(in: ternary.elseExpression, inClosure: inClosure))
            return condition.then(branches)
        }
        if node.is(FunctionDeclSyntax.self) { return .zero }
        if let call = node.as(FunctionCallExprSyntax.self), let callee = call.calledExpression.as(DeclReferenceExprSyntax.self),
           let local = localFunctions[callee.baseName.text] {
            let arguments = calls(in: call.arguments, inClosure: inClosure)
            return arguments.then(callsOfLocal(local, at: place(of: call)))
        }
        // `promise.done { D }.catch { C }`: a promise chain's ending runs one of the two (a `done`
        // whose code cannot throw hands no error on to the `catch`), as `success:`/`failure:` do.
        if let call = node.as(FunctionCallExprSyntax.self), let (before, done, caught) = Self.doneCatch(call) {
            let ending = calls(in: done, inClosure: inClosure).or(calls(in: caught, inClosure: inClosure))
            return calls(in: before, inClosure: inClosure).then(ending)
        }
        // Several closures handed to one call are its alternative outcomes (`success:`/`failure:`,
        // `then:`/`catch:`): one of them runs, so they count as either, not as both. So are the
        // two halves of a split pair handed on together (`fetch(url, failure: failure, success:
        // success)`), or one half beside a closure (`fetch(url, failure: failure) { ... }`), and
        // local closures handed on so.
        if let call = node.as(FunctionCallExprSyntax.self) {
            var handedOn: Set<String> = []
            let isOutcome = { (argument: LabeledExprSyntax) -> Bool in
                if argument.expression.is(ClosureExprSyntax.self) { return true }
                guard let reference = argument.expression.as(DeclReferenceExprSyntax.self), reference.argumentNames == nil else { return false }
                let name = reference.baseName.text
                // A local closure handed on is a closure too (`success: onSuccess, failure: onFailure`).
                let isLocalClosure = self.localClosure(named: name) != nil
                guard isLocalClosure || (self.names.contains(name) && self.isHandler(reference)) else { return false }
                return handedOn.insert(name).inserted
            }
            // (`Array` first: a syntax collection's own `filter` makes a detached copy.)
            var outcomeArguments = Array(call.arguments).filter(isOutcome).map { Syntax($0.expression) }
            if let trailing = call.trailingClosure { outcomeArguments.append(Syntax(trailing)) }
            outcomeArguments += call.additionalTrailingClosures.map { Syntax($0.closure) }
            if outcomeArguments.count > 1 {
                let outcomeIDs = Set(outcomeArguments.map(\.id))
                result = calls(in: call.calledExpression, inClosure: inClosure)
                for argument in call.arguments where !outcomeIDs.contains(argument.expression.id) {
                    result = result.then(calls(in: argument, inClosure: inClosure))
                }
                var outcomes: Calls?
                for outcome in outcomeArguments {
                    let outcomeCalls = calls(in: outcome, inClosure: inClosure)
                    outcomes = outcomes.map { $0.or(outcomeCalls) } ?? outcomeCalls
                }
                return result.then(outcomes ?? .zero)
            }
            result = result.then(calls(in: call.calledExpression, inClosure: inClosure))
            result = result.then(calls(in: call.arguments, inClosure: inClosure))
            if let trailing = call.trailingClosure { result = result.then(calls(in: trailing, inClosure: inClosure)) }
            for additional in call.additionalTrailingClosures {
                result = result.then(calls(in: additional.closure, inClosure: inClosure))
            }
            return result
        }
        for child in node.children(viewMode: .sourceAccurate) {
            result = result.then(calls(in: child, inClosure: inClosure))
        }
        return result
    }

    /// `chain.done { D }.catch { C }` (`on:` and `policy:` aside): the chain before `done`, and the
    /// two closures, when `D`'s own code has no `try` or `throw` (else its error reaches `C` too).
    private static func doneCatch(_ call: FunctionCallExprSyntax) -> (ExprSyntax, ClosureExprSyntax, ClosureExprSyntax)? {
        guard let catchMember = call.calledExpression.as(MemberAccessExprSyntax.self), catchMember.declName.baseName.text == "catch",
              let caught = call.trailingClosure, call.additionalTrailingClosures.isEmpty,
              call.arguments.allSatisfy({ ["on", "policy"].contains($0.label?.text) }),
              let doneCall = catchMember.base?.as(FunctionCallExprSyntax.self),
              let doneMember = doneCall.calledExpression.as(MemberAccessExprSyntax.self), doneMember.declName.baseName.text == "done",
              let before = doneMember.base, let done = doneCall.trailingClosure, doneCall.additionalTrailingClosures.isEmpty,
              doneCall.arguments.allSatisfy({ $0.label?.text == "on" }), !canThrow(Syntax(done.statements)) else { return nil }
        return (before, done, caught)
    }

    /// `let fail = { ... }`: the one name a local constant gives a closure written in place.
    private static func localClosure(_ variable: VariableDeclSyntax) -> (String, ClosureExprSyntax)? {
        guard variable.bindingSpecifier.tokenKind == .keyword(.let), variable.bindings.count == 1, let binding = variable.bindings.first,
              let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
              let closure = binding.initializer?.value.as(ClosureExprSyntax.self) else { return nil }
        return (name, closure)
    }

    /// The calls a local function's body makes on every path (once worked out).
    private mutating func callsOfLocal(_ local: FunctionDeclSyntax, at place: Int) -> Calls {
        let name = local.name.text
        if analysingLocal.contains(name) { return .one(at: place) }
        if let known = localCalls[name] { return known }
        analysingLocal.insert(name)
        // Worked out once for every call of it: read as if called directly.
        let outerLaterDepth = laterDepth
        laterDepth = 0
        // Where it is called from is not followed: a use at its own level answers elsewhere.
        let outerPlaceContext = placeContext
        placeContext = [.elsewhere]
        let calls = block(Array(local.body?.statements ?? []), inClosure: false).all
        placeContext = outerPlaceContext
        laterDepth = outerLaterDepth
        analysingLocal.remove(name)
        localCalls[name] = calls
        return calls
    }

    private static let iterating: Set<String> = ["forEach", "map", "compactMap", "flatMap", "filter", "reduce", "sorted",
                                                  "first", "contains", "allSatisfy", "enumerateObjects"]

    /// Paths that did not call the handler, counted as one call at `place` (a cancelled request,
    /// which the alternative answers itself).
    private static func answered(_ paths: Paths, at place: Int) -> Paths {
        Paths(falling: paths.falling.map { $0.then(.one(at: place)) }, exiting: paths.exiting.map { $0.then(.one(at: place)) })
    }

    /// Which branch a one-condition `if` or `guard` takes for a cancelled request: `.body` for
    /// `x.code == NSURLErrorCancelled` (or `URLError.cancelled`, `.cancelled`), `.otherwise` for `!=`.
    private enum CancellationBranch { case body, otherwise }

    private func cancellationBranch(of conditions: ConditionElementListSyntax) -> CancellationBranch? {
        guard conditions.count == 1, case .expression(let expression) = conditions.first?.condition,
              let sequence = expression.as(SequenceExprSyntax.self), sequence.elements.count == 3 else { return nil }
        let elements = Array(sequence.elements)
        guard let operation = elements[1].as(BinaryOperatorExprSyntax.self)?.operator.text,
              operation == "==" || operation == "!=" else { return nil }
        // `.cancelled` alone only against an error's code (`(error as? URLError)?.code`), not
        // an app's own status (`order.code == .cancelled`).
        func isCancelled(_ side: ExprSyntax, against code: ExprSyntax) -> Bool {
            let text = side.trimmedDescription.filter { $0 != " " }
            if ["NSURLErrorCancelled", "URLError.cancelled", "URLError.Code.cancelled"].contains(text) { return true }
            guard text == ".cancelled", let base = code.as(MemberAccessExprSyntax.self)?.base else { return false }
            return base.trimmedDescription.lowercased().contains("err")
        }
        func readsCode(_ side: ExprSyntax) -> Bool {
            side.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "code"
        }
        guard (readsCode(elements[0]) && isCancelled(elements[2], against: elements[0]))
                || (readsCode(elements[2]) && isCancelled(elements[0], against: elements[2])) else { return nil }
        return operation == "==" ? .body : .otherwise
    }

    /// The position in ``handOffs`` of the hand-off `guard let x = helper(..., handler) else { ... }`
    /// makes, the guard's one condition binding the value of that one call.
    private func nilAnsweringHandOff(_ guardStatement: GuardStmtSyntax) -> Int? {
        guard guardStatement.conditions.count == 1, case .optionalBinding(let binding) = guardStatement.conditions.first?.condition,
              let call = binding.initializer?.value.as(FunctionCallExprSyntax.self) else { return nil }
        let start = call.positionAfterSkippingLeadingTrivia.utf8Offset
        let end = call.endPositionBeforeTrailingTrivia.utf8Offset
        let inside = handOffs.indices.filter { index in
            let offset = converter.position(ofLine: handOffs[index].location.line, column: handOffs[index].location.column).utf8Offset
            return offset >= start && offset < end
        }
        return inside.count == 1 ? inside[0] : nil
    }

    /// Records `other(..., completion: handler)`; the index later counts it as `other` calls its own.
    private mutating func handOffIfArgument(_ reference: DeclReferenceExprSyntax) -> (calls: Calls, handOff: HandlerUse.HandOff?, onMain: Bool) {
        guard let argument = reference.parent?.as(LabeledExprSyntax.self),
              let list = argument.parent?.as(LabeledExprListSyntax.self),
              let call = list.parent?.as(FunctionCallExprSyntax.self) else { return (.zero, nil, false) }
        guard let baseName = Self.calledName(call) else { return (.zero, nil, false) }
        let position = list.firstIndex { $0.id == argument.id }.map { list.distance(from: list.startIndex, to: $0) }
        let handOff = HandlerUse.HandOff(baseName: baseName, labels: list.map { $0.label?.text }, trailingClosures:
                                            (call.trailingClosure == nil ? 0 : 1) + call.additionalTrailingClosures.count,
                                         argumentPosition: position, location: location(of: reference))
        handOffs.append(handOff)
        // `DispatchQueue.main.async(execute: completion)` calls it on the main queue.
        if ClosureTiming.isMainHop(call) { return (.zero, nil, true) }
        return (.zero, handOff, false)
    }

    /// `load` of `load(...)` or `api.load(...)`; nil for any other called expression.
    private static func calledName(_ call: FunctionCallExprSyntax) -> String? {
        if let callee = call.calledExpression.as(DeclReferenceExprSyntax.self) { return callee.baseName.text }
        if let callee = call.calledExpression.as(MemberAccessExprSyntax.self) { return callee.declName.baseName.text }
        return nil
    }

    /// Where a closure runs, where that decides where a use inside it answers: nil for one run
    /// at once by the code around it (`forEach`, `map`, `Promise { seal in }`, a closure called
    /// in place), whose uses answer where that code does.
    private func placeContext(of closure: ClosureExprSyntax, timing: ClosureTiming) -> PlaceContext? {
        if ClosureTiming.runsOnMain(closure) { return .main }
        if timing == .later, let call = ClosureTiming.call(taking: closure), let queue = queueParameter(calling: call) {
            return .queueParameter(queue)
        }
        switch timing {
        case .later: return .elsewhere
        case .repeated, .bridge: return nil
        case .atOnceOrUnknown: break
        }
        guard let call = ClosureTiming.call(taking: closure) else { return nil }
        guard let baseName = Self.calledName(call) else { return .elsewhere }
        let labels = call.arguments.map { $0.label?.text }
        let position: Int?
        if let argument = closure.parent?.as(LabeledExprSyntax.self), let list = argument.parent?.as(LabeledExprListSyntax.self) {
            position = list.firstIndex { $0.id == argument.id }.map { list.distance(from: list.startIndex, to: $0) }
        } else if call.trailingClosure?.id == closure.id {
            position = labels.count
        } else {
            return .elsewhere
        }
        return .through(.init(baseName: baseName, labels: labels,
                              trailingClosures: (call.trailingClosure == nil ? 0 : 1) + call.additionalTrailingClosures.count,
                              argumentPosition: position, location: location(of: closure)))
    }

    /// `queue` of `queue.async { }`, `queue.asyncAfter(...)`, `queue.addOperation { }` where it
    /// names a queue parameter of the function.
    private func queueParameter(calling call: FunctionCallExprSyntax) -> String? {
        guard !queueParameters.isEmpty, let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              ["async", "asyncAfter", "addOperation"].contains(member.declName.baseName.text),
              let base = member.base?.as(DeclReferenceExprSyntax.self), queueParameters.contains(base.baseName.text) else { return nil }
        return base.baseName.text
    }

    /// Notes where a use answers (``HandlerUse/placedUses``): the innermost closure around it
    /// that decides, or the call it is handed to by name.
    private mutating func placeUse(_ reference: DeclReferenceExprSyntax, handedTo handOff: HandlerUse.HandOff?, onMain: Bool) {
        if onMain {
            placedUses.append(.init(place: .main))
            return
        }
        // `queue.async(execute: completion)`.
        if let argument = reference.parent?.as(LabeledExprSyntax.self), let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self),
           let queue = queueParameter(calling: call) {
            placedUses.append(.init(place: .queueParameter(queue)))
            return
        }
        if let handOff {
            placedUses.append(.init(place: placeAround(placeContext[...]), through: handOff))
            return
        }
        switch placeContext.last {
        case nil: placedUses.append(.init(place: .atOnce))
        case .main: placedUses.append(.init(place: .main))
        case .queueParameter(let queue): placedUses.append(.init(place: .queueParameter(queue)))
        case .elsewhere: placedUses.append(.init(place: .elsewhere))
        case .through(let call): placedUses.append(.init(place: placeAround(placeContext.dropLast()), through: call))
        }
    }

    /// Where code in `context` runs, as far as the body tells: a closure handed to a call answers
    /// wherever that call answers, taken as elsewhere here.
    private func placeAround(_ context: ArraySlice<PlaceContext>) -> HandlerUse.AnswerPlace {
        switch context.last {
        case nil: return .atOnce
        case .main: return .main
        case .elsewhere, .through, .queueParameter: return .elsewhere
        }
    }
}
