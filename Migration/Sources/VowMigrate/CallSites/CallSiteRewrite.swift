import SwiftSyntax

/// The call-site stage: finds statements that call completion-handler functions with a closure
/// (the pyramids), and replaces each with a flat promise chain or straight-line `try await`, or
/// reports why it was left alone.
///
/// Pyramids are looked for wherever statements are: the bodies of functions, initializers and
/// accessors, nested `if`, `switch`, `do`, `guard` and `#if` blocks, and closures of any kind (a
/// closure is a place of its own: a pyramid there becomes a chain or a `Task { }` there). A call
/// inside a loop (or a closure run per element) or inside an expression is reported, not changed;
/// so is one inside a bridge (`Promise { seal in }`, a continuation), which is never reported.
struct CallSiteRewrite {
    let bytes: [UInt8]
    let converter: SourceLocationConverter
    let target: MigrationTarget
    let catalog: CalleeCatalog
    let unit: String
    /// Byte ranges already rewritten by another stage (functions converted by `--replace`).
    let excluded: [Range<Int>]
    /// Functions `--replace` made async (``PromiseFunctionToAsync``): read as async functions,
    /// their statements holding what it rewrote left alone.
    var madeAsync: [Range<Int>] = []

    private(set) var edits: [TextEdit] = []
    private(set) var findings: [Finding] = []
    /// Forwarding callbacks left alone, and the calls converted (``ForwardingFacts``).
    private(set) var forwarding = ForwardingFacts()
    /// The calls the last ``convertInline(_:call:matched:context:loop:)`` awaited.
    private var lastInlineCalls: [FunctionCallExprSyntax] = []
    /// Where the declarations stage spelled out a handler that a call left out, unless the
    /// rewritten statements carry that text themselves (``StatementText/insertions``): a statement
    /// holding one is left alone, since converting it would copy the call without it.
    var spelledOutOffsets: [Int] = []
    /// For a piece of a large file: the names a type cut in pieces declares in the other pieces,
    /// by the offset of its body's `{`.
    var otherPiecesMembers: [Int: Set<String>] = [:]
    /// The file imports Vow: its async alternatives throw `PMKError.invalidCallingConvention` for
    /// neither a value nor an error.
    var importsVow = false
    /// Swift 6 mode: a `Task` may not capture non-`Sendable` state the code after it uses.
    var checksSendable = false
    /// ``MigrationOptions/earlyDeployment``: the async form of a fan-out is left alone for it.
    var earlyDeployment: String?
    /// The file imports XCTest: a wait for expectations right after a call is the test waiting
    /// for its callback (``waitsForExpectations(_:)``).
    private var importsXCTest = false
    /// Each type body's names, read once (the stage asks for them at every loop and callback).
    private let memberNames = MemberNameCache()
    /// The bodies of local functions a sequential loop replaced (``SequentialLoop``): not places
    /// of their own any more.
    private var loopBodies: [Range<Int>] = []

    init(bytes: [UInt8], converter: SourceLocationConverter, target: MigrationTarget, catalog: CalleeCatalog,
         unit: String, excluded: [Range<Int>]) {
        self.bytes = bytes
        self.converter = converter
        self.target = target
        self.catalog = catalog
        self.unit = unit
        self.excluded = excluded
    }

    /// Whether a converted call site needs `import Vow`.
    var needsVow: Bool { target == .promise && findings.contains { $0.kind == .callSiteConverted } }

    mutating func run(_ tree: SourceFileSyntax) {
        importsXCTest = FileSummary.imports("XCTest", tree)
        let finder = FunctionBodyFinder()
        finder.walk(tree)
        for function in finder.functions {
            let range = function.body.position.utf8Offset..<function.body.endPosition.utf8Offset
            let madeAsync = madeAsync.contains { $0.contains(range.lowerBound) && $0.contains(range.upperBound - 1) }
                && !loopBodies.contains(where: { $0.overlaps(range) })
            if !madeAsync, excluded.contains(where: { $0.overlaps(range) }) || loopBodies.contains(where: { $0.overlaps(range) }) { continue }
            var context = Context(function: function, isAsync: function.isAsync || madeAsync, failureTypes: 0)
            context.skipsRewritten = madeAsync
            if target == .async && !context.isAsync, let parameters = function.parameters {
                // A caller running code after this function returns would run it before a new
                // `Task` here makes its first call (and, where the callee answers at once, before
                // the callback's code).
                let typeName = Self.enclosingTypeName(function.body)
                context.callerCodeAfter = catalog.callWithCodeAfter(function.swiftName, parameters: parameters, typeName: typeName)
                // Unless the run converts that caller's call (a second run would not find it).
                if context.callerCodeAfter != nil {
                    let waiting = ForwardingFacts.Function(swiftName: function.swiftName, typeName: typeName, parameters: parameters)
                    if catalog.codeAfterCleared.contains(waiting.key) {
                        context.callerCodeAfter = nil
                    } else {
                        forwarding.waitingOnCallers.append(waiting)
                    }
                }
            }
            if methodLoop(function, context: &context) { continue }
            process(function.body.statements, codeAfter: false, context: &context)
        }
        reportTopLevelCode(tree)
    }

    /// Calls of completion-handler functions and promise chains in the file's top-level code (a
    /// `main.swift`), in its closures too: no function holds them, so they are not converted,
    /// but each is reported where it is.
    private mutating func reportTopLevelCode(_ tree: SourceFileSyntax) {
        let finder = TopLevelStatementFinder(viewMode: .sourceAccurate)
        finder.walk(tree)
        let reason = "the call is in the file's top-level code, which is not converted; move it into a function to convert it"
        for call in finder.calls {
            let reaches: Bool
            switch reader.matchByShape(call) {
            case .call, .ambiguous: reaches = true
            case .none: reaches = target == .async && ChainToAsync(bytes: bytes, catalog: catalog).isConvertibleChain(call)
            }
            guard reaches else { continue }
            let location = call.startLocation(converter: converter)
            findings.append(Finding(kind: .callSiteRefused, function: "top-level code", line: location.line, column: location.column, message: reason))
        }
    }

    private struct Context {
        var function: FunctionBodyFinder.Function
        /// The code being read runs in an async context: an `async` function, or an async closure
        /// in it (`Task { }`).
        var isAsync: Bool
        /// Local error types the promise form declared in the function so far, closures included.
        var failureTypes: Int
        /// A function `--replace` made async: statements overlapping what it rewrote are its own.
        var skipsRewritten = false
        /// An earlier statement of the function called a completion-handler function: its
        /// callback may run before a new `Task` makes its first call.
        var startedCallback = false
        /// Names the function's body uses or converted chains declared in it (`tokenPromise`).
        var takenNames: Set<String>?
        /// A call of this synchronous function after which its caller runs more code
        /// (``MigrationIndex/callWithCodeAfter(_:parameters:typeName:)``): code after every statement of it.
        var callerCodeAfter: (location: MigrationIndex.Location, callee: String)?
        /// A callback started earlier fulfils no expectation: a wait for expectations does not
        /// tell that it has run.
        var startedUnwaited = false
        /// The code is the closure a test helper waits on before it returns (``WaitingHelper``),
        /// and this is the name of the closure's answer (`done` of `waitFor { done in ... }`):
        /// its last statement, a call whose callback answers it, converts as an expectation flow.
        var helperAnswer: String?
    }

    private var reader: PyramidReader { PyramidReader(catalog: catalog, target: target) }

    // MARK: - Places

    private mutating func process(_ items: CodeBlockItemListSyntax, codeAfter outerCodeAfter: Bool, context: inout Context) {
        let list = Array(items)
        // A `defer` runs when the scope ends, after every statement below it.
        var deferAbove = false
        var fanOutEnd = -1
        for (index, item) in list.enumerated() where index > fanOutEnd {
            if let fanOut = fanOut(list, at: index, codeAfter: outerCodeAfter || deferAbove || context.callerCodeAfter != nil, context: context) {
                fanOutEnd = fanOut
                context.startedCallback = true
                continue
            }
            if let loopEnd = sequentialLoop(list, at: index, codeAfterBlock: outerCodeAfter || deferAbove || context.callerCodeAfter != nil, context: &context) {
                fanOutEnd = loopEnd
                context.startedCallback = true
                continue
            }
            if context.skipsRewritten {
                let range = item.position.utf8Offset..<item.endPosition.utf8Offset
                if excluded.contains(where: { $0.overlaps(range) }) {
                    if item.item.is(DeferStmtSyntax.self) { deferAbove = true }
                    continue
                }
            }
            let rest = list[(index + 1)...]
            let leaving = outerCodeAfter || deferAbove
            let codeAfter = leaving || !(rest.isEmpty || (rest.count == 1 && Self.isBareReturn(rest.first!)))
            // Tests' expectation flows, read only in a file importing XCTest.
            var fulfils = false, waited = false
            if importsXCTest {
                if Self.waitsForExpectations(item) && !context.startedUnwaited {
                    // A test waiting for every callback started above to fulfil its expectation:
                    // once the wait is over they have run, as in the original.
                    context.startedCallback = false
                }
                fulfils = Self.fulfilsExpectation(item)
                // In Swift 6 mode the task shares the test's state only when both are on the main actor.
                waited = !leaving && fulfils && rest.first.map(Self.waitsForExpectations) == true
                    && (!checksSendable || Self.isMainActor(item))
                // The last statement of a closure a helper waits on, answering it from its callback.
                if let answer = context.helperAnswer, !leaving, rest.isEmpty, StatementText.mentions([item], answer),
                   !checksSendable || Self.isMainActor(item) {
                    waited = true
                }
            }
            let before = context.startedCallback
            processStatement(item, codeAfter: codeAfter, codeAfterLeaving: leaving, waitFollows: waited, context: &context)
            if importsXCTest, context.startedCallback && !fulfils,
               !before || item.tokens(viewMode: .sourceAccurate).contains(where: { $0.tokenKind == .leftBrace }) {
                context.startedUnwaited = true
            }
            if item.item.is(DeferStmtSyntax.self) { deferAbove = true }
        }
    }

    /// A test's wait for expectations: `waitForExpectations(timeout:)` or `wait(for:timeout:)`
    /// (`self.` or not), which returns once the expectations are fulfilled or the time is out.
    static func waitsForExpectations(_ item: CodeBlockItemSyntax) -> Bool {
        guard let call = PyramidReader.callStatement(item) else { return false }
        let base: ExprSyntax?
        let name: String
        if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) {
            (base, name) = (nil, reference.baseName.text)
        } else if let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
            (base, name) = (member.base, member.declName.baseName.text)
        } else {
            return false
        }
        guard base == nil || base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) else { return false }
        let labels = call.arguments.map { $0.label?.text }
        return (name == "waitForExpectations" && labels.first == "timeout")
            || (name == "wait" && labels.first == "for" && labels.contains("timeout"))
    }

    /// The name of the type (or extended type) a function body is in, for its initializers' calls.
    static func enclosingTypeName(_ body: CodeBlockSyntax) -> String? {
        var node = body.parent
        while let current = node {
            if let type = current.as(ClassDeclSyntax.self) { return type.name.text }
            if let type = current.as(StructDeclSyntax.self) { return type.name.text }
            if let type = current.as(EnumDeclSyntax.self) { return type.name.text }
            if let type = current.as(ActorDeclSyntax.self) { return type.name.text }
            if let type = current.as(ExtensionDeclSyntax.self) { return type.extendedType.trimmedDescription }
            node = current.parent
        }
        return nil
    }

    /// `isMainActor`, or in a subclass of a UIKit or AppKit class isolated to the main actor.
    private func runsOnMainActor(_ item: CodeBlockItemSyntax) -> Bool {
        if Self.isMainActor(item) { return true }
        var node = item.parent
        while let current = node {
            if current.is(ClosureExprSyntax.self) { return false }
            if let type = current.as(ClassDeclSyntax.self) {
                return catalog.inheritsMainActorFrameworkClass(type.name.text)
            }
            if let type = current.as(ExtensionDeclSyntax.self) {
                return catalog.inheritsMainActorFrameworkClass(type.extendedType.trimmedDescription)
            }
            node = current.parent
        }
        return false
    }

    /// The statement is in a function or type written `@MainActor`.
    private static func isMainActor(_ item: CodeBlockItemSyntax) -> Bool {
        func marked(_ attributes: AttributeListSyntax?) -> Bool {
            attributes?.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "MainActor" } ?? false
        }
        var node = item.parent
        while let current = node {
            if let function = current.as(FunctionDeclSyntax.self), marked(function.attributes) { return true }
            if let type = current.as(ClassDeclSyntax.self), marked(type.attributes) { return true }
            if let type = current.as(ExtensionDeclSyntax.self), marked(type.attributes) { return true }
            if current.is(ClosureExprSyntax.self) { return false }
            node = current.parent
        }
        return false
    }

    /// The statement fulfils an expectation somewhere in its closures (`done.fulfill()`).
    static func fulfilsExpectation(_ item: CodeBlockItemSyntax) -> Bool {
        item.tokens(viewMode: .sourceAccurate).contains { token in
            token.text == "fulfill" && token.parent?.parent?.as(MemberAccessExprSyntax.self)?.parent?.as(FunctionCallExprSyntax.self)?.arguments.isEmpty == true
        }
    }

    /// One statement of a place: a call to convert, a block whose statements are read in turn, or
    /// anything else, whose closures are places of their own. `codeAfterLeaving`: whether code
    /// runs after a `guard`'s `else` leaves the scope (the enclosing blocks' code, a `defer`).
    /// `waitFollows`: the statement is a call whose callback fulfils an expectation, followed by
    /// the test's wait for expectations: the task that a conversion starts runs while the test
    /// waits, and the code after the wait still runs after the callback's code.
    private mutating func processStatement(_ item: CodeBlockItemSyntax, codeAfter: Bool, codeAfterLeaving: Bool, waitFollows: Bool = false,
                                           context: inout Context) {
        if target == .async, let (call, guarantee, valueType) = returnedChain(item) {
            if convertReturnedChain(item, call: call, guarantee: guarantee, valueType: valueType, context: &context) { return }
        }
        if let call = PyramidReader.callStatement(item) {
            switch reader.matchByShape(call) {
            case .call(let matched):
                // Refused, its handler is not looked into: flattening a level there could make the
                // call convertible, which a second run would then do.
                convert(item, call: call, matched: matched, codeAfter: codeAfter, waitFollows: waitFollows, context: &context)
                context.startedCallback = true
                return
            case .ambiguous:
                refuse(Refusal("several functions named `\(PyramidReader.baseName(call) ?? "")` take these labels; the callee is ambiguous", at: call), context)
                processCallbackClosures(of: call, codeAfter: codeAfter, context: &context)
                context.startedCallback = true
                return
            case .none:
                if target == .async && ChainToAsync(bytes: bytes, catalog: catalog).isConvertibleChain(call) {
                    convertChain(item, call: call, codeAfter: codeAfter, context: &context)
                    return
                }
            }
        }
        if target == .async, let call = ChainToAsync.discardedCall(item), ChainToAsync(bytes: bytes, catalog: catalog).isConvertibleChain(call) {
            convertChain(item, call: call, codeAfter: codeAfter, context: &context)
            return
        }
        if let expression = PyramidReader.expression(item), let ifExpression = expression.as(IfExprSyntax.self) {
            processIf(ifExpression, codeAfter: codeAfter, context: &context)
            return
        }
        if let expression = PyramidReader.expression(item), let switchExpression = expression.as(SwitchExprSyntax.self) {
            if processClosures(in: switchExpression.subject, codeAfter: codeAfter, context: &context) { context.startedCallback = true }
            // The cases exclude each other: a callback started in one does not run before another's.
            processAlternatives(switchExpression.cases.compactMap { $0.as(SwitchCaseSyntax.self)?.statements },
                                codeAfter: codeAfter, context: &context)
            return
        }
        if let doStatement = item.item.as(DoStmtSyntax.self), doStatement.catchClauses.isEmpty {
            process(doStatement.body.statements, codeAfter: codeAfter, context: &context)
            return
        }
        if let guardStatement = item.item.as(GuardStmtSyntax.self) {
            for condition in guardStatement.conditions where processClosures(in: condition, codeAfter: codeAfter, context: &context) {
                context.startedCallback = true
            }
            // The `else` leaves the scope: what follows the guard runs only when it did not.
            let before = context.startedCallback
            process(guardStatement.body.statements, codeAfter: codeAfterLeaving, context: &context)
            context.startedCallback = before
            return
        }
        if let conditional = item.item.as(IfConfigDeclSyntax.self) {
            // One clause is compiled: the clauses are alternatives.
            processAlternatives(conditional.clauses.compactMap { clause in
                if case .statements(let items)? = clause.elements { items } else { nil }
            }, codeAfter: codeAfter, context: &context)
            return
        }
        if processClosures(in: item, codeAfter: codeAfter, context: &context) { context.startedCallback = true }
    }

    /// Blocks of which one runs (`switch` cases, `#if` clauses): a callback started in one does
    /// not run before another's.
    private mutating func processAlternatives(_ blocks: [CodeBlockItemListSyntax], codeAfter: Bool, context: inout Context) {
        let before = context.startedCallback
        var started = before
        for block in blocks {
            context.startedCallback = before
            process(block, codeAfter: codeAfter, context: &context)
            started = started || context.startedCallback
        }
        context.startedCallback = started
    }

    /// The closures of a statement that is not a call to convert, each read as a place of its own
    /// (a button's action, a `DispatchQueue.main.async { }` block, the callback of a function
    /// outside the tree); calls that are part of an expression, in a loop, or in a closure run per
    /// element are reported. Returns whether any call there starts a callback.
    private mutating func processClosures(in node: some SyntaxProtocol, codeAfter: Bool, context: inout Context) -> Bool {
        let finder = ClosurePlaceFinder(reader: reader)
        finder.walk(node)
        for (call, reason) in finder.refusedCalls {
            refuse(Refusal(reason, at: call), context)
        }
        var started = !finder.refusedCalls.isEmpty
        for closure in finder.places {
            var inner = context
            inner.isAsync = ClosurePlaceFinder.isAsync(closure)
            inner.startedCallback = context.startedCallback || started
            inner.helperAnswer = nil
            // A closure a test helper waits on: the helper returns once the closure's answer came,
            // so the code after the helper's call runs after it, and the callbacks started in it
            // have answered by then.
            if target == .async, importsXCTest, let call = ClosureTiming.call(taking: closure),
               catalog.waitedClosure(of: call)?.id == closure.id,
               let names = PyramidReader.parameterNames(closure), names.count == 1, names[0] != "_" {
                inner.helperAnswer = names[0]
                inner.callerCodeAfter = nil
                process(closure.statements, codeAfter: false, context: &inner)
                context.failureTypes = inner.failureTypes
                context.takenNames = inner.takenNames
                continue
            }
            // A closure known to run after the statement returns runs after the code after it too;
            // any other may run at once, before that code.
            let runsLater = ClosureTiming.of(closure) == .later
            if runsLater { inner.callerCodeAfter = nil }
            process(closure.statements, codeAfter: runsLater ? false : codeAfter, context: &inner)
            context.failureTypes = inner.failureTypes
            context.takenNames = inner.takenNames
            started = started || inner.startedCallback
        }
        return started
    }

    /// An ambiguous call stays a callback whatever its closures hold: they, the handler among
    /// them, are closures like any other, and pyramids in them are flattened there. Its own
    /// callback is not one started before them.
    private mutating func processCallbackClosures(of call: FunctionCallExprSyntax, codeAfter: Bool, context: inout Context) {
        let started = context.startedCallback
        var nodes = [Syntax(call.calledExpression)] + call.arguments.map(Syntax.init)
        if let trailing = call.trailingClosure { nodes.append(Syntax(trailing)) }
        nodes += call.additionalTrailingClosures.map { Syntax($0.closure) }
        for node in nodes where processClosures(in: node, codeAfter: codeAfter, context: &context) {
            context.startedCallback = true
        }
        context.startedCallback = context.startedCallback || started
    }

    // MARK: - Fan-out (FanOut*.swift)

    /// A loop starting a callback per element (with its `DispatchGroup`), converted or refused
    /// as one call site; returns the index of the last statement it covered.
    private mutating func fanOut(_ list: [CodeBlockItemSyntax], at index: Int, codeAfter: Bool, context: Context) -> Int? {
        guard list[index].item.is(ForStmtSyntax.self) || FanOutReader.groupCall(list[index], "enter") != nil else { return nil }
        let place = FanOutRewrite.Place(functionBody: context.function.body, enclosingIsAsync: context.isAsync,
                                        startedCallback: context.startedCallback, codeAfterBlock: codeAfter,
                                        selfMembers: memberNames.names(around: list[index], otherPieces: otherPiecesMembers))
        guard let outcome = FanOutRewrite(bytes: bytes, target: target, reader: reader, unit: unit, earlyDeployment: earlyDeployment)
            .rewrite(list, at: index, place: place) else {
            return nil
        }
        addOnce(outcome.edits)
        if let message = outcome.converted {
            report(.callSiteConverted, at: outcome.node, context.function, message)
            forwarding.converted.formUnion(outcome.calls.map(location(of:)))
        }
        if let refusal = outcome.refusal { refuse(refusal, context) }
        return outcome.lastIndex
    }

    private mutating func processIf(_ node: IfExprSyntax, codeAfter: Bool, context: inout Context) {
        for condition in node.conditions where processClosures(in: condition, codeAfter: codeAfter, context: &context) {
            context.startedCallback = true
        }
        // The branches exclude each other: a callback started in one does not run before another's.
        let before = context.startedCallback
        process(node.body.statements, codeAfter: codeAfter, context: &context)
        let started = context.startedCallback
        context.startedCallback = before
        switch node.elseBody {
        case .codeBlock(let block): process(block.statements, codeAfter: codeAfter, context: &context)
        case .ifExpr(let elseIf): processIf(elseIf, codeAfter: codeAfter, context: &context)
        case .none: break
        }
        context.startedCallback = context.startedCallback || started
    }

    /// Returns whether the call was converted (otherwise it is reported, with the reason).
    @discardableResult
    private mutating func convert(_ item: CodeBlockItemSyntax, call: FunctionCallExprSyntax, matched: PyramidReader.MatchedCall,
                                  codeAfter: Bool, waitFollows: Bool = false, context: inout Context) -> Bool {
        let function = context.function
        let isAsync = context.isAsync
        var keptRefusal: Refusal?
        // The calls the conversion turns into calls of alternatives: at least the first.
        var convertedCalls = [call]
        do throws(Refusal) {
            try checkNoSpelledOutCall(in: item)
            let lines: CodeLines
            var message: String
            switch target {
            case .promise:
                // A callee answering nothing on some path leaves the chain pending there, as before.
                let pyramid = try reader.read(item, call: call, matched: matched)
                let count = pyramid.levels.count
                let calls = count == 1 ? "1 callback" : "\(count) nested callbacks"
                // Each chain that declares a local error type in this function gets its own name.
                let suffix = context.failureTypes > 0 ? "\(context.failureTypes + 1)" : ""
                let writer = PromiseChainWriter(pyramid: pyramid, bytes: bytes,
                                                failureTypeName: function.typeNameStem + "Failure" + suffix,
                                                inGenericContext: function.isGeneric)
                lines = try writer.write()
                if lines.lines.first?.text.hasPrefix("enum ") == true { context.failureTypes += 1 }
                message = "flattened \(calls) into a promise chain"
                if let inner = pyramid.levels.last?.innerChain {
                    message += "; the \(inner.levels.count == 1 ? "callback" : "callbacks") inside \(count == 1 ? "it" : "them") \(inner.levels.count == 1 ? "is" : "are") a chain of its own, in the last handler"
                }
                if let kept = pyramid.keptCallback {
                    // The inner callback kept as written is a call site of its own, left alone.
                    message += "; the callback inside \(count == 1 ? "it" : "them") is kept as it was, in the last handler"
                    keptRefusal = kept
                }
            case .async:
                // `NSLock.lock()`, `DispatchSemaphore.wait()`: unavailable in async code, where the callback's code goes.
                if let blocking = PromiseFunctionToAsync.blockingCall(in: matched.handler) {
                    throw Refusal("the callback calls `\(blocking.text)()`, which Swift refuses in async code, where its code would go; "
                                  + "use `withLock { }`, or `--to promise` keeps it", at: blocking)
                }
                if !isAsync { try checkForwardingOrder(at: item, callee: matched.callee, context: context) }
                if codeAfter && !(waitFollows && !isAsync) { throw orderRefusal(matched.callee, at: item, isAsync: isAsync) }
                // After `await` the code runs on the task's executor, never on a queue the call names.
                if let (queueCall, callee, queue) = MainQueueCalleeFinder.namedQueue(in: item, catalog: catalog) {
                    throw Refusal("`\(callee.baseName)` answers on the queue its call names (\(queue.hasPrefix("its ") ? queue : "`\(queue)`")), where the "
                                  + "callback's code ran; after `await` it would run on the task's executor instead; `--to promise` keeps it "
                                  + "(its handlers run `on: nil`)", at: queueCall)
                }
                // A test waiting for the callback before it goes on returns after it, as before.
                if !isAsync, !waitFollows, let caller = context.callerCodeAfter, !callsBackLater(matched.callee), !Self.onlyHops(matched.handler) {
                    throw orderRefusal(matched.callee, at: item, isAsync: isAsync, caller: (Self.callerName(caller, of: function), caller.location))
                }
                if context.startedCallback && !isAsync {
                    throw Refusal("a callback started earlier in the function could run before the new `Task` makes its first call", at: item)
                }
                if function.returnsValue, function.body.statements.count == 1, function.body.statements.first?.id == item.id {
                    throw Refusal("the call's value is what the function returns", at: item)
                }
                if isAsync { try CalleeSummary.checkAnswers(matched.callee, at: call) }
                do throws(Refusal) {
                    let pyramid = try reader.read(item, call: call, matched: matched)
                    convertedCalls = pyramid.levels.map(\.call)
                    if isAsync, let silent = pyramid.levels.dropFirst().first(where: { $0.callee.answersNothingAt != nil }) {
                        try CalleeSummary.checkAnswers(silent.callee, at: silent.call)
                    }
                    if let (call, name) = callWithAsyncAlternative(in: pyramid) {
                        throw Refusal("the callback's code calls `\(name)` with a completion handler, which the compiler flags in async code (it has an async alternative)", at: call)
                    }
                    let writer = AsyncCallSiteWriter(pyramid: pyramid, bytes: bytes, enclosingIsAsync: isAsync,
                                                     selfMembers: memberNames.names(around: item, otherPieces: otherPiecesMembers))
                    lines = try writer.write()
                    let count = pyramid.levels.count
                    message = "converted \(count == 1 ? "1 callback" : "\(count) nested callbacks") to `try await`"
                    if !isAsync {
                        message += " inside a new `Task { }`, which starts the work when the task runs instead of during the call"
                    }
                } catch {
                    // The callbacks' code as it is, their parameters set from the awaited results.
                    (lines, message) = try convertInline(item, call: call, matched: matched, context: &context)
                    convertedCalls = [call] + lastInlineCalls
                    if !isAsync {
                        message += " inside a new `Task { }`, which starts the work when the task runs instead of during the call"
                    }
                    message += "; each callback's code is kept as it was, after constants holding what it would have received"
                }
            }
            var written = lines
            if target == .async, !isAsync, !runsOnMainActor(item) {
                if MainQueueCalleeFinder.reaches(item, catalog: catalog) {
                    written.openTaskOnMainActor()
                    message += " (on the main actor: a callee answers on the main queue, where its callback's code ran)"
                } else if matched.callee.checksThreadAtOnce {
                    // A plain task runs its first call on the thread pool, where this callee
                    // traps (`dispatchPrecondition(condition: .onQueue(.main))`).
                    throw Refusal("the callee checks which thread it runs on before it returns; in a new `Task` here it would run on the task's "
                                  + "thread instead of the caller's (this code is not isolated to the main actor); mark the type `@MainActor` where "
                                  + "it runs on the main queue, or `--to promise` keeps it", at: call)
                }
            }
            replace(item, with: written)
            report(.callSiteConverted, at: item, function, message)
            forwarding.converted.formUnion(convertedCalls.map(location(of:)))
            if let keptRefusal { refuse(keptRefusal, context) }
            return true
        } catch {
            refuse(error, context)
            return false
        }
    }

    /// The async form of callbacks the flat reading does not take: ``InlinePyramidWriter``.
    private mutating func convertInline(_ item: CodeBlockItemSyntax, call: FunctionCallExprSyntax, matched: PyramidReader.MatchedCall,
                               context: inout Context, loop: SequentialLoop? = nil) throws(Refusal) -> (CodeLines, String) {
        let function = context.function
        let taken = takenNames(context)
        // An async function's own body is the block the code goes into: its parameters and what
        // it read or declared before the call are taken there.
        var outerNames: Set<String> = []
        if context.isAsync {
            outerNames = function.parameterNames
            if let list = item.parent?.as(CodeBlockItemListSyntax.self) {
                for before in list.prefix(while: { $0.id != item.id }) { outerNames.formUnion(before.identifierNames) }
            }
        }
        var writer = InlinePyramidWriter(reader: reader, bytes: bytes, unit: unit, enclosingIsAsync: context.isAsync || loop != nil,
                                         enclosingReturnsValue: loop == nil && function.returnsValue, importsVow: importsVow, taken: taken)
        writer.inAsyncFunction = context.isAsync
        // A sequential loop's turn is the block the code goes into: its parameters and the
        // statements before the call.
        var loopNames: SequentialLoop.Names?
        if let loop {
            outerNames = Set(loop.parameters.map(\.name))
            for before in loop.prefix { outerNames.formUnion(before.identifierNames) }
            let variable = switch loop.parameters.count {
            case 0: writer.fresh("again")
            case 1: writer.fresh("next" + loop.parameters[0].name.prefix(1).uppercased() + loop.parameters[0].name.dropFirst())
            default: writer.fresh("nextTurn")
            }
            loopNames = SequentialLoop.Names(variable: variable, turn: loop.parameters.count > 1 ? writer.fresh("turn") : "turn")
            writer.extraReplacements = loop.replacements(loopNames!)
            writer.selfHeld = loop.isLocalFunction
        }
        // A member read without `self.` is one only where no local or parameter of that name hides it.
        var declared = function.parameterNames
        // From the outermost declaration around the call: a local function or closure sees the
        // locals of the function around it.
        var outermost: Syntax = Syntax(function.body)
        var ancestor = item.parent
        while let node = ancestor {
            if node.is(FunctionDeclSyntax.self) || node.is(InitializerDeclSyntax.self) || node.is(AccessorDeclSyntax.self) { outermost = node }
            if node.is(MemberBlockSyntax.self) || node.is(SourceFileSyntax.self) { break }
            ancestor = node.parent
        }
        for token in outermost.tokens(viewMode: .sourceAccurate) {
            guard case .identifier(let name) = token.tokenKind else { continue }
            if token.parent?.is(IdentifierPatternSyntax.self) == true || token.parent?.is(ClosureShorthandParameterSyntax.self) == true
                || token.parent?.is(ClosureParameterSyntax.self) == true || token.parent?.is(FunctionParameterSyntax.self) == true {
                declared.insert(name)
            }
        }
        writer.selfMembers = memberNames.names(around: item, otherPieces: otherPiecesMembers).subtracting(declared)
        if let list = item.parent?.as(CodeBlockItemListSyntax.self) {
            for before in list.prefix(while: { $0.id != item.id }) { writer.earlierNames.formUnion(before.identifierNames) }
        }
        // A callback's closures and loops of calls are places of their own in the task's code.
        let snapshot = self
        var nestedContext = context
        nestedContext.isAsync = true
        nestedContext.startedCallback = false
        writer.nestedPlaces = { statements, index, codeAfter, startedCallback, taken throws(Refusal) in
            var nested = snapshot
            nested.edits = []
            nested.findings = []
            nested.forwarding = ForwardingFacts()
            var inner = nestedContext
            inner.startedCallback = startedCallback
            inner.takenNames = taken
            let last = nested.rewriteInsideCallback(statements, at: index, codeAfter: codeAfter, context: &inner)
            return InlinePyramidWriter.NestedPlace(edits: nested.edits, findings: nested.findings, forwarding: nested.forwarding, lastIndex: last)
        }
        var lines = try writer.write(call: call, matched: matched, outerNames: outerNames)
        if let loop, let loopNames {
            lines = try loopLines(loop, names: loopNames, body: lines, enclosingIsAsync: context.isAsync,
                                  enclosingParameters: function.parameterNames, writer: &writer)
        }
        context.takenNames = writer.taken
        lastInlineCalls = writer.convertedCalls
        let finder = AsyncAlternativeCallFinder(catalog: catalog, ignoring: Set((writer.convertedCalls + writer.nestedCalls).map(\.id)))
        for handler in writer.convertedHandlers {
            for statement in handler.statements {
                finder.walk(statement)
                if let (call, name) = finder.found {
                    throw Refusal("the callback's code calls `\(name)` with a completion handler, which the compiler flags in async code (it has an async alternative)", at: call)
                }
            }
        }
        let count = writer.levelCount
        findings += writer.nestedFindings
        forwarding.merge(writer.nestedForwarding)
        addOnce(writer.fileEdits)
        return (lines, "converted \(count == 1 ? "1 callback" : "\(count) nested callbacks") to `try await`")
    }

    // MARK: - Sequential loops (SequentialLoop.swift)

    /// A local function that calls itself from its callback, started right after it: in the async
    /// form one `Task` with a `while` loop (``SequentialLoop``). Returns the index of the start
    /// call, or nil when the shape is not there or the loop cannot be written, in which case the
    /// call inside the function is a call site like any other.
    private mutating func sequentialLoop(_ list: [CodeBlockItemSyntax], at index: Int, codeAfterBlock: Bool, context: inout Context) -> Int? {
        guard target == .async, list[index].item.is(FunctionDeclSyntax.self),
              let loop = SequentialLoop.read(list, at: index, reader: reader) else { return nil }
        let rest = list[(index + 2)...]
        let codeAfter = codeAfterBlock || !(rest.isEmpty || (rest.count == 1 && Self.isBareReturn(rest.first!)))
        // The order rules of any call site in synchronous code (``convert``).
        if !context.isAsync && (codeAfter || context.startedCallback) { return nil }
        if !context.isAsync {
            do throws(Refusal) { try checkForwardingOrder(at: list[index], callee: loop.matched.callee, context: context) } catch { return nil }
        }
        guard convertLoop(loop, replacing: list[index], through: list[index + 1], context: &context) else { return nil }
        if let body = loop.declaration.body { loopBodies.append(body.position.utf8Offset..<body.endPosition.utf8Offset) }
        return index + 1
    }

    /// A method calling itself from its callback (``SequentialLoop/readMethod(_:reader:namesakes:)``): its
    /// body becomes the loop, in a `Task`. Returns whether it did.
    private mutating func methodLoop(_ function: FunctionBodyFinder.Function, context: inout Context) -> Bool {
        guard target == .async, !function.isAsync, let declaration = function.body.parent?.as(FunctionDeclSyntax.self),
              let loop = SequentialLoop.readMethod(declaration, reader: reader, namesakes: { name, block in
                  memberNames.methods(named: name, in: block)
              }),
              let first = function.body.statements.first, let last = function.body.statements.last else { return false }
        return convertLoop(loop, replacing: first, through: last, context: &context)
    }

    /// Writes the loop in place of the statements from `first` through `last`, or reports
    /// nothing and returns false when it cannot be written (the calls inside then convert one
    /// at a time, as any call site).
    private mutating func convertLoop(_ loop: SequentialLoop, replacing first: CodeBlockItemSyntax, through last: CodeBlockItemSyntax,
                                      context: inout Context) -> Bool {
        var attempt = context
        do throws(Refusal) {
            try checkNoSpelledOutCall(in: first, through: last)
            let onMainActor = !context.isAsync && MainQueueCalleeFinder.reaches(loop.declaration, catalog: catalog)
            // As any call site: a plain task would make the first call on the thread pool.
            if !context.isAsync, !onMainActor, loop.matched.callee.checksThreadAtOnce, !runsOnMainActor(first) { return false }
            var (lines, _) = try convertInline(loop.pyramid, call: loop.pyramidCall, matched: loop.matched, context: &attempt, loop: loop)
            if onMainActor, !Self.isMainActor(first) { lines.openTaskOnMainActor() }
            replace(first, through: last, with: lines)
            context = attempt
            let name = CompletionFunction.swiftName(loop.declaration.name.text, labels: CompletionFunction.labels(of: loop.declaration.signature.parameterClause.parameters))
            var message = "converted a loop of callbacks (`\(name)` starting the next call from its callback) to a `while` loop of `try await`"
            if !context.isAsync { message += " inside a new `Task { }`, which starts the work when the task runs instead of during the call" }
            report(.callSiteConverted, at: loop.pyramid, context.function, message)
            forwarding.converted.formUnion(([loop.pyramidCall] + lastInlineCalls).map(location(of:)))
            return true
        } catch {
            return false
        }
    }

    /// The loop around a turn's code (``SequentialLoop``): its variable, the local function's own
    /// statements and the callbacks' code, in a `Task` unless the function is async.
    private func loopLines(_ loop: SequentialLoop, names: SequentialLoop.Names, body: CodeLines, enclosingIsAsync: Bool,
                           enclosingParameters: Set<String>, writer: inout InlinePyramidWriter) throws(Refusal) -> CodeLines {
        // A method's callback holding `self` weakly let it go between turns; one task could not.
        if let capture = writer.capture {
            throw Refusal("the callback's `\(capture)` would have to hold across the loop's turns", at: loop.pyramidCall)
        }
        // Every recursive call ends a callback written as straight-line code, or the function's own statements.
        let handlers = Set(writer.convertedHandlers.map(\.id))
        for site in loop.sites {
            if let closure = loop.closure(around: site.call), !handlers.contains(closure.id) {
                throw Refusal("the next call starts from a closure the loop does not run in turn", at: site.call)
            }
        }
        var lines = CodeLines()
        // The start call's arguments, read where the call was (a literal or a parameter of the
        // function around reads the same in the task).
        var starts: [String] = []
        // A method's first turn takes its own parameters.
        for (position, parameter) in loop.parameters.enumerated() {
            guard let startCall = loop.startCall else {
                starts.append(parameter.name)
                continue
            }
            let expression = Array(startCall.arguments)[position].expression
            if expression.is(IntegerLiteralExprSyntax.self) || expression.is(BooleanLiteralExprSyntax.self)
                || expression.is(NilLiteralExprSyntax.self) || expression.is(FloatLiteralExprSyntax.self)
                || (expression.as(StringLiteralExprSyntax.self).map { $0.segments.allSatisfy { $0.is(StringSegmentSyntax.self) } } ?? false)
                || (expression.as(ArrayExprSyntax.self)?.elements.isEmpty ?? false)
                || (expression.as(DeclReferenceExprSyntax.self).map { enclosingParameters.contains($0.baseName.text) && $0.argumentNames == nil } ?? false) {
                starts.append(expression.trimmedDescription)
            } else {
                let constant = writer.fresh("first" + parameter.name.prefix(1).uppercased() + parameter.name.dropFirst())
                lines.add("let \(constant) = \(expression.trimmedDescription)", 0)
                starts.append(constant)
            }
        }
        // The function's own statements, or callbacks that unwrapped a weak `self`, read members
        // of `self` without `self.`: the task holds it, as the function did.
        let moved = loop.prefix.map(Syntax.init) + [Syntax(loop.pyramidCall.calledExpression)]
            + loop.pyramidCall.arguments.filter { !$0.expression.is(ClosureExprSyntax.self) }.map(Syntax.init)
            + writer.convertedHandlers.map(Syntax.init)
        let implicitSelf = !ValueThreading.reads(in: moved).isDisjoint(with: writer.selfMembers.subtracting(loop.parameters.map(\.name)))
        let replacements = writer.extraReplacements
        let level = enclosingIsAsync ? 0 : 1
        if level == 1 { lines.add("Task {" + (implicitSelf ? " [self] in" : ""), 0) }
        for (text, extra) in loop.head(names, starts: starts) { lines.add(text, level + extra) }
        for item in loop.prefix {
            let range = item.positionAfterSkippingLeadingTrivia.utf8Offset..<item.endPositionBeforeTrailingTrivia.utf8Offset
            let inside = replacements.filter { range.contains($0.0.lowerBound) }
            for line in writer.text(of: item, renamed: [:], replacing: inside) { lines.add(line, level + 1) }
        }
        lines.add(body, indentedBy: level + 1)
        lines.add("}", level)
        if level == 1 { lines.add("}", 0) }
        return lines
    }

    /// Adds edits not made already: the helper a converted fan-out adds to the file
    /// (``FanOutExecutor``) is added once, however many fan-outs ask for it.
    private mutating func addOnce(_ new: [TextEdit]) {
        edits += new.filter { edit in !edits.contains { $0.offset == edit.offset && $0.text == edit.text } }
    }

    /// A statement of a callback the async form keeps (``InlinePyramidWriter``) holding calls in
    /// closures or a loop of calls: rewritten as the statements of an async function would be,
    /// since that is where the task runs them. Returns the last statement it covered.
    private mutating func rewriteInsideCallback(_ list: [CodeBlockItemSyntax], at index: Int, codeAfter: Bool, context: inout Context) -> Int {
        if let last = fanOut(list, at: index, codeAfter: false, context: context) { return last }
        _ = processClosures(in: list[index], codeAfter: codeAfter, context: &context)
        return index
    }

    /// The callback's code is one hop to a later turn (`DispatchQueue.main.async { }`): whenever the
    /// callee answers, that code runs after the caller's code after the call, in both forms.
    private static func onlyHops(_ handler: ClosureExprSyntax) -> Bool {
        !handler.statements.isEmpty && handler.statements.allSatisfy { item in
            guard let call = PyramidReader.callStatement(item), let closure = call.trailingClosure ?? call.arguments.last?.expression.as(ClosureExprSyntax.self)
            else { return false }
            return ClosureTiming.of(closure) == .later
        }
    }

    /// Every function the call may reach calls back later, not only the one picked.
    private func callsBackLater(_ callee: CalleeSummary) -> Bool {
        let namesakes = catalog.callees(named: callee.baseName).filter { $0.labels == callee.labels && $0.handlerIndex == callee.handlerIndex }
        return !namesakes.isEmpty && namesakes.allSatisfy(\.callsBackLater)
    }

    /// A callback answering the function's own handler, in a new `Task`: the function returns
    /// before the task makes its first call, so a caller running code after calling it would
    /// run that code first (`model.sync { }; XCTAssertEqual(fake.calls, ["load"])`), whether the
    /// callee answers at once or later. Converted only where every caller is in the tree
    /// (the function is not `public` or `open`) and none runs code after the call.
    /// And the handler's own callers' code runs where the callback called it: only a callback
    /// handing its answer on from the main queue (`DispatchQueue.main.async { completion(x) }`)
    /// keeps that place in a task; otherwise it would move from the queue the callee answers on
    /// (a serial queue whose order the callers may rely on) to the task's thread.
    /// Nothing to check where the statement does not hand its answer on.
    private mutating func checkForwardingOrder(at item: CodeBlockItemSyntax, callee: CalleeSummary, context: Context) throws(Refusal) {
        let function = context.function
        // A function declared in another's body, handing on the outer function's handler: where
        // that function's callers' code runs is not followed through the local function's calls.
        let outer = function.outerClosureParameterNames.subtracting(function.parameterNames)
        if let handedOn = Self.forwardedHandlers(in: item, names: outer, parameters: outer).first {
            throw Refusal("the callback hands its answer on to `\(handedOn.baseName.text)`, the handler of the function around this local "
                          + "function: in a `Task` that function's callers' code would run on the task's thread instead of where the callee "
                          + "answered (and only after it returned); `--to promise` keeps both", at: handedOn)
        }
        let references = Self.forwardedHandlers(in: item, names: function.closureParameterNames, parameters: function.parameterNames)
        guard let handler = references.first else { return }
        if let offQueue = references.first(where: { !Self.isInMainQueueHop($0, within: item) && !answeredOnMain($0, within: item) }),
           callee.startsTreeCodeAtOnce || !forwardingAllowed(function) {
            let callers = if function.isPublic {
                "it is public, so callers outside the tree may rely on that"
            } else if callee.startsTreeCodeAtOnce {
                "the callee runs code of the tree before it returns, which the task would run on its own thread instead of the caller's"
            } else if Self.mayForward(function) {
                catalog.runDecidesForwarding
                    ? "converted when every call of the function in the tree is converted too, which one left alone prevents"
                    : "converted when every call of the function in the tree is converted too, which a run over one file of 1 MB or "
                        + "more does not decide"
            } else {
                "the calls of \(function.swiftName.hasPrefix("init(") ? "an initializer" : "a local function") are not followed"
            }
            throw Refusal("the callback hands its answer on to `\(offQueue.baseName.text)`, this function's own handler, on the queue the callee "
                          + "answers on: in a `Task` its callers' code would run on the task's thread instead (and only after this function "
                          + "returns); \(callers); hand it on inside `DispatchQueue.main.async { }`, or `--to promise` keeps both", at: offQueue)
        }
        let start = "the callback hands its answer on to `\(handler.baseName.text)`, this function's own handler, on the main queue: a `Task` would make "
            + "the call after this function returns"
        if function.isPublic {
            throw Refusal(start + ", and callers outside the tree may run code after calling it (it is public); "
                          + "its async alternative is there for them, or `--to promise` keeps the order", at: handler)
        }
        if let caller = context.callerCodeAfter {
            throw Refusal(start + ", but \(Self.callerName(caller, of: function)) is called at \(caller.location.fileName):\(caller.location.line) "
                          + "with code after it, which would run first; `--to promise` keeps the order", at: handler)
        }
    }

    /// Where `call` starts, as the index records calls (``ExistingCall/location``).
    private func location(of call: FunctionCallExprSyntax) -> MigrationIndex.Location {
        let place = call.startLocation(converter: converter)
        return MigrationIndex.Location(file: place.file, line: place.line, column: place.column)
    }

    /// Whether the run found every call of `function` converted (``ForwardingFacts``), so its
    /// handler may run on the task's thread; otherwise records the function as refused for that
    /// alone. Not for what callers outside the tree call (public), nor local functions and
    /// initializers, whose calls the index does not list by the function's name.
    private mutating func forwardingAllowed(_ function: FunctionBodyFinder.Function) -> Bool {
        guard Self.mayForward(function), let parameters = function.parameters else { return false }
        let typeName = Self.enclosingTypeName(function.body)
        let key = ForwardingFacts.Function.key(swiftName: function.swiftName, typeName: typeName)
        if catalog.forwardingAllowed.contains(key) { return true }
        forwarding.refused.append(ForwardingFacts.Function(swiftName: function.swiftName, typeName: typeName, parameters: parameters))
        return false
    }

    /// Only a function the index lists the calls of, all of them in the tree.
    private static func mayForward(_ function: FunctionBodyFinder.Function) -> Bool {
        !function.isPublic && function.parameters != nil && !function.swiftName.hasPrefix("init(") && isMember(function.body)
    }

    /// The function whose body this is is declared in a type, an extension or a file, not inside
    /// another function's body or a closure.
    private static func isMember(_ body: CodeBlockSyntax) -> Bool {
        guard let declaration = body.parent?.as(FunctionDeclSyntax.self) else { return false }
        var node = declaration.parent
        while let current = node {
            if current.is(MemberBlockSyntax.self) || current.is(SourceFileSyntax.self) { return true }
            if current.is(CodeBlockSyntax.self) || current.is(ClosureExprSyntax.self) { return false }
            node = current.parent
        }
        return false
    }

    /// `` `refresh()` ``, or `` `refresh()` (through `reload()`) `` where the call with code after
    /// it is of a function that ends by calling this one.
    private static func callerName(_ caller: (location: MigrationIndex.Location, callee: String), of function: FunctionBodyFinder.Function) -> String {
        caller.callee == function.swiftName ? "`\(function.swiftName)`" : "`\(function.swiftName)` (through `\(caller.callee)`)"
    }

    /// Why the async form cannot keep code after the pyramid where it was. The promise form can:
    /// `firstly { }` makes the first call at once and each handler runs (`on: nil`) when its
    /// callee calls back, before the code after the chain when that is before the call returns,
    /// after it when later. A `Task` makes the call only when it runs, after the code after it;
    /// `try await` runs the callback's code before the code after it. `caller`: the code after is
    /// a caller's, after a call of this function (``MigrationIndex/callWithCodeAfter(_:parameters:typeName:)``).
    private func orderRefusal(_ callee: CalleeSummary, at statement: CodeBlockItemSyntax, isAsync: Bool,
                              caller: (name: String, at: MigrationIndex.Location)? = nil) -> Refusal {
        let later = callsBackLater(callee)
        if let caller, !isAsync {
            return Refusal("\(caller.name) is called at \(caller.at.fileName):\(caller.at.line) with code after it, which would run before "
                           + "the callback's code in a new `Task` here (the callee may answer before it returns); `--to promise` keeps the order",
                           at: statement)
        }
        switch (isAsync, later) {
        case (false, true):
            return Refusal("code after the call runs before its callback (the callee calls back later on every path), "
                           + "but inside a `Task` the call itself would start after that code; `--to promise` keeps the order, "
                           + "or move that code above the call", at: statement)
        case (false, false):
            return Refusal("code after the callbacks would run before them inside a `Task` (the callee may call back "
                           + "before it returns: its handler is called outside a queue hop on some path, or its body is not in the tree); "
                           + "`--to promise` keeps the order", at: statement)
        case (true, true):
            return Refusal("code after the call runs before its callback (the callee calls back later on every path), "
                           + "but once the call is awaited it would run after the callback's code; `--to promise` keeps the order", at: statement)
        case (true, false):
            return Refusal("code after the callbacks would run after them once they are awaited (the callee may call back "
                           + "later, after that code); `--to promise` keeps the order", at: statement)
        }
    }

    private mutating func convertChain(_ item: CodeBlockItemSyntax, call: FunctionCallExprSyntax, codeAfter: Bool, context: inout Context) {
        do throws(Refusal) {
            try checkNoSpelledOutCall(in: item)
            let taken = takenNames(context)
            let (lines, onMainActor, declared) = try ChainToAsync(bytes: bytes, catalog: catalog).write(call, taken: taken)
            // Handlers `on: nil` run at once when the promise is already settled (a callee that
            // answered before it returned), before the code after the chain; in a `Task` they
            // would run after it. Handlers on the main queue always ran later, as the task does.
            if codeAfter && !onMainActor {
                throw Refusal("code after the chain: its handlers run `on: nil`, at once when the promise is settled before "
                              + "the chain is made, so before that code; inside a `Task` they would run after it", at: item)
            }
            context.takenNames = taken.union([declared])
            replace(item, with: lines)
            report(.callSiteConverted, at: item, context.function,
                   "converted a promise chain to `try await` inside a new `Task { \(onMainActor ? "@MainActor in " : "")}` (its first call is still made at once; the steps after it wait for the task)")
        } catch {
            refuse(error, context)
        }
    }

    /// The names the function's body uses, with those the stage declared in it so far: new
    /// names avoid them.
    private func takenNames(_ context: Context) -> Set<String> {
        context.takenNames ?? context.function.body.identifierNames
    }

    /// Replaces the statement (or the statements from it through `last`) with `lines`, indented
    /// as it was.
    private mutating func replace(_ item: CodeBlockItemSyntax, through last: CodeBlockItemSyntax? = nil, with lines: CodeLines) {
        let start = item.positionAfterSkippingLeadingTrivia.utf8Offset
        let indent = Indentation.lineIndent(in: bytes, at: start)
        let rendered = String(lines.render(baseIndent: indent, unit: unit).drop { $0 == " " || $0 == "\t" })
        let end = (last ?? item).endPositionBeforeTrailingTrivia.utf8Offset
        edits.append(TextEdit(offset: start, removing: end - start, text: rendered))
    }

    /// `return chain` (or a function's only statement, `chain`) in a function declared to return
    /// `Promise<T>` or `Guarantee<T>`, outside closures: the chain and whether it is a guarantee.
    private func returnedChain(_ item: CodeBlockItemSyntax) -> (FunctionCallExprSyntax, Bool, String?)? {
        let expression: ExprSyntax?
        if let returned = item.item.as(ReturnStmtSyntax.self) {
            expression = returned.expression
        } else if let list = item.parent?.as(CodeBlockItemListSyntax.self), list.count == 1,
                  list.parent?.parent?.is(FunctionDeclSyntax.self) == true {
            expression = PyramidReader.expression(item)
        } else {
            expression = nil
        }
        guard let call = expression?.as(FunctionCallExprSyntax.self), call.calledExpression.is(MemberAccessExprSyntax.self) else { return nil }
        var node = item.parent
        while let current = node {
            if current.is(ClosureExprSyntax.self) || current.is(AccessorDeclSyntax.self) || current.is(InitializerDeclSyntax.self) { return nil }
            if let function = current.as(FunctionDeclSyntax.self) {
                guard let type = function.signature.returnClause?.type.as(IdentifierTypeSyntax.self),
                      ["Promise", "Guarantee"].contains(type.name.text), type.genericArgumentClause != nil else { return nil }
                // A function declared inside one `--replace` rewrites whole is left with it, and
                // so inside an async one (what a first run made of it): a second run decides as
                // the first did.
                var outer = function.parent
                while let enclosing = outer {
                    if let outerFunction = enclosing.as(FunctionDeclSyntax.self) {
                        let place = outerFunction.funcKeyword.startLocation(converter: converter)
                        if outerFunction.signature.effectSpecifiers?.asyncSpecifier != nil
                            || catalog.replacesPromiseFunction(line: place.line, column: place.column) { return nil }
                    }
                    if enclosing.is(MemberBlockSyntax.self) || enclosing.is(SourceFileSyntax.self) { break }
                    outer = enclosing.parent
                }
                let arguments = type.genericArgumentClause?.arguments
                return (call, type.name.text == "Guarantee", arguments?.count == 1 ? arguments?.first?.argument.trimmedDescription : nil)
            }
            node = current.parent
        }
        return nil
    }

    /// A chain the function returns, as straight-line code in Vow's `Promise { }` bridge
    /// (``ChainToAsync/bridgedReturn(_:guarantee:valueType:taken:)``). Returns whether it was read as a
    /// chain (converted or refused).
    private mutating func convertReturnedChain(_ item: CodeBlockItemSyntax, call: FunctionCallExprSyntax, guarantee: Bool,
                                               valueType: String?, context: inout Context) -> Bool {
        do throws(Refusal) {
            let taken = takenNames(context)
            guard let (lines, declared) = try ChainToAsync(bytes: bytes, catalog: catalog).bridgedReturn(call, guarantee: guarantee, valueType: valueType, taken: taken) else {
                return false
            }
            try checkNoSpelledOutCall(in: item)
            context.takenNames = taken.union([declared])
            replace(item, with: lines)
            report(.callSiteConverted, at: item, context.function,
                   "converted a promise chain the function returns to `try await` on the main actor, in Vow's "
                   + "`\(guarantee ? "Guarantee" : "Promise") { @MainActor @Sendable in }` bridge (its first call is still made at once; "
                   + "the function still returns a promise)")
        } catch {
            refuse(error, context)
        }
        return true
    }

    /// A call in code the async form moves into async code (a level's success or failure
    /// statements, outside closures) of a completion-handler function with an async
    /// alternative: marked `renamed:`, it would draw a warning there.
    private func callWithAsyncAlternative(in pyramid: Pyramid) -> (FunctionCallExprSyntax, String)? {
        let finder = AsyncAlternativeCallFinder(catalog: catalog)
        for level in pyramid.levels {
            for statement in level.success + (level.failure?.statements ?? []) {
                finder.walk(statement)
                if let found = finder.found { return found }
            }
        }
        return nil
    }

    /// Each read of one of the function's closure parameters (its own completion handler), or
    /// call of any of its parameters (a handler typed through an alias), in the statement: the
    /// pyramid answers the function's callers.
    static func forwardedHandlers(in item: CodeBlockItemSyntax, names: Set<String>, parameters: Set<String>) -> [DeclReferenceExprSyntax] {
        guard !parameters.isEmpty else { return [] }
        var found: [DeclReferenceExprSyntax] = []
        for token in item.tokens(viewMode: .sourceAccurate) {
            guard case .identifier(let name) = token.tokenKind, parameters.contains(name),
                  let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
            if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id { continue }
            let isCalled = reference.parent?.as(FunctionCallExprSyntax.self)?.calledExpression.id == reference.id
            if names.contains(name) || isCalled { found.append(reference) }
        }
        return found
    }

    /// The reference is in the code of a callback whose callee answers on the main queue
    /// (``CalleeSummary/answersOnMain``), outside any other closure: it ran there, and the task,
    /// on the main actor for such a callee, runs it there too.
    private func answeredOnMain(_ reference: some SyntaxProtocol, within item: CodeBlockItemSyntax) -> Bool {
        var node = reference.parent
        while let current = node, current.id != item.id {
            if let closure = current.as(ClosureExprSyntax.self) {
                guard let call = ClosureTiming.call(taking: closure) else { return false }
                let callees = MainQueueCalleeFinder.callees(of: call, catalog: catalog)
                return !callees.isEmpty && callees.allSatisfy { $0.answersOnMain(in: call).main }
            }
            node = current.parent
        }
        return false
    }

    /// The reference is inside a closure handed to the main queue (`DispatchQueue.main.async { }`,
    /// `asyncAfter`, `OperationQueue.main.addOperation { }`) within `item`.
    static func isInMainQueueHop(_ reference: some SyntaxProtocol, within item: CodeBlockItemSyntax) -> Bool {
        var node = reference.parent
        while let current = node, current.id != item.id {
            if let closure = current.as(ClosureExprSyntax.self), let call = ClosureTiming.call(taking: closure) {
                let called = call.calledExpression.trimmedDescription.filter { !$0.isWhitespace }
                if ["DispatchQueue.main.async", "DispatchQueue.main.asyncAfter", "OperationQueue.main.addOperation"].contains(called) { return true }
            }
            node = current.parent
        }
        return false
    }

    /// The statement holds a call whose omitted handler this run spells out.
    private func checkNoSpelledOutCall(in item: CodeBlockItemSyntax, through last: CodeBlockItemSyntax? = nil) throws(Refusal) {
        let range = item.positionAfterSkippingLeadingTrivia.utf8Offset..<(last ?? item).endPositionBeforeTrailingTrivia.utf8Offset
        if spelledOutOffsets.contains(where: range.contains) {
            throw Refusal("a call inside leaves out a defaulted handler, which this run spells out so the call keeps its callee; "
                          + "run the call-site stage again on the result", at: item)
        }
    }

    private mutating func refuse(_ refusal: Refusal, _ context: Context) {
        report(.callSiteRefused, at: refusal.node, context.function, refusal.reason)
    }

    private mutating func report(_ kind: Finding.Kind, at node: some SyntaxProtocol, _ function: FunctionBodyFinder.Function, _ message: String) {
        let location = node.startLocation(converter: converter)
        findings.append(Finding(kind: kind, function: function.swiftName, line: location.line, column: location.column, message: message))
    }

    /// The names the type around `node` declares (properties and methods of that declaration):
    /// code reading them without `self.` reads them through `self`.
    static func memberNames(around node: some SyntaxProtocol, otherPieces: [Int: Set<String>] = [:]) -> Set<String> {
        guard let block = memberBlock(around: node) else { return [] }
        return memberNames(of: block, otherPieces: otherPieces)
    }

    /// The type body `node` is in, if any.
    static func memberBlock(around node: some SyntaxProtocol) -> MemberBlockSyntax? {
        var parent = node.parent
        while let current = parent, !current.is(MemberBlockSyntax.self) { parent = current.parent }
        return parent?.as(MemberBlockSyntax.self)
    }

    /// The names `block` declares, with those its type declares in other pieces of the file
    /// (keyed by where the body's `{` is).
    static func memberNames(of block: MemberBlockSyntax, otherPieces: [Int: Set<String>] = [:]) -> Set<String> {
        var names = otherPieces[block.leftBrace.positionAfterSkippingLeadingTrivia.utf8Offset] ?? []
        for member in block.members {
            if let variable = member.decl.as(VariableDeclSyntax.self) {
                for binding in variable.bindings {
                    if let identifier = binding.pattern.as(IdentifierPatternSyntax.self) { names.insert(identifier.identifier.text) }
                }
            } else if let function = member.decl.as(FunctionDeclSyntax.self) {
                names.insert(function.name.text)
            }
        }
        return names
    }

    private static func isBareReturn(_ item: CodeBlockItemSyntax) -> Bool {
        item.item.as(ReturnStmtSyntax.self)?.expression == nil && item.item.is(ReturnStmtSyntax.self)
    }
}

extension PyramidReader {
    /// ``match(_:)``, less the calls whose closure cannot be the handler: one using `$1` where the
    /// handler takes one parameter, or `$0` where it takes none, is another function's closure
    /// (`transactions.removeAll { $0.id == id }` is not the tree's `removeAll(completion:)`).
    /// Statements inside closures are read as places, where such calls are common.
    func matchByShape(_ call: FunctionCallExprSyntax) -> Match {
        let match = match(call)
        guard case .call(let matched) = match, matched.handler.signature == nil else { return match }
        let parameters = matched.callee.shape.closureParameters.count
        for token in matched.handler.statements.tokens(viewMode: .sourceAccurate) {
            guard case .dollarIdentifier(let name) = token.tokenKind, let position = Int(name.dropFirst()), position >= parameters else { continue }
            // `$0` of a closure inside the handler is that closure's.
            var parent = token.parent
            while let current = parent, !current.is(ClosureExprSyntax.self) { parent = current.parent }
            if parent?.id == matched.handler.id { return .none }
        }
        return match
    }

    static func baseName(_ call: FunctionCallExprSyntax) -> String? {
        if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        return call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
    }
}

/// Whether a call under a node (in its closures too) may reach a completion-handler function
/// that answers on the main queue, on every path or some (``CalleeSummary/mayAnswerOnMain``): its
/// callback's code ran there, where a new task must run it too (on the main actor, code that ran
/// elsewhere on other paths moves there, never the other way).
final class MainQueueCalleeFinder: SyntaxVisitor {
    let catalog: CalleeCatalog
    private(set) var found = false
    /// A call whose callee answers on the queue the call names, not the main one, and that queue.
    private(set) var namedQueue: (call: FunctionCallExprSyntax, callee: CalleeSummary, queue: String)?

    init(catalog: CalleeCatalog) {
        self.catalog = catalog
        super.init(viewMode: .sourceAccurate)
    }

    static func reaches(_ node: some SyntaxProtocol, catalog: CalleeCatalog) -> Bool {
        let finder = MainQueueCalleeFinder(catalog: catalog)
        finder.walk(node)
        return finder.found
    }

    /// The first call under `node` answering on a queue it names other than the main one.
    static func namedQueue(in node: some SyntaxProtocol, catalog: CalleeCatalog) -> (call: FunctionCallExprSyntax, callee: CalleeSummary, queue: String)? {
        let finder = MainQueueCalleeFinder(catalog: catalog)
        finder.walk(node)
        return finder.namedQueue
    }

    /// The callees of `call` (by its labels, in order).
    static func callees(of call: FunctionCallExprSyntax, catalog: CalleeCatalog) -> [CalleeSummary] {
        guard let base = PyramidReader.baseName(call) else { return [] }
        let labels = call.arguments.map { $0.label?.text }
        return catalog.callees(named: base, calledBy: call).filter { $0.takesInOrder(labels) }
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        for callee in Self.callees(of: node, catalog: catalog) {
            let answer = callee.answersOnMain(in: node)
            if answer.main || callee.mayAnswerOnMain { found = true }
            if let queue = answer.queue, namedQueue == nil { namedQueue = (node, callee, queue) }
        }
        return .visitChildren
    }
}

/// The outermost known calls with a closure handler under a node; nested levels belong to them.
/// The first call, outside closures, of a completion-handler function that has an async
/// alternative, by base name and argument labels (the call's labels in the function's order,
/// since the call may leave out defaulted parameters).
private final class AsyncAlternativeCallFinder: SyntaxVisitor {
    let catalog: CalleeCatalog
    /// Calls the converted code no longer makes with a handler.
    let ignoring: Set<SyntaxIdentifier>
    private(set) var found: (FunctionCallExprSyntax, String)?

    init(catalog: CalleeCatalog, ignoring: Set<SyntaxIdentifier> = []) {
        self.catalog = catalog
        self.ignoring = ignoring
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        guard found == nil, !ignoring.contains(node.id) else { return .skipChildren }
        guard let base = PyramidReader.baseName(node) else { return .visitChildren }
        let labels = node.arguments.map { $0.label?.text }
        let matches = catalog.callees(named: base, calledBy: node).contains { $0.hasAsyncAlternative && $0.takesInOrder(labels) }
        if matches { found = (node, base) }
        return matches ? .skipChildren : .visitChildren
    }
}

/// Under a statement that is not itself a call to convert: the closures that are places of their
/// own (their statements are read like a function's), and the calls of completion-handler
/// functions that cannot be converted where they are, with the reason. A known call's own
/// handler is a level of its pyramid, for the pyramid reader: it is not looked into.
private final class ClosurePlaceFinder: LoopTrackingVisitor {
    let reader: PyramidReader
    private(set) var places: [ClosureExprSyntax] = []
    private(set) var refusedCalls: [(FunctionCallExprSyntax, String)] = []
    /// Closures run once per element (`forEach { }`) around the node being visited.
    private var repeatedDepth = 0
    private var repeatedClosures: [Bool] = []

    init(reader: PyramidReader) {
        self.reader = reader
        super.init()
    }

    private var inLoop: Bool { loopDepth > 0 || repeatedDepth > 0 }

    /// A local function is a place of its own (``FunctionBodyFinder`` finds it).
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
        let timing = ClosureTiming.of(node)
        let repeated = timing == .repeated
        // `visitPost` runs for every closure, its children visited or not.
        repeatedClosures.append(repeated)
        if repeated { repeatedDepth += 1 }
        // A callback inside `Promise { seal in }`, `Guarantee { }` or a continuation is a bridge (the
        // alternatives vow-migrate writes are such bridges): it settles the promise, nothing to flatten.
        if timing == .bridge { return .skipChildren }
        if !inLoop {
            places.append(node)
            return .skipChildren
        }
        return .visitChildren
    }

    override func visitPost(_ node: ClosureExprSyntax) {
        if repeatedClosures.removeLast() { repeatedDepth -= 1 }
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        switch reader.matchByShape(node) {
        case .call:
            refusedCalls.append((node, inLoop ? "a loop around a callback"
                                              : "the call is part of an expression (its value is used), not a statement of its own"))
            return .skipChildren
        case .ambiguous, .none:
            return .visitChildren
        }
    }

    /// Whether a closure's body runs in an async context: it says `async`, or it is a new task's.
    static func isAsync(_ closure: ClosureExprSyntax) -> Bool {
        closure.signature?.effectSpecifiers?.asyncSpecifier != nil || ClosureTiming.isNewTask(closure)
    }
}

/// The statements of a file's top-level code that are calls, in its closures too; not those of
/// the functions, types and extensions it declares (their bodies are places of their own).
final class TopLevelStatementFinder: SyntaxVisitor {
    private(set) var calls: [FunctionCallExprSyntax] = []

    override func visit(_ node: CodeBlockItemSyntax) -> SyntaxVisitorContinueKind {
        if node.item.is(DeclSyntax.self) && !node.item.is(VariableDeclSyntax.self) { return .skipChildren }
        if let call = PyramidReader.callStatement(node) { calls.append(call) }
        return .visitChildren
    }

    override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}

/// Every function, initializer and accessor body (local functions too), with what the writers
/// need to know about it.
final class FunctionBodyFinder: SyntaxVisitor {
    struct Function {
        var body: CodeBlockSyntax
        var swiftName: String
        var isAsync: Bool
        var isGeneric: Bool
        /// `Reload` for `reload()`: the stem of local type names.
        var typeNameStem: String
        /// The parameters' names inside the body.
        var parameterNames: Set<String> = []
        /// It returns something other than `Void`.
        var returnsValue = false
        /// The parameters that take a closure (its own completion handler, typically).
        var closureParameterNames: Set<String> = []
        /// Its parameters as its calls bind to them (``CallBinding``); nil for an accessor, which
        /// no call reaches.
        var parameters: [ParameterShape]?
        /// It is `public` or `open` (or in a `public extension`): callers outside the tree call it.
        var isPublic = false
        /// For a function declared inside another's body: the closure parameters of the functions
        /// around it, which its code may hand an answer on to (`func next() { load { completion($0) } }`).
        var outerClosureParameterNames: Set<String> = []
    }

    /// The closure parameters of the functions (and initializers) whose bodies hold `node`.
    static func outerClosureParameterNames(of node: some SyntaxProtocol) -> Set<String> {
        var names: Set<String> = []
        var parent = node.parent
        while let current = parent {
            if current.is(MemberBlockSyntax.self) || current.is(SourceFileSyntax.self) { break }
            if let function = current.as(FunctionDeclSyntax.self) {
                names.formUnion(closureParameterNames(function.signature.parameterClause.parameters))
            } else if let initializer = current.as(InitializerDeclSyntax.self) {
                names.formUnion(closureParameterNames(initializer.signature.parameterClause.parameters))
            }
            parent = current.parent
        }
        return names
    }

    /// The names of parameters whose type is a function type (through attributes, optionals and
    /// parentheses).
    static func closureParameterNames(_ parameters: FunctionParameterListSyntax) -> Set<String> {
        Set(parameters.compactMap { parameter -> String? in
            var type = parameter.type
            while true {
                if let attributed = type.as(AttributedTypeSyntax.self) { type = attributed.baseType; continue }
                if let optional = type.as(OptionalTypeSyntax.self) { type = optional.wrappedType; continue }
                if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { type = unwrapped.wrappedType; continue }
                if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
                    type = only.type
                    continue
                }
                break
            }
            return type.is(FunctionTypeSyntax.self) ? (parameter.secondName ?? parameter.firstName).text : nil
        })
    }

    private(set) var functions: [Function] = []
    private var genericTypes: [Bool] = []

    init() {
        super.init(viewMode: .sourceAccurate)
    }

    private func enterType(_ generic: Bool) -> SyntaxVisitorContinueKind {
        genericTypes.append(generic || genericTypes.last == true)
        return .visitChildren
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { enterType(node.genericParameterClause != nil) }
    override func visitPost(_ node: ClassDeclSyntax) { genericTypes.removeLast() }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { enterType(node.genericParameterClause != nil) }
    override func visitPost(_ node: StructDeclSyntax) { genericTypes.removeLast() }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { enterType(node.genericParameterClause != nil) }
    override func visitPost(_ node: EnumDeclSyntax) { genericTypes.removeLast() }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { enterType(node.genericParameterClause != nil) }
    override func visitPost(_ node: ActorDeclSyntax) { genericTypes.removeLast() }
    // An extension of a generic type is generic too; without the type's declaration, assume it may be.
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind { enterType(node.genericWhereClause != nil) }
    override func visitPost(_ node: ExtensionDeclSyntax) { genericTypes.removeLast() }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        if let body = node.body {
            let labels = CompletionFunction.labels(of: node.signature.parameterClause.parameters)
            let name = node.name.text.filter { $0 != "`" }
            functions.append(Function(
                body: body,
                swiftName: CompletionFunction.swiftName(node.name.text, labels: labels),
                isAsync: node.signature.effectSpecifiers?.asyncSpecifier != nil,
                isGeneric: node.genericParameterClause != nil || genericTypes.last == true,
                typeNameStem: name.prefix(1).uppercased() + name.dropFirst(),
                parameterNames: Set(node.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text }),
                returnsValue: node.signature.returnClause.map { !["Void", "()"].contains($0.type.trimmedDescription) } ?? false,
                closureParameterNames: Self.closureParameterNames(node.signature.parameterClause.parameters),
                parameters: node.signature.parameterClause.parameters.map(ParameterShape.init),
                isPublic: Self.isPublic(node.modifiers, node),
                outerClosureParameterNames: Self.outerClosureParameterNames(of: node)
            ))
        }
        return .visitChildren
    }

    /// `public` or `open` on the declaration or on the extension holding it.
    static func isPublic(_ modifiers: DeclModifierListSyntax, _ node: some SyntaxProtocol) -> Bool {
        let visible: Set<String> = ["public", "open"]
        if modifiers.contains(where: { visible.contains($0.name.text) }) { return true }
        var parent = node.parent
        while let current = parent {
            if let ext = current.as(ExtensionDeclSyntax.self) { return ext.modifiers.contains { visible.contains($0.name.text) } }
            if current.is(ClassDeclSyntax.self) || current.is(StructDeclSyntax.self) || current.is(EnumDeclSyntax.self) || current.is(ActorDeclSyntax.self) {
                return false
            }
            parent = current.parent
        }
        return false
    }

    /// `didSet`, `willSet`, `get`, `set` of a property or subscript: reported as `status.didSet`.
    override func visit(_ node: AccessorDeclSyntax) -> SyntaxVisitorContinueKind {
        if let body = node.body {
            let owner = node.parent?.parent?.parent
            let property = owner?.as(PatternBindingSyntax.self)?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
            let name = (property ?? (owner?.is(SubscriptDeclSyntax.self) == true ? "subscript" : "property")).filter { $0 != "`" }
            let kind = node.accessorSpecifier.text
            let isGeneric = owner?.as(SubscriptDeclSyntax.self)?.genericParameterClause != nil
            functions.append(Function(
                body: body,
                swiftName: "\(name).\(kind)",
                isAsync: node.effectSpecifiers?.asyncSpecifier != nil,
                isGeneric: isGeneric || genericTypes.last == true,
                typeNameStem: name.prefix(1).uppercased() + name.dropFirst() + kind.prefix(1).uppercased() + kind.dropFirst()
            ))
        }
        return .visitChildren
    }

    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
        if let body = node.body {
            let labels = CompletionFunction.labels(of: node.signature.parameterClause.parameters)
            functions.append(Function(
                body: body,
                swiftName: CompletionFunction.swiftName("init", labels: labels),
                isAsync: node.signature.effectSpecifiers?.asyncSpecifier != nil,
                isGeneric: node.genericParameterClause != nil || genericTypes.last == true,
                typeNameStem: "Init",
                parameterNames: Set(node.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text }),
                closureParameterNames: Self.closureParameterNames(node.signature.parameterClause.parameters),
                parameters: node.signature.parameterClause.parameters.map(ParameterShape.init),
                isPublic: Self.isPublic(node.modifiers, node)
            ))
        }
        return .visitChildren
    }
}
