import SwiftParser
import SwiftSyntax

/// What the whole tree declares, gathered before any file is rewritten, so that a file can use
/// knowledge from the others: a handler's typealias, a returned handle's `cancel()`, a type's
/// `Sendable` conformance, an async version of a function that already exists elsewhere.
///
/// ## Building
/// One pass over every file: ``summarize(source:fileName:isContext:)`` reads one file into a
/// ``FileSummary`` (pure, safe to call from many threads; the syntax tree is dropped on return),
/// and ``init(summaries:)`` joins the summaries. Files named with `--context` are summarized with
/// `isContext: true`: they add knowledge and are never rewritten. The index holds summaries only
/// (names, type text, locations), never syntax trees, so its size follows the number of
/// declarations, not the size of the sources. A run's index
/// (``init(summaries:keepsSummaries:reading:)`` with `keepsSummaries: false`) drops the per-file
/// summaries once joined, and for a run that only adds alternatives reads in full only the
/// functions some handler is handed to (``FunctionReading/handOffTargets``).
///
/// ## What it knows
/// - **Typealiases**, generic (`typealias Completion<T> = (Result<T, Error>) -> Void`), nested in
///   a type (`OAuthSwiftHTTPRequest.CompletionHandler`) and reached qualified (`Moya.Completion`,
///   where `Moya` may be a module): ``typeAlias(named:genericArguments:qualifier:from:)``.
/// - **Cancellable types**: types and protocols with a `cancel()` method, declared directly, in an
///   extension, or inherited from a protocol declared anywhere in the tree: ``isCancellable(_:)``.
/// - **Sendable types**: declared `Sendable` (also `@unchecked`, through an extension, through a
///   protocol refining `Sendable`, or an actor): ``isSendable(_:)``.
/// - **Completion-handler functions** (the rule in Migration/README.md), each summarized as a
///   ``CompletionFunctionSummary``: handler shape, value and error types, tuple labels of a
///   multi-value handler, where the function is, how often its body calls the handler, and
///   existing promise or async counterparts anywhere in the tree. Look them up by base name and
///   argument labels with ``completionFunctions(baseName:argumentLabels:)``, as a call site spells
///   them; ``CompletionFunctionSummary/alternative(for:)`` says whether a run adds its
///   alternative, finds one, or why not.
/// - **Counterparts**: every `async` or `Promise`/`Guarantee`-returning function by enclosing type
///   and Swift name, for "already migrated" (with its place) and for clashes.
///
/// Lookups are syntax-level: a name is matched as written, an enclosing type by its written name
/// (`Outer.Inner`, or `Inner` from an extension), without type checking.
public struct MigrationIndex: Sendable {
    /// A place in a file: 1-based line and column (UTF-8 bytes, as the compiler counts them).
    public struct Location: Sendable, Hashable, Codable, CustomStringConvertible {
        public var file: String
        public var line: Int
        public var column: Int

        public init(file: String, line: Int, column: Int) {
            self.file = file
            self.line = line
            self.column = column
        }

        /// `path:line:column`.
        public var description: String { "\(file):\(line):\(column)" }
        /// The file's name without its folders, as refusals name a place (`Store.swift`).
        var fileName: String { file.split(separator: "/").last.map(String.init) ?? file }
    }

    /// A typealias as declared: `Completion<T> = (Result<T, Error>) -> Void` in `Moya`.
    public struct TypeAlias: Sendable, Equatable {
        /// The name with its enclosing types: `OAuthSwiftHTTPRequest.CompletionHandler`.
        public var qualifiedName: String
        /// `["T"]` for `typealias Completion<T> = ...`.
        public var genericParameters: [String]
        /// The aliased type as written.
        public var aliasedType: String
        public var location: Location
    }

    /// An existing `async` or promise-returning function, for "already migrated".
    public struct Counterpart: Sendable, Equatable {
        public enum Kind: String, Sendable, Codable {
            case async
            case promise
        }
        public var kind: Kind
        /// `fetchUser(id:)`.
        public var swiftName: String
        public var location: Location
        /// The `E` of an async counterpart declared `throws(E)`.
        public var thrownType: String?
        /// Its doc comment says it was added by vow-migrate: it throws what the tool's
        /// alternatives throw (``CompletionFunctionSummary/asyncFailureUnlessCancelled``).
        public var addedByTool = false

        public init(kind: Kind, swiftName: String, location: Location) {
            self.kind = kind
            self.swiftName = swiftName
            self.location = location
        }
    }

    /// How the body of a completion-handler function uses its handler, on every path through it.
    public enum HandlerCalls: Sendable, Equatable {
        /// Every path calls it exactly once (or hands it to code that does, or code the index
        /// cannot see, which is trusted to call it once).
        case once
        /// Some path calls it twice or more (the place of the call that can be the second one).
        case mayRepeat(Location)
        /// Some path of the body ends without calling it (the place where it ends), or hands it
        /// to a function of the tree that may (the place of that hand-off).
        case mayNotCall(Location)
        /// The body never calls it nor hands it on.
        case never
        /// Not known: a protocol requirement or another declaration without a body.
        case unknown
        /// Every path calls it or stores it (`operation.completion = completion`), and how often
        /// the stored handler is called is not known to be once.
        case stored(StoredHandler)
    }

    /// A handler the body keeps for later, and why the index cannot count its calls.
    public struct StoredHandler: Sendable, Equatable {
        /// Where it goes, as written: `operation.completion`, `handlers`, `pendingRequests[id]`.
        public var target: String
        /// The type declaring the property, when the index found it.
        public var type: String?
        /// What following the property found (`FetchOperation.main()` can call it more than
        /// once), nil when it could not be followed.
        public var problem: String?
        /// Where it is stored (or handed to the function that stores it).
        public var location: Location
        /// The function of the tree the handler is handed to, which stores it.
        public var through: String?

        public init(target: String, type: String?, problem: String?, location: Location, through: String? = nil) {
            self.target = target
            self.type = type
            self.problem = problem
            self.location = location
            self.through = through
        }

        private var stores: String {
            let place = type.map { "`\(target)` (a property of `\($0)`)" } ?? "`\(target)`"
            if let through { return "it hands its handler to `\(through)`, which stores it in \(place)" }
            return "it stores its handler in \(place)"
        }

        /// Why no alternative is added.
        public var reason: String {
            "\(stores); \(problem ?? "cannot tell how often it is called") (--trust-stored-handlers adds a promise alternative anyway)"
        }

        /// What a promise alternative added with `--trust-stored-handlers` risks.
        public var trustedNote: String {
            "trusting the handler stored in `\(target)` (--trust-stored-handlers): the first answer is kept and later ones "
                + "dropped (a promise reports them to `conf.diagnosticHandler`, the async form prints them); with no answer "
                + "the promise stays pending and the await never returns"
        }

        /// Why no async alternative is added even with `--trust-stored-handlers`.
        public var asyncReason: String {
            "\(stores); --trust-stored-handlers adds the async alternative only in a file that imports Foundation: "
                + "its resume-once bridge (a continuation resumed twice traps) locks with `NSLock`"
        }
    }

    /// A completion-handler function: everything a caller or a converter needs to know about it.
    public struct CompletionFunctionSummary: Sendable, Equatable {
        /// `fetchUser`.
        public var baseName: String
        /// The argument labels in declaration order, nil for `_`: `["id", "completion"]`.
        public var argumentLabels: [String?]
        /// `fetchUser(id:completion:)`.
        public var swiftName: String
        /// The enclosing type as written (`UserService`, `API.Users`), or "" at file scope.
        public var scope: String
        /// Where the `func` keyword is.
        public var location: Location
        /// Whether it comes from a `--context` file (known, never rewritten).
        public var isContext: Bool
        /// The handler's parameter position (the success handler of a split pair).
        public var handlerIndex: Int
        /// The failure handler's position of a split `success:`/`failure:` pair.
        public var failureIndex: Int?
        /// How the handler reports its outcome.
        public var shape: HandlerShape
        /// What the alternative produces: `User`, `Void`, `(data: Data, response: URLResponse)`.
        public var valueType: String
        /// The error the alternative can throw: `"any Error"`, a typed `Result`'s failure type, or
        /// nil when the handler cannot fail and the function does not throw.
        public var errorType: String?
        /// The labels of a multi-value handler's tuple (`["data", "response"]`), else empty.
        public var tupleLabels: [String]
        /// The function also `throws` synchronously.
        public var isThrowing: Bool
        /// The type of the returned cancellable handle (`URLSessionDataTask`, `DownloadTask?`).
        public var cancellableHandle: String?
        /// The handler (or pair) is optional or has a default value (`completion: (...)? = nil`).
        public var handlerIsOptional: Bool
        /// How the body calls the handler.
        public var handlerCalls: HandlerCalls
        /// Why no alternative can be generated (not counting counterparts), or nil.
        public var skipReason: String?
        /// The labels the promise and async alternatives take: the argument labels without the
        /// handlers (the promise form adds `cancellation` for a cancellable handle).
        public var alternativeLabels: [String?]
        /// Existing `Promise`/`Guarantee`-returning function with the alternative's name and labels
        /// in the same type (any file of the tree).
        public var promiseCounterpart: Counterpart?
        /// Existing `async` function with the alternative's name and labels in the same type.
        public var asyncCounterpart: Counterpart?
        /// Why the promise / async alternative could not be generated though the function is
        /// readable (a defaulted handler in async form, an opaque value type...), or nil.
        public var promiseBlocker: String?
        public var asyncBlocker: String?
        /// The alternatives' Swift names: `fetchUser(id:)`, `download(from:cancellation:)`.
        public var promiseAlternativeName: String
        public var asyncAlternativeName: String
        /// The handler's parameter types as the declaration spells them (aliases resolved).
        public var handlerParameterTypes: [String] = []
        /// Every parameter as argument matching sees it, and the alternatives' (for checking them
        /// against existing calls: ``captureCheck(of:target:)``).
        public var parameterShapes: [ParameterShape] = []
        public var promiseAlternativeParameters: [ParameterShape] = []
        public var asyncAlternativeParameters: [ParameterShape] = []
        /// The default values of the handler (and failure handler), by parameter position, as written.
        public var handlerDefaults: [Int: String] = [:]
        /// `public` or `open`: callers may be outside the tree.
        public var isPublic = false
        /// The function's own generic parameters (`T` of `load<T>`): a call site cannot spell a
        /// type that names them.
        public var genericParameterNames: [String] = []
        /// The handler's type names a global actor (`@MainActor (Bool) -> Void`): the callback
        /// runs isolated to it, which a promise chain's handlers are not.
        public var handlerIsActorIsolated = false
        /// The `E` the generated async alternative throws typed (`throws(E)`), as its emitter
        /// writes it; nil when it throws `any Error`.
        public var asyncTypedFailure: String?
        /// The `E` the generated async alternative throws besides `CancellationError`, which it
        /// throws only when its Task is cancelled (a function returning a cancellable handle).
        public var asyncFailureUnlessCancelled: String?
        /// The body calls its handler only inside closures that run after it returns (a queue hop,
        /// a new task: ``HandlerUse/callsBackOnlyLater``), never before it returns: code after a
        /// call runs before the callback, on every path.
        public var callsBackLater = false
        /// What its body calls before it returns (``SynchronousCalls``).
        var synchronousCalls: [String] = []
        /// Where its body answers the handler, use by use (``HandlerUse/placedUses``).
        var placedUses: [HandlerUse.PlacedUse] = []
        /// It answers on the main queue on every path, or at once where it does not (so on the
        /// main queue when called there): ``MigrationIndex/answerPlaces(of:visiting:)``. A
        /// callback's code ran on the main queue then, which a new `Task` must keep.
        public var answersOnMain = false
        /// It answers on the main queue on some path (and perhaps elsewhere on others): a
        /// callback's code may have run there, which a new `Task` keeps where it runs on the main
        /// actor (code that ran elsewhere moves to the main actor then, not off it).
        public var mayAnswerOnMain = false
        /// It answers on the queue this parameter names (`queue.async { completion(x) }`), on
        /// the main queue or at once elsewhere; or it takes this one queue parameter and answers
        /// where its body does not show. Its position, and whether its default value is the main
        /// queue (`queue: DispatchQueue = .main`).
        public var answerQueue: AnswerQueue?
        /// Its parameters of a queue type, by name inside the body.
        var queueParameters: [String: AnswerQueue] = [:]
        /// Other functions of its type whose alternative would be the same as this one's
        /// (``collidingOverloads(of:scope:location:)``), and the reason that names the first.
        var collidingRivals: [Location] = []
        var collisionReason: String?

        /// Whether its body lets it have an alternative, as far as the index knows: nothing in its
        /// declaration rules one out and no path calls its handler twice (a path may store it, or
        /// end without calling it: ``answersNothingAt``), and some path calls it.
        var bodyAllowsAlternative: Bool {
            guard skipReason == nil else { return false }
            switch handlerCalls {
            case .mayRepeat, .never: return false
            case .once, .unknown, .stored, .mayNotCall: return true
            }
        }

        /// Where a path of its body ends without calling its handler: the callback never runs
        /// there, and its async alternative never answers there either (the awaiting task stays
        /// suspended), which only an awaiting *function* turns into a change: it would not return
        /// where it returned before. (The promise alternative's promise stays pending there,
        /// `ifAbandoned: .stayPending`: no handler of a chain on it runs.)
        public var answersNothingAt: Location? {
            if case .mayNotCall(let place) = handlerCalls { return place }
            return nil
        }

        /// The handler's position, and the failure handler's for a split pair.
        public var handlerIndices: [Int] { [handlerIndex] + (failureIndex.map { [$0] } ?? []) }

        /// What a run with `--to target` does for this function, as `FileRewrite` decides it.
        /// `trustingStoredHandlers` (`--trust-stored-handlers`): a function that stores its handler
        /// gets a promise alternative (a promise settles once), never an async one (see
        /// ``StoredHandler``).
        public func alternative(for target: MigrationTarget, trustingStoredHandlers: Bool = false) -> AlternativeStatus {
            let counterpart = target == .promise ? promiseCounterpart : asyncCounterpart
            if let counterpart { return .existing(counterpart) }
            if let skipReason { return .none(reason: skipReason) }
            switch handlerCalls {
            case .mayRepeat: return .none(reason: "its handler can be called more than once")
            case .never: return .none(reason: "its body never calls its handler")
            case .stored(let stored):
                if !trustingStoredHandlers { return .none(reason: stored.reason) }
                if target == .async { return .none(reason: stored.asyncReason) }
            case .once, .unknown, .mayNotCall: break
            }
            if let blocker = target == .promise ? promiseBlocker : asyncBlocker { return .none(reason: blocker) }
            return .generated(swiftName: target == .promise ? promiseAlternativeName : asyncAlternativeName)
        }
    }

    /// Whether a function has (or gets, in a run) an alternative in a target form.
    public enum AlternativeStatus: Sendable, Equatable {
        /// The run adds it, with this Swift name.
        case generated(swiftName: String)
        /// It exists already, here.
        case existing(Counterpart)
        /// There is none, for this reason.
        case none(reason: String)
    }

    // MARK: - Stored summaries

    private var aliases: [String: TypeAlias] = [:]
    /// Last component of a qualified alias name to its qualified names.
    private var aliasesBySimpleName: [String: [String]] = [:]
    private var cancellableTypes: Set<String> = []
    private var sendableTypes: Set<String> = []
    /// Declared types Swift does not infer `Sendable` for, with what they are ("a class").
    private var notImplicitlySendable: [String: String] = [:]
    /// Generic parameters and associated types not constrained to `Sendable`, by type name.
    private var typeParameters: [String: [String]] = [:]
    /// Names of declared types (qualified and simple), to tell a module qualifier from a type.
    private(set) var typeNames: Set<String> = []
    /// Names of declared types as qualified as their declarations make them (`Manager.Error`).
    private var qualifiedTypeNames: Set<String> = []
    /// Types declaring a nested `Error` (simple name to the nested type's qualified name).
    private var nestedErrorOwners: [String: String] = [:]
    /// The generic parameters of each generic type the tree declares, by qualified name.
    private(set) var typeGenericParameters: [String: [String]] = [:]
    /// Actors and types declared with a global actor (qualified and simple names): their
    /// members' alternatives share their isolation (see ``ActorContext``). `@objcMembers`
    /// classes too, whose members are exposed to Objective-C: theirs keep the plain form.
    private(set) var isolatedTypes: Set<String> = []
    /// Every completion-handler function, once, in the order the summaries list them.
    private var completionFunctionList: [CompletionFunctionSummary] = []
    /// Base name to positions in `completionFunctionList` (one copy of each summary, not two).
    private var functionsByBaseName: [String: [Int]] = [:]
    /// What each function with a body runs at once (``SynchronousCalls``), by base name: every
    /// function's where the index was built for call sites, else the completion-handler functions'.
    private var synchronousCallsByBaseName: [String: [(location: Location, calls: [String])]] = [:]
    /// Those base names: a call of any other name reaches no completion-handler function.
    private(set) var completionFunctionBaseNames: Set<String> = []
    /// `scope|swiftName` to the functions declared with that name (any kind).
    private var declarations: [String: [DeclaredFunction]] = [:]
    /// Every function by base name, with its parameters: what else a call of that name may reach.
    private(set) var declaredShapes: [String: [DeclaredShape]] = [:]
    /// The same by base name and enclosing type (its last component): the overloads of one type,
    /// without walking every type's namesakes (a tree of many services all declaring `load`).
    private(set) var declaredShapesInType: [String: [DeclaredShape]] = [:]
    /// Calls of the base names some function declares with a closure parameter, by base name.
    private(set) var callsByBaseName: [String: [ExistingCall]] = [:]
    /// Those base names.
    private var closureFunctionNames: Set<String> = []
    /// Every call followed by code where it is written, or ending a function, by base name
    /// (``callWithCodeAfter(_:parameters:typeName:)``).
    private var continuedCalls: [String: [ExistingCall]] = [:]
    /// Test helpers waiting for their closure's answer, by base name (``WaitingHelper``).
    private var waitingHelpers: [String: [WaitingHelper]] = [:]
    /// Functions returning a promise, by base name (``PromiseFunctionSummary``); their calls in
    /// async code are in ``callsByBaseName``.
    public private(set) var promiseFunctionsByBaseName: [String: [PromiseFunctionSummary]] = [:]
    /// The promise-returning functions `--replace --to async` makes async (``PromiseReplacementVerdict``).
    var replacedPromiseFunctions = Set<Location>()
    /// The functions (``ForwardingFacts/Function/key``) whose callback handing their answer on off
    /// the main queue the async form converts: every call of them in the tree is converted by the
    /// same run, so no caller's code runs where the callee answered (set by the run, from a first
    /// pass: ``ForwardingFacts``).
    public var forwardingAllowed = Set<String>()
    /// The run migrating with this index decides ``forwardingAllowed`` (a run over a tree does; a
    /// run over one file, whose index is the file's own, does not).
    public var runDecidesForwarding = false
    /// The functions (``ForwardingFacts/Function/key``) whose callers running code after calling
    /// them are all converted by the run (``ForwardingFacts/cleared(by:index:)``).
    public var codeAfterCleared = Set<String>()
    /// The files importing PromiseKit, as read.
    var filesImportingPromiseKit = Set<String>()
    /// The files importing Foundation (or a module exporting it), as read: where an async
    /// alternative can lock (``AlternativeEmitter/canLockWithFoundation``).
    var filesImportingFoundation = Set<String>()
    /// Functions returning an optional that answer their handler exactly when they return `nil`,
    /// by base name (``HandlerUse/answersWhenReturningNil``).
    var nilAnsweringHelpers: [String: [NilAnsweringHelper]] = [:]

    struct NilAnsweringHelper: Sendable {
        var argumentLabels: [String?]
        var handlerPosition: Int
        var answer: HandlerUse.NilAnswer
    }
    /// The variables and constants the tree declares at file scope.
    var globalVariables = Set<String>()
    /// The names some file uses as function values (``UncalledFunctionNames``).
    var uncalledFunctionNames = Set<String>()
    /// The files read in pieces (``FileSummary/readInPieces``).
    var filesReadInPieces = Set<String>()
    /// The run switches PromiseKit to Vow before rewriting (``init(summaries:keepsSummaries:reading:switchesFromPromiseKit:)``).
    public private(set) var switchesFromPromiseKit = false
    /// Base names of the tree's (not `--context`) completion-handler functions with a defaulted
    /// handler: the calls each file may have to spell out.
    private(set) var defaultedHandlerNames: Set<String> = []
    /// Files the index was built from.
    public private(set) var files: Set<String> = []
    /// Where a file of the run (or of `--context`) assigns `conf.Q` or `conf.D`: chain handlers
    /// that name no queue then need not run on the main queue (see ``DefaultQueueAssignment``).
    public private(set) var defaultQueueAssignment: Location?
    /// Where a file of the run (not `--context`) starts an application (``AppEntryPoint``).
    public private(set) var appEntryPoint: Location?
    /// Files of Swift packages that declare a library product.
    private(set) var filesInLibraryPackages: Set<String> = []
    /// Whether callers outside the tree may reach its public functions (``PublicAPI``).
    public private(set) var publicAPI: PublicAPI = .keep
    /// The summaries it was built from (text and locations only), for ``adding(_:)`` to rebuild
    /// from; nil for an index built without them (``init(summaries:keepsSummaries:reading:)``).
    private var summaries: [FileSummary]? = []
    /// What each type inherits (qualified and simple names), kept for a file joined later.
    private(set) var inheritance: [String: Set<String>] = [:]
    /// A class's superclass, where its body shows it has one (``TypeRecord/superclass``).
    private(set) var superclasses: [String: String] = [:]
    /// The types naming each type (last component) among their parents: ``inheritance`` read the other way.
    private var inheritors: [String: [String]] = [:]
    /// Which completion-handler functions are read into summaries.
    public private(set) var reading = FunctionReading.all
    /// Base names that some function hands its handler to, for `reading == .handOffTargets`.
    private var handOffTargets: Set<String> = []
    /// Base names some call of the tree spells, for `reading == .calledOrHandedOff`.
    private var calledNames: Set<String> = []
    /// Stored closure properties as `Type.property` (qualified and simple type name), to follow a
    /// handler stored in one.
    private var closureProperties: Set<String> = []
    /// `Type.property` to the methods of the type calling it (any declaration or extension).
    private var propertyCalls: [String: [FileSummary.PropertyCall]] = [:]
    /// Property name to the types declaring a stored closure property of that name.
    private var storedHandlerOwners: [String: Set<String>] = [:]

    /// Which completion-handler functions an index reads into a ``CompletionFunctionSummary``
    /// (each one is read with the whole tree's typealiases: its declaration parsed again, its
    /// alternatives named).
    public enum FunctionReading: Sendable, Equatable {
        /// Every one: what the call-site stage and a lookup of any function by name need.
        case all
        /// Only the functions that some function of the tree hands its handler to
        /// (`fetch(id: id, completion: completion)`, by base name): all that adding or converting
        /// declarations asks of the index (the verdict of a callee a handler is handed to).
        /// ``completionFunctions(baseName:)`` finds no other function in such an index.
        case handOffTargets
        /// Those, and the functions whose base name some call of the tree spells
        /// (``FileSummary/calledNames``): all the call-site stage asks, since it looks a callee up
        /// by the base name of a call it reads. A large file's thousands of functions nobody in
        /// the tree calls are not read (their summaries were most of a run's index).
        /// Like ``handOffTargets``, meant for an index built from every file of the run: a file
        /// joined later (``adding(_:)``) finds no function of the others that only it calls.
        case calledOrHandedOff
    }

    /// A declared function as a call's argument matching sees it.
    struct DeclaredShape: Sendable, Equatable {
        var scope: String
        var swiftName: String
        var parameters: [ParameterShape]
        var location: Location
        var isPublic = false
    }

    struct DeclaredFunction: Sendable, Equatable {
        var isAsync: Bool
        var returnsVowType: Bool
        var location: Location
        /// Declared in a protocol: its alternative goes into an extension of the protocol, where
        /// it serves a default implementation of the same name too.
        var isProtocolRequirement = false
        /// Declared `throws`.
        var isThrowing = false
        /// Declared `throws(E)`: `E`.
        var thrownType: String?
        /// Added by vow-migrate (its doc comment says so).
        var addedByTool = false
    }

    /// An index that knows nothing.
    public init() {}

    // MARK: - Lookups

    /// The completion-handler functions with this base name and these argument labels (nil for
    /// `_`), in every type of the tree; one entry per declaration, in file order. A call site with
    /// trailing closures gives their labels from the declaration, so prefer
    /// ``completionFunctions(baseName:)`` and match the leading labels there.
    public func completionFunctions(baseName: String, argumentLabels: [String?]) -> [CompletionFunctionSummary] {
        completionFunctions(baseName: baseName).filter { $0.argumentLabels == argumentLabels }
    }

    /// Every completion-handler function with this base name.
    public func completionFunctions(baseName: String) -> [CompletionFunctionSummary] {
        (functionsByBaseName[baseName] ?? []).map { completionFunctionList[$0] }
    }

    /// Every completion-handler function of the tree, in no particular order.
    public var allCompletionFunctions: [CompletionFunctionSummary] {
        completionFunctionList
    }

    /// The typealias a type name refers to from inside `scope` (the enclosing type as written,
    /// "" at file scope): `Completion` inside `Moya.Provider` finds `Moya.Provider.Completion`,
    /// `Moya.Completion` or a file-scope `Completion`. With a `qualifier` (`Moya` in
    /// `Moya.Completion`) the alias must be a member of that type, or, when no type of that name
    /// is declared (a module), a file-scope alias.
    ///
    /// As Swift looks a member up, each type is searched with what it inherits: its superclass
    /// chain and the protocols it (or an extension of it, in any file) conforms to, so a subclass
    /// finds `TokenCompletionHandler` declared in `extension OAuthSwift` of its superclass.
    public func typeAlias(named name: String, qualifier: String? = nil, from scope: String = "") -> TypeAlias? {
        if let qualifier {
            if let alias = memberAlias(name, of: qualifier) { return alias }
            for candidate in enclosingScopes(scope) where !candidate.isEmpty {
                if let alias = memberAlias(name, of: "\(candidate).\(qualifier)") { return alias }
            }
            // `Moya.Completion` with `Moya` a module: the alias is at the module's file scope.
            if !typeNames.contains(qualifier) { return aliases[name] }
            return nil
        }
        for candidate in enclosingScopes(scope) {
            if candidate.isEmpty { return aliases[name] }
            if let alias = memberAlias(name, of: candidate) { return alias }
        }
        return nil
    }

    /// The alias `name` declared in `type` or in a type it inherits from, nearest first (the
    /// type itself, then its superclass and protocols, then theirs).
    private func memberAlias(_ name: String, of type: String) -> TypeAlias? {
        if let alias = aliases["\(type).\(name)"] { return alias }
        var visited: Set<String> = [type]
        var level = [type]
        while !level.isEmpty {
            var next: [String] = []
            for current in level {
                let parents = inheritance[current] ?? inheritance[Self.lastComponent(current)] ?? []
                for parent in parents.sorted() {
                    let base = Self.baseTypeName(parent)
                    guard visited.insert(base).inserted else { continue }
                    if let alias = aliases["\(base).\(name)"] ?? aliasesBySimpleName[name]?
                        .first(where: { Self.lastComponent(String($0.dropLast(name.count + 1))) == Self.lastComponent(base) })
                        .flatMap({ aliases[$0] }) {
                        return alias
                    }
                    next.append(base)
                }
            }
            level = next
        }
        return nil
    }

    /// The aliased type with generic arguments substituted, as a type node: `Completion<User>`
    /// with `typealias Completion<T> = (Result<T, Error>) -> Void` is `(Result<User, Error>) -> Void`.
    /// Nil when the alias is unknown or the number of arguments does not match.
    func resolvedAlias(named name: String, qualifier: String?, genericArguments: [String], from scope: String) -> TypeSyntax? {
        guard let alias = typeAlias(named: name, qualifier: qualifier, from: scope),
              alias.genericParameters.count == genericArguments.count else { return nil }
        var text = alias.aliasedType
        if !genericArguments.isEmpty {
            let mapping = Dictionary(zip(alias.genericParameters, genericArguments), uniquingKeysWith: { first, _ in first })
            text = Self.substitute(mapping, in: text)
        }
        var parser = Parser(text)
        return TypeSyntax.parse(from: &parser)
    }

    /// Whether a type, protocol or enum of this name is declared in a file of the run.
    public func declaresType(_ type: String) -> Bool {
        typeNames.contains(type) || typeNames.contains(Self.lastComponent(type))
    }

    /// Whether a typealias of this name is declared in a file of the run.
    public func declaresAlias(_ name: String) -> Bool {
        aliases[name] != nil || aliasesBySimpleName[Self.lastComponent(name)] != nil
    }

    /// Whether a parameter's type carries a global actor attribute (`@MainActor`), through
    /// optionals and parentheses.
    static func namesGlobalActor(_ type: TypeSyntax) -> Bool {
        type.tokens(viewMode: .sourceAccurate).contains { token in
            token.previousToken(viewMode: .sourceAccurate)?.tokenKind == .atSign && token.text.hasSuffix("Actor")
        }
    }

    /// `type` as code outside `scope` must spell it: a name that `scope` or a type around it nests
    /// (`Outcome` in `HikeRecorderViewModel`) gets its qualifier (`HikeRecorderViewModel.Outcome`).
    public func qualifiedType(_ type: String, in scope: String) -> String {
        guard !scope.isEmpty else { return type }
        var parser = Parser(type)
        let parsed = TypeSyntax.parse(from: &parser)
        var replacements: [(Range<Int>, String)] = []
        for token in parsed.tokens(viewMode: .sourceAccurate) {
            guard case .identifier(let name) = token.tokenKind, token.parent?.is(IdentifierTypeSyntax.self) == true else { continue }
            var parts = scope.split(separator: ".").map(String.init)
            while !parts.isEmpty {
                let qualified = (parts + [name]).joined(separator: ".")
                if typeNames.contains(qualified) {
                    let start = token.positionAfterSkippingLeadingTrivia.utf8Offset
                    replacements.append((start..<token.endPositionBeforeTrailingTrivia.utf8Offset, qualified))
                    break
                }
                parts.removeLast()
            }
        }
        guard !replacements.isEmpty else { return type }
        var bytes = Array(type.utf8)
        for (range, text) in replacements.reversed() { bytes.replaceSubrange(range, with: Array(text.utf8)) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The failure type a `Result` handler of a function in `scope` names, when it is not Swift's
    /// `Error`: `NetworkError`, or `Error` itself where the tree declares a type of that name in
    /// the function's type or around it (RevenueCat's `OfferingsManager.Error`). Nil for `any Error`.
    public func typedFailure(_ failure: String, in scope: String) -> String? {
        let spelled = failure.filter { $0 != " " && $0 != "(" && $0 != ")" }
        guard ["Error", "Swift.Error", "anyError", "anySwift.Error"].contains(spelled) else { return failure }
        guard spelled == "Error" else { return nil }
        var parts = scope.split(separator: ".").map(String.init)
        while true {
            // (Qualified names only: a nested `Manager.Error` is not the `Error` of other types.)
            let qualified = (parts + ["Error"]).joined(separator: ".")
            if qualifiedTypeNames.contains(qualified) { return qualified }
            if let inherited = inheritedError(of: parts.joined(separator: ".")) { return inherited }
            if parts.isEmpty { return nil }
            parts.removeLast()
        }
    }

    /// `Base.Error` for a type inheriting from (or conforming to) `Base`, at any depth.
    private func inheritedError(of type: String) -> String? {
        guard !type.isEmpty, !nestedErrorOwners.isEmpty else { return nil }
        var pending = [type]
        var seen: Set<String> = [type]
        while let next = pending.popLast() {
            for (parent, children) in inheritors where children.contains(where: { $0 == next || Self.lastComponent($0) == Self.lastComponent(next) }) {
                guard seen.insert(parent).inserted else { continue }
                if let nested = nestedErrorOwners[parent] { return nested }
                pending.append(parent)
            }
        }
        return nil
    }

    public func isCancellable(_ type: String) -> Bool {
        let base = Self.baseTypeName(type)
        return cancellableTypes.contains(base) || cancellableTypes.contains(Self.lastComponent(base))
    }

    /// Whether the type is declared `Sendable` somewhere in the tree (or is an actor).
    public func isSendable(_ type: String) -> Bool {
        let base = Self.baseTypeName(type)
        return sendableTypes.contains(base) || sendableTypes.contains(Self.lastComponent(base))
    }

    /// The generic parameters (a protocol's associated types) of a type the tree declares that
    /// are not constrained to `Sendable`: what an alternative in an extension of it must require.
    public func nonSendableTypeParameters(of type: String) -> [String] {
        typeParameters[type] ?? typeParameters[Self.lastComponent(type)] ?? []
    }

    /// A type named in `valueType` that the tree declares and that is not `Sendable` (a class,
    /// or a public struct or enum, without a `Sendable` conformance anywhere in the tree), with
    /// what it is, and whether it is one of the SDK's (``sdkNotSendable``) rather than the tree's.
    /// A `Promise` or `Guarantee` cannot carry it.
    public func notSendableType(in valueType: String) -> (name: String, kind: String, fromSDK: Bool)? {
        let names = identifiers(in: valueType)
        for name in names where !isSendable(name) {
            if let kind = notImplicitlySendable[name] { return (name, kind, false) }
            // `[String: Any]`, an `NSDictionary`: what the SDK declares without `Sendable`
            // (`Any & Sendable` is Sendable).
            if !typeNames.contains(name), !names.contains("Sendable"), let kind = Self.sdkNotSendable[name] { return (name, kind, true) }
        }
        return nil
    }

    /// Types of the standard library and the SDKs that are not `Sendable`, which real completion
    /// handlers pass (`[String: Any]?` from JSON, Core Data objects). Not views and view
    /// controllers: they are isolated to the main actor, so `Sendable`.
    static let sdkNotSendable: [String: String] = {
        var kinds: [String: String] = ["Any": "an existential", "AnyObject": "an existential"]
        for name in ["NSObject", "NSDictionary", "NSMutableDictionary", "NSArray", "NSMutableArray", "NSSet", "NSMutableSet",
                     "NSMutableData", "NSMutableString", "NSMutableAttributedString", "NSManagedObject", "NSManagedObjectContext",
                     "NSFetchedResultsController", "NSPersistentContainer", "CALayer"] {
            kinds[name] = "an SDK class"
        }
        return kinds
    }()

    /// Why a promise alternative with this value type would not compile: Vow's promises need a
    /// `Sendable` value.
    public func promiseValueBlocker(_ valueType: String) -> String? {
        guard let (name, kind, fromSDK) = notSendableType(in: valueType) else { return nil }
        if fromSDK {
            return "its value type holds `\(name)`, \(kind) that is not `Sendable`, and a promise carries only `Sendable` values; "
                + "use --to async, or answer a `Sendable` type"
        }
        return "its value type `\(name)` is \(kind) without a `Sendable` conformance, and a promise carries only `Sendable` values; "
            + "make `\(name)` Sendable, or use --to async"
    }

    /// Why the alternative `emitter` writes would not compile: what the emitter itself sees, and
    /// for a promise in Swift 6 mode, a value type that is not `Sendable` (Swift 5 mode checks no
    /// `Sendable` requirement, so `Promise<NonSendableClass>` compiles there). The declarations
    /// stage skips the function for it; the index records it as that form's blocker.
    func compileBlocker(of emitter: AlternativeEmitter, valueType: String, languageMode: SwiftLanguageMode) -> String? {
        emitter.cannotCompileReason
            ?? (emitter.target == .promise && languageMode.checksSendable ? promiseValueBlocker(valueType) : nil)
    }

    /// A function `scope` already declares under the alternative's name `name` in `target`'s
    /// form (`-> Promise`/`Guarantee`, or `async`): the function is already migrated.
    /// `throwing`: whether the async alternative would throw (its handler reports an error); an
    /// async function that differs there is not the alternative (``alternativeClash(named:in:throwing:)``).
    func existingAlternative(named name: String, in scope: String, for target: MigrationTarget, throwing: Bool? = nil) -> DeclaredFunction? {
        declaredFunctions(named: name, in: scope).first { declared in
            target == .promise ? declared.returnsVowType : declared.isAsync && (throwing == nil || declared.isThrowing == throwing)
        }
    }

    /// Why no alternative named `name` can be added in `scope`: a function of that name in
    /// neither form exists, and the alternative would clash with it. The declarations stage skips
    /// the function for it.
    func alternativeClash(named name: String, in scope: String, throwing: Bool? = nil) -> String? {
        let declared = declaredFunctions(named: name, in: scope)
        if let other = declared.first(where: { !$0.isAsync && !$0.returnsVowType }) {
            return "`\(name)` already exists at \(other.location); an alternative would clash with it"
        }
        // `close() async throws` beside `close(completion: () -> Void)`: not its alternative (a
        // call site awaiting it would need `try` and a path for an error the callback never had),
        // and one more `close() async` would differ from it in `throws` alone.
        if let throwing, let other = declared.first(where: { $0.isAsync && $0.isThrowing != throwing }) {
            return "`\(name)` already exists at \(other.location) as an async function that \(other.isThrowing ? "throws" : "does not throw"), "
                + "while this handler \(throwing ? "reports an error" : "reports none"): it is not this function's alternative, and another would clash with it"
        }
        // A conforming type or subclass declaring a synchronous function of that name: in async
        // code its existing calls (`store.load(id: 1)`) would reach the inherited async one.
        if !scope.isEmpty {
            var pending = [Self.lastComponent(scope)]
            var seen = Set(pending)
            while let next = pending.popLast() {
                for type in inheritors[next] ?? [] where seen.insert(type).inserted {
                    pending.append(type)
                    if let other = declaredFunctions(named: name, in: type).first(where: { !$0.isAsync && !$0.returnsVowType }) {
                        return "`\(type)`, which inherits it, declares `\(name)` at \(other.location): its calls could reach the inherited "
                            + "alternative instead"
                    }
                }
            }
        }
        return nil
    }

    /// Existing functions named `swiftName` (`fetchUser(id:)`) in `scope` or in an extension of
    /// the same type anywhere in the tree, with their kind and place.
    func declaredFunctions(named swiftName: String, in scope: String) -> [DeclaredFunction] {
        var found = declarations["\(scope)|\(swiftName)"] ?? []
        let last = Self.lastComponent(scope)
        if last != scope { found += declarations["\(last)|\(swiftName)"] ?? [] }
        return found
    }

    /// The existing counterpart in the target form, if any.
    public func counterpart(of function: CompletionFunctionSummary, target: MigrationTarget) -> Counterpart? {
        target == .promise ? function.promiseCounterpart : function.asyncCounterpart
    }

    // MARK: - Helpers

    /// `A.B.C` gives `A.B.C`, `A.B`, `A`, "".
    private func enclosingScopes(_ scope: String) -> [String] {
        var result: [String] = []
        var parts = scope.split(separator: ".").map(String.init)
        while !parts.isEmpty {
            result.append(parts.joined(separator: "."))
            parts.removeLast()
        }
        result.append("")
        return result
    }

    static func baseTypeName(_ type: String) -> String {
        var text = type.trimmingSpaces()
        while text.hasSuffix("?") || text.hasSuffix("!") { text.removeLast() }
        if text.hasPrefix("any ") { text = String(text.dropFirst(4)) }
        if text.hasPrefix("some ") { text = String(text.dropFirst(5)) }
        if let generic = text.firstIndex(of: "<") { text = String(text[..<generic]) }
        return text
    }

    static func lastComponent(_ name: String) -> String {
        name.split(separator: ".").last.map(String.init) ?? name
    }

    /// Replaces whole identifiers of `text` by the mapping.
    static func substitute(_ mapping: [String: String], in text: String) -> String {
        var output = ""
        var word = ""
        func flush() {
            output += mapping[word] ?? word
            word = ""
        }
        for character in text {
            if character.isLetter || character.isNumber || character == "_" {
                word.append(character)
            } else {
                flush()
                output.append(character)
            }
        }
        flush()
        return output
    }
}

extension String {
    func trimmingSpaces() -> String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text = text.dropFirst() }
        while text.last?.isWhitespace == true { text = text.dropLast() }
        return String(text)
    }
}

// MARK: - Building

extension MigrationIndex {
    /// Reads one file's declarations into a summary. Pure and thread-safe; keeps no syntax.
    /// A file of 2 MB or more is read in pieces, as its migration reads it.
    /// `languageMode` is the file's (``FileSummary/languageMode``).
    /// `readsForReplace`: also what only a `--replace` run asks about: the names the file hands
    /// on as function values (``UncalledFunctionNames``: one more walk of the tree) and whether
    /// each promise-returning function's body converts (``FileSummary/FunctionRecord/replaceableBody``).
    /// `readsUncalledNames`: the names handed on as function values without the rest, which the
    /// async form's call sites ask about too (``forwardingCallers(of:parameters:typeName:converted:)``).
    public static func summarize(source: String, fileName: String, isContext: Bool = false,
                                 languageMode: SwiftLanguageMode = .v6, readsForReplace: Bool = false,
                                 readsUncalledNames: Bool = false) -> FileSummary {
        var summary: FileSummary
        if let pieces = ChunkedMigration.summarize(source: source, fileName: fileName, isContext: isContext) {
            summary = pieces
        } else {
            summary = summarize(tree: Parser.parse(source: source), fileName: fileName, isContext: isContext,
                                readsForReplace: readsForReplace, readsUncalledNames: readsUncalledNames)
        }
        summary.languageMode = languageMode
        summary.defaultQueueAssignment = DefaultQueueAssignment.first(in: source, fileName: fileName)
        return summary
    }

    static func summarize(tree: SourceFileSyntax, fileName: String, isContext: Bool, readsForReplace: Bool = false,
                          readsUncalledNames: Bool = false) -> FileSummary {
        let collector = IndexCollector(fileName: fileName, converter: SourceLocationConverter(fileName: fileName, tree: tree),
                                       readsReplaceableBodies: readsForReplace)
        collector.readsSynchronousCalls = readsUncalledNames || readsForReplace
        collector.walk(tree)
        let read = ExistingCallCollector.calls(in: tree, fileName: fileName, converter: collector.converter)
        var summary = FileSummary(file: fileName, isContext: isContext, aliases: collector.aliases,
                                  types: collector.types, functions: collector.functions, calls: read.calls, calledNames: read.calledNames)
        summary.globalVariables = collector.globalVariables
        if readsForReplace || readsUncalledNames { summary.uncalledFunctionNames = UncalledFunctionNames.names(in: tree) }
        summary.importsPromiseKit = FileSummary.imports("PromiseKit", tree)
        summary.importsFoundation = FileSummary.importsFoundation(tree)
        if FileSummary.imports("XCTest", tree) { summary.waitingHelpers = WaitingHelper.helpers(in: tree) }
        summary.appEntryPoint = AppEntryPoint.first(in: tree, fileName: fileName, converter: collector.converter)
        return summary
    }

    /// Joins the files' summaries: resolves typealiases, `cancel()` and `Sendable` through
    /// extensions and protocol inheritance across files, reads every completion-handler function
    /// with that knowledge, and follows handlers handed from one function to another.
    public init(summaries: some Sequence<FileSummary>) {
        self.init(summaries: summaries, keepsSummaries: true)
    }

    /// Joins the files' summaries as ``init(summaries:)`` does. With `keepsSummaries: false` the
    /// index keeps what it resolved from them and drops the rest (each function's declaration
    /// text and handler use): what a run over a whole tree needs, since every file of the run is
    /// in the index, at a fraction of the memory. ``adding(_:)`` then joins a new file to what
    /// is there instead of rebuilding from every summary.
    ///
    /// `reading: .handOffTargets` reads only the completion-handler functions that a handler is
    /// handed to, for a run that adds or converts declarations and asks nothing else of them.
    ///
    /// `switchesFromPromiseKit`: the run switches the tree from PromiseKit to Vow first
    /// (`--from-promisekit`), so a file importing PromiseKit will be Vow code when rewritten.
    ///
    /// `publicAPI`: whether a public function may change, or gain an alternative a caller outside
    /// the tree could pick (``PublicAPI``).
    public init(summaries: some Sequence<FileSummary>, keepsSummaries: Bool, reading: FunctionReading = .all,
                switchesFromPromiseKit: Bool = false, publicAPI: PublicAPI = .keep) {
        let list = Array(summaries)
        self.summaries = keepsSummaries ? list : nil
        self.reading = reading
        self.switchesFromPromiseKit = switchesFromPromiseKit
        self.publicAPI = publicAPI
        join(list)
    }

    /// Adds the summaries' declarations, then reads their completion-handler functions with
    /// everything known so far. Functions already in the index keep their summaries.
    private mutating func join(_ summaries: [FileSummary]) {
        var aliasReturningFunctions: [(FileSummary.FunctionRecord, Bool, DefaultIsolation)] = []
        for summary in summaries {
            files.insert(summary.file)
            if summary.importsPromiseKit { filesImportingPromiseKit.insert(summary.file) }
            if summary.importsFoundation { filesImportingFoundation.insert(summary.file) }
            globalVariables.formUnion(summary.globalVariables)
            uncalledFunctionNames.formUnion(summary.uncalledFunctionNames)
            // A call passing a handler never reaches an async function.
            for record in summary.functions where record.hasBody && !record.isAsync {
                synchronousCallsByBaseName[Self.baseName(of: record.swiftName), default: []].append(
                    (record.location, record.synchronousCalls ?? [SynchronousCalls.unread]))
            }
            if summary.readInPieces { filesReadInPieces.insert(summary.file) }
            if defaultQueueAssignment == nil { defaultQueueAssignment = summary.defaultQueueAssignment }
            if !summary.isContext, appEntryPoint == nil { appEntryPoint = summary.appEntryPoint }
            if summary.inLibraryPackage { filesInLibraryPackages.insert(summary.file) }
            for alias in summary.aliases where aliases[alias.qualifiedName] == nil {
                aliases[alias.qualifiedName] = alias
                aliasesBySimpleName[Self.lastComponent(alias.qualifiedName), default: []].append(alias.qualifiedName)
            }
            for type in summary.types {
                if !type.isExtension {
                    typeNames.insert(type.name)
                    typeNames.insert(Self.lastComponent(type.name))
                    qualifiedTypeNames.insert(type.name)
                    if type.name.hasSuffix(".Error") { nestedErrorOwners[Self.lastComponent(String(type.name.dropLast(6)))] = type.name }
                }
                if let superclass = type.superclass { superclasses[type.name] = superclass }
                if type.hasCancel {
                    cancellableTypes.insert(type.name)
                    cancellableTypes.insert(Self.lastComponent(type.name))
                }
                if !type.isExtension, !type.genericParameters.isEmpty {
                    typeGenericParameters[type.name] = type.genericParameters
                }
                if !type.isExtension, !type.nonSendableTypeParameters.isEmpty {
                    typeParameters[type.name] = type.nonSendableTypeParameters
                    typeParameters[Self.lastComponent(type.name), default: type.nonSendableTypeParameters] = type.nonSendableTypeParameters
                }
                if !type.isExtension, let kind = type.notImplicitlySendable {
                    notImplicitlySendable[type.name] = kind
                    notImplicitlySendable[Self.lastComponent(type.name), default: kind] = kind
                }
                if !type.isExtension, type.isIsolated {
                    isolatedTypes.insert(type.name)
                    isolatedTypes.insert(Self.lastComponent(type.name))
                }
                if type.isSendable {
                    sendableTypes.insert(type.name)
                    sendableTypes.insert(Self.lastComponent(type.name))
                }
                for property in type.closureProperties {
                    closureProperties.insert("\(type.name).\(property)")
                    closureProperties.insert("\(Self.lastComponent(type.name)).\(property)")
                    storedHandlerOwners[property, default: []].insert(type.name)
                }
                for call in type.propertyCalls {
                    propertyCalls["\(type.name).\(call.property)", default: []].append(call)
                    if Self.lastComponent(type.name) != type.name {
                        propertyCalls["\(Self.lastComponent(type.name)).\(call.property)", default: []].append(call)
                    }
                }
                if !type.inherited.isEmpty {
                    inheritance[type.name, default: []].formUnion(type.inherited)
                    inheritance[Self.lastComponent(type.name), default: []].formUnion(type.inherited)
                }
            }
            for function in summary.functions {
                let shape = DeclaredShape(scope: function.scope, swiftName: function.swiftName, parameters: function.parameters,
                                          location: function.location, isPublic: function.isPublic)
                declaredShapes[Self.baseName(of: function.swiftName), default: []].append(shape)
                declaredShapesInType[Self.typeKey(Self.baseName(of: function.swiftName), function.scope), default: []].append(shape)
                if function.mayBeCompletionFunction { closureFunctionNames.insert(Self.baseName(of: function.swiftName)) }
                if function.promiseValueType == nil, function.aliasedReturnType != nil {
                    aliasReturningFunctions.append((function, summary.isContext, summary.defaultIsolation))
                }
                if let valueType = function.promiseValueType {
                    promiseFunctionsByBaseName[Self.baseName(of: function.swiftName), default: []].append(PromiseFunctionSummary(
                        function, valueType: valueType, isGuarantee: function.returnsGuarantee,
                        isContext: summary.isContext, defaultIsolation: summary.defaultIsolation))
                }
                let key = "\(function.scope)|\(function.swiftName)"
                declarations[key, default: []].append(DeclaredFunction(isAsync: function.isAsync, returnsVowType: function.returnsVowType,
                                                                        location: function.location,
                                                                        isProtocolRequirement: function.isProtocolRequirement,
                                                                        isThrowing: function.isThrowing, thrownType: function.thrownType,
                                                                        addedByTool: function.addedByTool))
            }
        }
        // `func perform() -> VoidPromise` with `typealias VoidPromise = Promise<Void>` in any file.
        for (function, isContext, defaultIsolation) in aliasReturningFunctions {
            guard let name = function.aliasedReturnType, let alias = typeAlias(named: name, from: function.scope),
                  alias.genericParameters.isEmpty, let valueType = IndexCollector.promiseValueType(alias.aliasedType) else { continue }
            let isGuarantee = IndexCollector.isGuaranteeType(alias.aliasedType)
            var summary = PromiseFunctionSummary(function, valueType: valueType, isGuarantee: isGuarantee,
                                                 isContext: isContext, defaultIsolation: defaultIsolation)
            summary.replaceableBody = isGuarantee ? function.replaceableBodyAsGuarantee : function.replaceableBody
            promiseFunctionsByBaseName[Self.baseName(of: function.swiftName), default: []].append(summary)
        }
        for summary in summaries {
            for helper in summary.waitingHelpers { waitingHelpers[helper.baseName, default: []].append(helper) }
            // Only calls that may reach a function or initializer the tree declares (those joined
            // so far: all of them for a run over a tree, whose index joins every file at once).
            for call in summary.calls where (call.followedByCode || call.endsFunction != nil)
                && (declaredShapes[call.baseName] != nil || typeNames.contains(call.baseName) || call.baseName == "init") {
                continuedCalls[call.baseName, default: []].append(call)
            }
            for call in summary.calls
            // Every call of a promise-returning function when whole functions are converted
            // (`--replace` reads `.all`): one not awaited keeps the function as it is.
            where closureFunctionNames.contains(call.baseName)
                || ((call.inAsyncCode || reading == .all) && promiseFunctionsByBaseName[call.baseName] != nil) {
                var call = call
                call.inContextFile = summary.isContext
                callsByBaseName[call.baseName, default: []].append(call)
            }
        }
        // Conformances reach across files: `extension DownloadTask: Cancellable {}` with
        // `protocol Cancellable { func cancel() }` elsewhere; `protocol Handle: Sendable`.
        var changed = true
        while changed {
            changed = false
            for (type, parents) in inheritance {
                let names = parents.map { Self.lastComponent(Self.baseTypeName($0)) }
                if !cancellableTypes.contains(type), names.contains(where: cancellableTypes.contains) {
                    cancellableTypes.insert(type)
                    changed = true
                }
                if !sendableTypes.contains(type), names.contains(where: { sendableTypes.contains($0) || $0 == "Sendable" }) {
                    sendableTypes.insert(type)
                    changed = true
                }
            }
        }

        inheritors = [:]
        for (type, parents) in inheritance {
            for parent in parents { inheritors[Self.lastComponent(Self.baseTypeName(parent)), default: []].append(type) }
        }

        decideReplacedPromiseFunctions()

        // One array of summaries (the dictionary holds positions): each summary is stored once.
        // Read into locals (the reader holds a copy of this index: appending to a stored array
        // while a copy shares it would copy the array each time).
        var list = completionFunctionList
        completionFunctionList = []
        let firstNew = list.count
        var byBaseName = functionsByBaseName
        functionsByBaseName = [:]
        // Handlers handed on to other functions: their uses, resolved once every function is read.
        // A body that hands its handler to no function has its verdict at once, the one the
        // resolution would give it (a callee's verdict is read from the summary then).
        var uses: [String: HandlerUse] = [:]
        if reading != .all {
            for summary in summaries {
                for record in summary.functions where record.mayBeCompletionFunction {
                    for use in record.handlerUses.values { handOffTargets.formUnion(use.handOffs.map(\.baseName)) }
                }
                if reading == .calledOrHandedOff { calledNames.formUnion(summary.calledNames) }
            }
        }
        for summary in summaries {
            for record in summary.functions where record.mayBeCompletionFunction {
                // Helpers are known before any verdict is resolved (below, once all are read).
                for (position, name) in record.parameterNames.enumerated() {
                    guard let answer = record.handlerUses[name]?.answersWhenReturningNil else { continue }
                    nilAnsweringHelpers[Self.baseName(of: record.swiftName), default: []].append(
                        .init(argumentLabels: Self.argumentLabels(of: record.swiftName), handlerPosition: position, answer: answer))
                }
                // A function with a defaulted handler is read too: other files must know whether
                // their calls that omit it are spelled out (``captureCheck(of:target:)``).
                // So is one with overloads in its type: whether their alternatives collide
                // depends on each one's verdict (``collisionBlocks(_:baseName:rivals:)``).
                if reading != .all && !record.hasDefaultedClosure {
                    let baseName = Self.baseName(of: record.swiftName)
                    if !handOffTargets.contains(baseName) && !calledNames.contains(baseName)
                        && (declaredShapesInType[Self.typeKey(baseName, record.scope)]?.count ?? 0) < 2 { continue }
                }
                guard var function = readCompletionFunction(record, file: summary.file, isContext: summary.isContext,
                                                            languageMode: summary.languageMode) else { continue }
                if let use = record.handlerUses[record.parameterNames[function.handlerIndex]] {
                    function.callsBackLater = use.callsBackOnlyLater
                    function.synchronousCalls = record.synchronousCalls ?? []
                    function.placedUses = use.placedUses
                    if function.skipReason == nil {
                        if use.stores.isEmpty && use.handOffs.isEmpty && use.readings.isEmpty {
                            function.handlerCalls = use.verdict
                        } else {
                            uses[function.swiftName + "@" + function.location.description] = use
                        }
                    }
                }
                byBaseName[function.baseName, default: []].append(list.count)
                list.append(function)
            }
        }
        for function in list[firstNew...] where !function.handlerDefaults.isEmpty && !function.isContext {
            defaultedHandlerNames.insert(function.baseName)
        }
        completionFunctionList = list
        list = []
        functionsByBaseName = byBaseName
        completionFunctionBaseNames = Set(byBaseName.keys)
        var answersOnMain: [Int] = []
        var mayAnswerOnMain: [Int] = []
        var answerQueues: [(Int, String)] = []
        for position in firstNew..<completionFunctionList.count {
            let places = answerPlaces(of: completionFunctionList[position])
            let queues = places.compactMap { place -> String? in if case .queueParameter(let name) = place { return name }; return nil }
            if places.contains(.main) { mayAnswerOnMain.append(position) }
            if places.contains(.elsewhere) {
                // A function taking one queue parameter and answering where the body does not
                // show (`PulseClient(configuration: .init(callbackQueue: queue))`): the queue is
                // taken for the one it answers on, which its callers name.
                let queueParameters = completionFunctionList[position].queueParameters
                if queueParameters.count == 1, let name = queueParameters.keys.first { answerQueues.append((position, name)) }
                continue
            }
            if queues.isEmpty {
                if places.contains(.main) { answersOnMain.append(position) }
            } else if queues.count == 1 {
                answerQueues.append((position, queues[0]))
            }
        }
        for position in answersOnMain { completionFunctionList[position].answersOnMain = true }
        for position in mayAnswerOnMain { completionFunctionList[position].mayAnswerOnMain = true }
        for (position, name) in answerQueues {
            completionFunctionList[position].answerQueue = completionFunctionList[position].queueParameters[name]
        }
        defer { settleCollisions(from: firstNew) }
        guard !uses.isEmpty else { return }
        // Every verdict is worked out from the unresolved summaries, then stored.
        var verdicts: [(Int, HandlerCalls)] = []
        for position in firstNew..<completionFunctionList.count {
            let summary = completionFunctionList[position]
            let key = summary.swiftName + "@" + summary.location.description
            if let use = uses[key] {
                verdicts.append((position, resolveCalls(use, uses: uses, visiting: [key], scope: summary.scope,
                                                        cancellationAnswered: answersCancellation(summary))))
            }
        }
        for (position, verdict) in verdicts {
            completionFunctionList[position].handlerCalls = verdict
        }
    }

    /// Once every body's verdict is known: a function that collides gets the collision as its
    /// blocker, unless ``collisionBlocks(_:baseName:rivals:)`` lets it have the alternative; one
    /// whose body allows none has no counterpart either (an alternative of its name is a rival's).
    mutating func settleCollisions(from first: Int) {
        for position in first..<completionFunctionList.count where !completionFunctionList[position].collidingRivals.isEmpty {
            let summary = completionFunctionList[position]
            guard collisionBlocks(summary.location, baseName: summary.baseName, rivals: summary.collidingRivals) else { continue }
            if summary.promiseBlocker == nil { completionFunctionList[position].promiseBlocker = summary.collisionReason }
            if summary.asyncBlocker == nil { completionFunctionList[position].asyncBlocker = summary.collisionReason }
            if !summary.bodyAllowsAlternative {
                completionFunctionList[position].promiseCounterpart = nil
                completionFunctionList[position].asyncCounterpart = nil
            }
        }
    }

    /// `load|Service` for `load` in `Outer.Service`: the key of ``declaredShapesInType``.
    static func typeKey(_ baseName: String, _ scope: String) -> String {
        baseName + "|" + lastComponent(scope)
    }

    /// `fetchUser` for `fetchUser(id:completion:)`, as a call (and ``HandlerUse/HandOff``) names it.
    static func baseName(of swiftName: String) -> String {
        let name = swiftName.firstIndex(of: "(").map { String(swiftName[..<$0]) } ?? swiftName
        return name.filter { $0 != "`" }
    }

    /// The closure argument of `call` that a test helper of the tree waits on before it
    /// returns (``WaitingHelper``): every helper of that name binds it alike.
    func waitedClosure(of call: FunctionCallExprSyntax) -> ClosureExprSyntax? {
        guard let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
                ?? call.calledExpression.as(MemberAccessExprSyntax.self).flatMap({ member in
                    member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) ? member.declName.baseName.text : nil
                }),
              let helpers = waitingHelpers[name], !helpers.isEmpty,
              declaredShapes[name] == nil || helpers.count == declaredShapes[name]?.count else { return nil }
        let closures = helpers.map { $0.waitedClosure(in: call) }
        guard let first = closures.first ?? nil, closures.allSatisfy({ $0?.id == first.id }) else { return nil }
        return first
    }

    /// A call of the synchronous function `swiftName` (taking `parameters`, declared in
    /// `typeName`; an initializer's called through `typeName`) after which code runs before its
    /// caller returns, found directly or through a caller whose last statement it is (a few levels
    /// up): where a new `Task` in that function would make its first call later than that code
    /// expects. Calls are matched as syntax shows them (``CallBinding``, defaulted arguments left
    /// out; the receiver's type where it says), so a namesake's calls may count too. Returns the
    /// call's place and the Swift name of the function it calls.
    /// `converted`: calls the run converts (``ForwardingFacts``), which are skipped: the caller
    /// awaits an alternative there, after which its code runs whenever the function answers.
    func callWithCodeAfter(_ swiftName: String, parameters: [ParameterShape], typeName: String?,
                           converted: Set<Location> = []) -> (location: Location, callee: String)? {
        var visited: Set<String> = []
        func search(_ name: String, parameters: [ParameterShape], scope: String?, depth: Int) -> (location: Location, callee: String)? {
            guard depth < 6, visited.insert(name + "|" + (scope ?? "?")).inserted else { return nil }
            let base = Self.baseName(of: name)
            let isInitializer = base == "init"
            let callNames = isInitializer ? typeName.map { [Self.lastComponent($0), "init"] } ?? [] : [base]
            for callName in callNames {
                for call in continuedCalls[callName] ?? []
                where !converted.contains(call.location) && CallBinding.bind(call, to: parameters) != nil
                    && mayReach(call, memberOf: scope, isInitializer: isInitializer) {
                    if call.followedByCode { return (call.location, name) }
                    // An initializer a call ends is not followed up: its calls name its type, which the call does not give.
                    if let outer = call.endsFunction, Self.baseName(of: outer.swiftName) != "init",
                       let found = search(outer.swiftName, parameters: outer.parameters, scope: call.scope, depth: depth + 1) {
                        return found
                    }
                }
            }
            return nil
        }
        return search(swiftName, parameters: parameters, scope: typeName, depth: 0)
    }

    /// Whether code runs before a call of the function returns, on the caller's thread, that
    /// shows which thread that is (``SynchronousCalls``): code reading or checking the thread,
    /// a body not read, a function of the tree that does so in turn (a few levels down: `load`
    /// calling `api.get`, which only hops to its queue, shows none; a helper building a request
    /// shows none; a logger naming the thread does), or a closure handed to a function of the tree.
    func startsTreeCodeAtOnce(_ synchronousCalls: [String]) -> Bool {
        var visited = Set<Location>()
        return startsTreeCodeAtOnce(synchronousCalls, depth: 0, visited: &visited, onlyChecks: false)
    }

    /// Whether code that traps on another thread (`dispatchPrecondition`, `MainActor.assumeIsolated`)
    /// runs before a call of the function returns, directly or in a function of the tree it calls.
    func checksThreadAtOnce(_ synchronousCalls: [String]) -> Bool {
        var visited = Set<Location>()
        return startsTreeCodeAtOnce(synchronousCalls, depth: 0, visited: &visited, onlyChecks: true)
    }

    /// `visited`: the functions read so far, whose code counts once (`fetch` handing on to a
    /// namesake of another type).
    private func startsTreeCodeAtOnce(_ synchronousCalls: [String], depth: Int, visited: inout Set<Location>, onlyChecks: Bool) -> Bool {
        synchronousCalls.contains { entry in
            if entry == SynchronousCalls.threadCheck { return true }
            if entry == SynchronousCalls.threadRead || entry == SynchronousCalls.unread { return !onlyChecks }
            let names = entry.split(separator: ">").map(String.init)
            // Only functions the tree declares run its code (initializers are read as plain).
            guard names.allSatisfy({ declaredShapes[$0] != nil }) else { return false }
            guard names.count == 1, let name = names.first, depth < 6 else { return !onlyChecks }
            // Every function of that name with a body, by what it runs at once in turn (async
            // ones too: an alternative calls the original).
            return (synchronousCallsByBaseName[name] ?? []).contains { namesake in
                guard visited.insert(namesake.location).inserted else { return false }
                return startsTreeCodeAtOnce(namesake.calls, depth: depth + 1, visited: &visited, onlyChecks: onlyChecks)
            }
        }
    }

    /// UIKit's and AppKit's classes isolated to the main actor: a subclass's methods are too,
    /// and a `Task { }` in them inherits it.
    static let mainActorFrameworkClasses: Set<String> = [
        "UIViewController", "UITableViewController", "UICollectionViewController", "UINavigationController", "UITabBarController",
        "UIPageViewController", "UISplitViewController", "UIAlertController", "UIView", "UITableViewCell", "UICollectionViewCell",
        "UICollectionReusableView", "UIControl", "UIButton", "UILabel", "UIImageView", "UIScrollView", "UITableView", "UICollectionView",
        "UIWindow", "UIResponder", "UIApplication", "NSViewController", "NSView", "NSWindowController", "NSWindow", "NSResponder",
        "NSApplication", "NSTableCellView", "NSCollectionViewItem",
    ]

    /// `type` (last component) is, or inherits through the tree's declarations, one of
    /// ``mainActorFrameworkClasses``.
    func inheritsMainActorFrameworkClass(_ type: String) -> Bool {
        let simple = Self.lastComponent(type)
        return Self.mainActorFrameworkClasses.contains(simple) || !inheritedNames(of: simple).isDisjoint(with: Self.mainActorFrameworkClasses)
    }

    /// The calls of the tree (and `--context`) that may reach the function `swiftName` (taking
    /// `parameters`, declared in `typeName`) and still hand it a callback after this run: all but
    /// those at `converted` (the call-site stage made them `try await` calls of its alternative)
    /// and an alternative's own call of it inside a continuation. Where such a call's callback
    /// runs is what a function handing its answer on from a new `Task` would change
    /// (``ForwardingFacts``); nil when the function is also used as a value (`run(then: load)`),
    /// whose calls syntax cannot list.
    public func forwardingCallers(of swiftName: String, parameters: [ParameterShape], typeName: String?,
                                  converted: Set<Location>) -> [ExistingCall]? {
        let base = Self.baseName(of: swiftName)
        if uncalledFunctionNames.contains(base) { return nil }
        return (callsByBaseName[base] ?? []).filter { call in
            !call.usesAlternativeResult && !call.insideContinuation && !converted.contains(call.location)
                && CallBinding.bind(call, to: parameters) != nil
                && (call.receiverTypedByConvention || mayReach(call, memberOf: typeName, isInitializer: false))
        }
    }

    /// A call may reach a member of `scope` (nil: any scope), statically or by dynamic dispatch
    /// to an override (`self.load()` in a superclass reaching a subclass's).
    private func mayReach(_ call: ExistingCall, memberOf scope: String?, isInitializer: Bool) -> Bool {
        guard let scope, !isInitializer else { return true }
        if resolves(call, toMemberOf: scope) { return true }
        switch call.receiver {
        case .implicit, .selfOrSuper: return !call.scope.isEmpty && inherits(scope, from: call.scope)
        case .type(let name), .typed(let name): return inherits(scope, from: name)
        case .other: return true
        }
    }

    /// This index with one more file: rebuilt from every summary, or, for an index built
    /// without them, the file joined to what is there (a file it already holds is not added twice).
    /// Meant for a file the index was not built from.
    public func adding(_ summary: FileSummary) -> MigrationIndex {
        guard let summaries else {
            if files.contains(summary.file) { return self }
            var index = self
            index.join([summary])
            return index
        }
        return MigrationIndex(summaries: summaries.filter { $0.file != summary.file } + [summary], keepsSummaries: true, reading: reading,
                              switchesFromPromiseKit: switchesFromPromiseKit, publicAPI: publicAPI)
    }

    /// Whether a caller outside the tree may reach a function declared in `file` that is public
    /// (or open) when `isPublic` (``PublicAPI``): with `.auto`, unless the run's files start an
    /// app and `file` is in no Swift package shipping a library.
    func callersOutsideTreeMayReach(_ isPublic: Bool, in file: String) -> Bool {
        guard isPublic else { return false }
        switch publicAPI {
        case .keep: return true
        case .change: return false
        case .auto: return !appHoldsEveryCaller(of: file)
        }
    }

    /// Whether the run takes public functions for internal ones because its files start an app
    /// (``PublicAPI/auto``): the findings of a public function changed say so.
    func treatsPublicAsInternal(in file: String) -> Bool {
        publicAPI == .auto && appHoldsEveryCaller(of: file)
    }

    /// The run's files start an app and `file` is in no Swift package shipping a library.
    private func appHoldsEveryCaller(of file: String) -> Bool {
        appEntryPoint != nil && !filesInLibraryPackages.contains(file)
    }

    /// The one-file index `SourceMigrator` uses when it is given none.
    static func single(tree: SourceFileSyntax, fileName: String) -> MigrationIndex {
        MigrationIndex(summaries: [summarize(tree: tree, fileName: fileName, isContext: false)])
    }

    private func readCompletionFunction(_ record: FileSummary.FunctionRecord, file: String, isContext: Bool,
                                        languageMode: SwiftLanguageMode) -> CompletionFunctionSummary? {
        var parser = Parser(record.declarationText)
        let parsed = DeclSyntax.parse(from: &parser)
        guard let decl = parsed.as(FunctionDeclSyntax.self) else { return nil }
        let reader = CompletionFunctionReader(index: self, scope: record.scope)
        let location = record.location
        switch reader.read(decl, isProtocolRequirement: record.isProtocolRequirement, hasBody: record.hasBody) {
        case .notCandidate, .rejected:
            return nil
        case .skipped(let swiftName, let reason):
            let labels = CompletionFunction.labels(of: decl.signature.parameterClause.parameters)
            return CompletionFunctionSummary(
                baseName: decl.name.text.filter { $0 != "`" }, argumentLabels: labels, swiftName: swiftName, scope: record.scope,
                location: location, isContext: isContext, handlerIndex: 0, failureIndex: nil, shape: .nothing, valueType: "Void",
                errorType: nil, tupleLabels: [], isThrowing: false, cancellableHandle: nil, handlerIsOptional: false,
                handlerCalls: .unknown, skipReason: reason.message, alternativeLabels: [], promiseCounterpart: nil, asyncCounterpart: nil,
                promiseBlocker: nil, asyncBlocker: nil, promiseAlternativeName: "", asyncAlternativeName: "")
        case .candidate(let function):
            let promiseEmitter = AlternativeEmitter(function: function, target: .promise, isMember: !record.scope.isEmpty)
            let asyncEmitter = AlternativeEmitter(function: function, target: .async, isMember: !record.scope.isEmpty)
            let promiseName = promiseEmitter.alternativeSwiftName
            let asyncName = asyncEmitter.alternativeSwiftName
            let asyncThrows = function.shape.canFail || function.isThrowing
            func counterpart(_ name: String, _ target: MigrationTarget, _ kind: Counterpart.Kind) -> Counterpart? {
                let emitter = target == .promise ? promiseEmitter : asyncEmitter
                for candidate in [name] + emitter.counterpartNames.dropFirst() {
                    if let found = existingAlternative(named: candidate, in: record.scope, for: target, throwing: target == .async ? asyncThrows : nil) {
                        var counterpart = Counterpart(kind: kind, swiftName: candidate, location: found.location)
                        counterpart.thrownType = found.thrownType
                        counterpart.addedByTool = found.addedByTool
                        return counterpart
                    }
                }
                return nil
            }
            let rivals = collidingOverloads(of: function, scope: record.scope, location: location)
            let errorType: String?
            if case .result(_, let failure?) = function.shape, !function.isThrowing { errorType = failure }
            else { errorType = function.shape.canFail || function.isThrowing ? "any Error" : nil }
            var summary = CompletionFunctionSummary(
                baseName: function.name.filter { $0 != "`" }, argumentLabels: function.parameters.map(\.label),
                swiftName: function.swiftName, scope: record.scope, location: location, isContext: isContext,
                handlerIndex: function.handlerIndex, failureIndex: function.failureIndex, shape: function.shape,
                valueType: function.shape.valueType, errorType: errorType, tupleLabels: function.shape.tupleLabels,
                isThrowing: function.isThrowing, cancellableHandle: function.cancellableHandle?.type,
                handlerIsOptional: function.handlerIsOptional, handlerCalls: record.hasBody ? .once : .unknown, skipReason: nil,
                alternativeLabels: function.keptParameters.map(\.label),
                promiseCounterpart: counterpart(promiseName, .promise, .promise), asyncCounterpart: counterpart(asyncName, .async, .async),
                promiseBlocker: compileBlocker(of: promiseEmitter, valueType: function.shape.valueType, languageMode: languageMode)
                    ?? alternativeClash(named: promiseName, in: record.scope),
                asyncBlocker: compileBlocker(of: asyncEmitter, valueType: function.shape.valueType, languageMode: languageMode)
                    ?? alternativeClash(named: asyncName, in: record.scope, throwing: asyncThrows),
                promiseAlternativeName: promiseName, asyncAlternativeName: asyncName,
                handlerParameterTypes: function.handlerParameterTypes,
                parameterShapes: function.parameters.map(\.shape),
                promiseAlternativeParameters: promiseEmitter.alternativeParameterShapes,
                asyncAlternativeParameters: asyncEmitter.alternativeParameterShapes,
                handlerDefaults: function.handlerDefaults,
                isPublic: record.isPublic,
                genericParameterNames: (function.decl.genericParameterClause?.parameters.map(\.name.text) ?? [])
                    + genericParameters(ofScope: record.scope),
                handlerIsActorIsolated: {
                    let parameters = Array(function.decl.signature.parameterClause.parameters)
                    return function.handlerIndices.contains { $0 < parameters.count && Self.namesGlobalActor(parameters[$0].type) }
                }(),
                asyncTypedFailure: asyncEmitter.typedFailure,
                asyncFailureUnlessCancelled: asyncEmitter.typedFailureUnlessCancelled)
            for (position, parameter) in function.decl.signature.parameterClause.parameters.enumerated()
            where Self.queueTypes.contains(parameter.type.trimmedDescription) {
                let defaultValue = parameter.defaultValue?.value.trimmedDescription.filter { !$0.isWhitespace }
                summary.queueParameters[(parameter.secondName ?? parameter.firstName).text] = AnswerQueue(
                    position: position, label: parameter.firstName.text == "_" ? nil : parameter.firstName.text,
                    defaultIsMain: defaultValue.map(Self.namesMainQueue) ?? false)
            }
            summary.collidingRivals = rivals.map(\.location)
            summary.collisionReason = rivals.first.map { "its alternative would be the same as that of `\($0.swiftName)` at \($0.location)" }
            // An alternative that would capture a call it cannot spell out is not added: callers
            // in other files (the call-site stage) must not count on it.
            if record.isProtocolRequirement == false {
                if summary.promiseBlocker == nil, case .refused(let reason) = captureCheck(of: summary, target: .promise) {
                    summary.promiseBlocker = reason
                }
                if summary.asyncBlocker == nil, case .refused(let reason) = captureCheck(of: summary, target: .async) {
                    summary.asyncBlocker = reason
                }
            }
            return summary
        }
    }

    /// How often a stored handler is called: once when its property (of the enclosing type for
    /// `self.completion`, of a type the body shows or the one type of the tree declaring a stored
    /// closure property of that name for `operation.completion`) is called by exactly one method
    /// of its type, exactly once on every path of that method.
    func follow(_ store: HandlerUse.Store, scope: String) -> HandlerUse.Store.Following {
        guard let property = store.property else { return .unknown(type: nil, problem: nil) }
        let type: String? = if store.isOwn {
            scope.isEmpty ? nil : scope
        } else if let baseType = store.baseType {
            baseType
        } else if let owners = storedHandlerOwners[property], owners.count == 1 {
            owners.first
        } else {
            nil
        }
        guard let type else { return .unknown(type: nil, problem: nil) }
        let name = Self.lastComponent(type)
        guard closureProperties.contains("\(type).\(property)") || closureProperties.contains("\(name).\(property)") else {
            return .unknown(type: nil, problem: nil)
        }
        // By the simple name, which also holds the calls of `extension Inner` for `Outer.Inner`
        // (two types of one simple name only add callers, which refuses).
        let callers = propertyCalls["\(name).\(property)"] ?? []
        guard let caller = callers.first else {
            return .unknown(type: type, problem: "no method of `\(name)` calls `\(property)`")
        }
        guard callers.count == 1 else {
            let methods = callers.map { "`\($0.method)`" }.joined(separator: ", ")
            return .unknown(type: type, problem: "`\(property)` is called in \(callers.count) methods of `\(name)` (\(methods)), "
                            + "which may each run")
        }
        switch caller.calls {
        case .mayRepeat(let place):
            return .unknown(type: type, problem: "`\(name).\(caller.method)` can call it more than once (again at line \(place.line))")
        case .mayNotCall(let place):
            return .unknown(type: type, problem: "a path through `\(name).\(caller.method)` ends without calling it (line \(place.line))")
        default:
            return .once
        }
    }

    /// The functions of the tree a hand-off may reach: those whose labels take the call's
    /// arguments and whose handler is the one handed on.
    /// The parameter types naming a queue a function may answer on (``AnswerQueue``).
    static let queueTypes: Set<String> = ["DispatchQueue", "DispatchQueue?", "OperationQueue", "OperationQueue?"]

    /// `.main`, `DispatchQueue.main`, `OperationQueue.main`: the main queue, as an argument or a
    /// default value spells it.
    static func namesMainQueue(_ text: String) -> Bool {
        [".main", "DispatchQueue.main", "OperationQueue.main", "Dispatch.DispatchQueue.main"].contains(text.filter { !$0.isWhitespace })
    }

    /// A parameter naming the queue a function answers on (``CompletionFunctionSummary/answerQueue``).
    public struct AnswerQueue: Sendable, Equatable {
        public var position: Int
        public var label: String?
        public var defaultIsMain: Bool
    }

    /// The generic parameters of the types around a member (`Item` in `Paginator<Item>`, and
    /// those of the types it is nested in): its signature may name them.
    func genericParameters(ofScope scope: String) -> [String] {
        guard !scope.isEmpty, !typeGenericParameters.isEmpty else { return [] }
        var names: [String] = []
        var prefix = ""
        for component in scope.split(separator: ".") {
            prefix = prefix.isEmpty ? String(component) : prefix + "." + component
            names += typeGenericParameters[prefix] ?? []
        }
        return names
    }

    /// Where a function answers its handler, over every use in its body: a use inside a
    /// closure handed to a function of the tree (or the handler handed on to one) answers where
    /// that function answers, its `atOnce` meaning where the call is made; one handed to a
    /// function the tree does not declare, elsewhere. A handler whose type names a global actor
    /// runs on the main actor. `visiting` stops a cycle (a retry through the function itself
    /// answers where its other uses do) and deep chains (read as elsewhere).
    func answerPlaces(of summary: CompletionFunctionSummary, visiting: Set<String> = []) -> Set<HandlerUse.AnswerPlace> {
        if summary.handlerIsActorIsolated { return [.main] }
        let key = summary.swiftName + "@" + summary.location.description
        guard visiting.count < 8 else { return [.elsewhere] }
        var places: Set<HandlerUse.AnswerPlace> = []
        for use in summary.placedUses {
            guard let through = use.through else {
                places.insert(use.place)
                continue
            }
            let targets = callees(of: through)
            if targets.isEmpty { places.insert(.elsewhere) }
            for target in targets {
                let targetKey = target.swiftName + "@" + target.location.description
                if targetKey == key || visiting.contains(targetKey) { continue }
                let theirs = answerPlaces(of: target, visiting: visiting.union([key]))
                if theirs.isEmpty { places.insert(.elsewhere) }
                for place in theirs {
                    switch place {
                    case .atOnce: places.insert(use.place)
                    // The queue its own caller names: not followed through this call.
                    case .queueParameter: places.insert(.elsewhere)
                    case .main, .elsewhere: places.insert(place)
                    }
                }
            }
        }
        return places
    }

    func callees(of handOff: HandlerUse.HandOff) -> [CompletionFunctionSummary] {
        completionFunctions(baseName: handOff.baseName).filter { handOff.matches($0) && handOff.argumentPosition == $0.handlerIndex }
    }

    /// Turns a body's handler use into a verdict, following hand-offs to functions of the tree,
    /// and stored handlers to the calls of their property (`scope`: the function's type).
    func resolveCalls(_ use: HandlerUse, uses: [String: HandlerUse], visiting: Set<String>, scope: String = "",
                      cancellationAnswered: Bool = false) -> HandlerCalls {
        var use = reading(of: use, cancellationAnswered: cancellationAnswered)
        for store in use.stores {
            use.settle(store, as: follow(store, scope: scope))
        }
        // A helper answering exactly when it returns nil was counted where it answers.
        for handOff in use.handOffs where !handOff.answersWhenNil {
            // The callee's verdict counts as a call (or two) at the hand-off. Syntax does not say
            // which of several functions of these labels the call reaches: each of them may be it,
            // so the worst verdict counts (the function itself only if it is the one match).
            let matches = callees(of: handOff)
            let others = matches.filter { !visiting.contains($0.swiftName + "@" + $0.location.description) }
            var calls = matches.isEmpty ? 1 : 0
            for callee in others.isEmpty ? matches : others {
                let key = callee.swiftName + "@" + callee.location.description
                let verdict = if !visiting.contains(key), let calleeUse = uses[key] {
                    resolveCalls(calleeUse, uses: uses, visiting: visiting.union([key]), scope: callee.scope,
                                 cancellationAnswered: cancellationAnswered || answersCancellation(callee))
                } else {
                    callee.handlerCalls
                }
                switch verdict {
                case .mayRepeat: calls = 2
                case .never: break
                case .mayNotCall:
                    // Handed to a function that may end without calling it: so may this one, there.
                    use.missingAt = use.missingAt ?? handOff.location
                    calls = max(calls, 1)
                case .stored(let stored):
                    // Stored by the callee: the same verdict, through it.
                    use.stores.append(.init(target: stored.target, property: nil, isOwn: false, baseType: nil, location: handOff.location,
                                            followed: .unknown(type: stored.type, problem: stored.problem), through: callee.swiftName))
                    calls = max(calls, 1)
                default: calls = max(calls, 1)
                }
            }
            use.settle(handOff, calls: calls)
        }
        return use.verdict
    }
}

extension MigrationIndex {
    /// The reading of a body (``HandlerUse/readings``) whose assumptions hold, the one assuming
    /// most: a cancelled request counts as answered where `cancellationAnswered` (the function
    /// returns a cancellable handle and its alternatives answer the cancellation themselves), and
    /// `guard let x = helper(..., handler) else { return }` answers on its `else` path where every
    /// such helper is one the index knows to answer exactly when it returns nil.
    func reading(of use: HandlerUse, cancellationAnswered: Bool) -> HandlerUse {
        guard !use.readings.isEmpty else { return use }
        let kinds: [Set<HandlerUseAnalyzer.Assumption>] = cancellationAnswered
            ? [[.helpersAnswerWhenNil, .cancellationAnswers], [.cancellationAnswers], [.helpersAnswerWhenNil]]
            : [[.helpersAnswerWhenNil]]
        for kind in kinds {
            guard let candidate = use.readings[kind] else { continue }
            let helpersHold = candidate.handOffs.allSatisfy { handOff in
                !handOff.answersWhenNil || (nilAnsweringHelpers[handOff.baseName] ?? []).contains { helper in
                    handOff.matches(argumentLabels: helper.argumentLabels) && handOff.argumentPosition == helper.handlerPosition
                        && (helper.answer == .always || cancellationAnswered)
                }
            }
            if helpersHold { return candidate }
        }
        return use
    }

    /// Whether the alternatives of `function` answer a cancelled request themselves
    /// (``answersCancellation(returnsHandle:canFail:file:)``).
    func answersCancellation(_ function: CompletionFunctionSummary) -> Bool {
        answersCancellation(returnsHandle: function.cancellableHandle != nil, canFail: function.shape.canFail || function.isThrowing,
                            file: function.location.file)
    }

    /// Whether the alternatives of a function answer a cancelled request themselves: it returns a
    /// cancellable handle (the promise form's `Promise(cancellation:)`), its async form throws
    /// (`CancellationError`), and its file imports Foundation (the async form's `CancellableAnswer`
    /// locks with `NSLock`). The one rule for the index's verdicts, the declaration stage's and
    /// the emitter's (``AlternativeEmitter/answersCancellation``).
    func answersCancellation(returnsHandle: Bool, canFail: Bool, file: String) -> Bool {
        returnsHandle && canFail && filesImportingFoundation.contains(file)
    }

    /// The argument labels of a Swift name, `_` as nil: `filter(_:_:callback:)`.
    static func argumentLabels(of swiftName: String) -> [String?] {
        guard let open = swiftName.firstIndex(of: "("), swiftName.hasSuffix(")") else { return [] }
        return swiftName[swiftName.index(after: open)..<swiftName.index(before: swiftName.endIndex)]
            .split(separator: ":").map { $0 == "_" ? nil : String($0) }
    }
}

/// What one file declares, without its syntax tree: the unit ``MigrationIndex`` is built from.
public struct FileSummary: Sendable {
    public var file: String
    public var isContext: Bool
    var aliases: [MigrationIndex.TypeAlias]
    var types: [TypeRecord]
    var functions: [FunctionRecord]
    /// Every call in the file (without the offsets only the file's own rewrite needs).
    var calls: [ExistingCall] = []
    /// The base names of every call in the file, those of closures held in variables too: the
    /// names the call-site stage looks functions up by (``MigrationIndex/FunctionReading/calledOrHandedOff``).
    var calledNames: Set<String> = []
    /// The language mode the file is compiled in: in Swift 5 mode a promise's value need not be
    /// `Sendable`, so no promise alternative of the file is refused for it.
    public var languageMode: SwiftLanguageMode = .v6
    /// The file's default actor isolation (a target's `.defaultIsolation(MainActor.self)`): whether
    /// the async alternative of one of its functions runs on its caller's actor.
    public var defaultIsolation: DefaultIsolation = .nonisolated
    /// The first assignment of `conf.Q` or `conf.D` in the file, if any.
    var defaultQueueAssignment: MigrationIndex.Location?
    /// Where the file starts an application, if it does (``AppEntryPoint``).
    var appEntryPoint: MigrationIndex.Location?
    /// The file belongs to a Swift package declaring a library product
    /// (``MigrationOptions/inLibraryPackage``).
    public var inLibraryPackage = false
    /// The file imports PromiseKit.
    var importsPromiseKit = false
    /// The file imports Foundation, or a module that exports it.
    var importsFoundation = false
    /// Its test helpers that wait for their closure's answer (``WaitingHelper``), in a file
    /// importing XCTest.
    var waitingHelpers: [WaitingHelper] = []

    /// Whether the file imports `module` (a declaration of it, `import struct Vow.Promise`, too).
    static func imports(_ module: String, _ tree: SourceFileSyntax) -> Bool {
        tree.statements.contains { $0.item.as(ImportDeclSyntax.self)?.path.first?.name.text == module }
    }

    /// Whether the file imports Foundation, or a module that exports it.
    static func importsFoundation(_ tree: SourceFileSyntax) -> Bool {
        tree.statements.contains { statement in
            guard let importDecl = statement.item.as(ImportDeclSyntax.self), let module = importDecl.path.first?.name.text else { return false }
            return ["Foundation", "FoundationNetworking", "UIKit", "AppKit", "Cocoa", "SwiftUI", "WatchKit", "TVUIKit"].contains(module)
        }
    }
    /// The variables and constants it declares at file scope.
    var globalVariables: [String] = []
    /// The names it uses as function values (``UncalledFunctionNames``).
    var uncalledFunctionNames: Set<String> = []
    /// The file is large enough to be read (and rewritten) in pieces (``ChunkedMigration``).
    var readInPieces = false

    /// A type, protocol or extension: what it inherits and whether it has `cancel()`.
    struct TypeRecord: Sendable {
        var name: String
        var isExtension: Bool
        var inherited: [String]
        /// The first name a class inherits, where its body shows it has a superclass (`override`,
        /// `super`); nil otherwise.
        var superclass: String? = nil
        var hasCancel: Bool
        var isSendable: Bool
        /// An actor, declared with a global actor (`@MainActor class`), or an `@objcMembers` class:
        /// its members' async alternatives are not `nonisolated(nonsending)`.
        var isIsolated = false
        /// Why Swift does not infer `Sendable` for it ("a class", "a public enum"), for a type
        /// declaration (not an extension) that could otherwise be implicitly `Sendable`: nil.
        var notImplicitlySendable: String? = nil
        /// Generic parameters, or a protocol's associated types, not constrained to `Sendable`.
        var nonSendableTypeParameters: [String] = []
        /// Its generic parameters (`Item` of `Paginator<Item>`), which its members' signatures may
        /// name and a call site outside it cannot.
        var genericParameters: [String] = []
        /// The stored closure properties it declares (`var completion: ((Result<Data, Error>) -> Void)?`),
        /// where a handler can be stored and followed.
        var closureProperties: [String] = []
        /// How its methods call properties of the type (see ``PropertyCall``): joined over every
        /// declaration, extension and piece of the type.
        var propertyCalls: [PropertyCall] = []
    }

    /// A method of a type that calls one of the type's properties, and how often on its paths.
    struct PropertyCall: Sendable {
        var property: String
        var method: String
        var calls: MigrationIndex.HandlerCalls
    }

    /// A function declaration: its declaration text without body (to be read once the whole
    /// tree's typealiases are known) and how its body uses each closure parameter.
    struct FunctionRecord: Sendable {
        var scope: String
        var swiftName: String
        var declarationText: String
        var parameterNames: [String]
        var hasBody: Bool
        var isProtocolRequirement: Bool
        /// A requirement of a public protocol.
        var inPublicProtocol = false
        var isAsync: Bool
        var returnsVowType: Bool
        /// `T` of a function returning `Promise<T>` or `Guarantee<T>` that is neither `async` nor
        /// `throws`: one that can gain an async alternative (``PromiseFunctionSummary``).
        var promiseValueType: String? = nil
        /// Its generic parameters and `where` clause as written (`<T: Mappable>`), "" without:
        /// overloads with the same parameters may differ only there.
        var genericSignature = ""
        /// What the type declaration or extension holding it lists as inherited (`extension
        /// TokenManager: Authenticator`), [] at file scope.
        var blockInherited: [String] = []
        /// It may return a promise it did not make in this call (``PromiseSharing``).
        var mayReturnStoredPromise = false
        /// Its body is one promise chain that `--replace` can write as straight-line code, as
        /// syntax alone decides (``PromiseFunctionToAsync/replaceableBody(of:)``).
        var replaceableBody = false
        /// For a return type that may be an alias (``aliasedReturnType``): whether the body
        /// converts should the alias name a guarantee (``replaceableBody`` reads it as a promise).
        var replaceableBodyAsGuarantee = false
        /// What the function's declaration (or its extension's) says of its isolation, if anything.
        var declaredIsolation: ActorContext? = nil
        /// A return type that is one name (`VoidPromise`), which may be a typealias of a promise.
        var aliasedReturnType: String? = nil
        var returnsGuarantee = false
        var isOverride = false
        /// Has an escaping or optional closure-like parameter, or a parameter whose type may be
        /// an alias of one: worth reading as a completion-handler function.
        var mayBeCompletionFunction: Bool
        var location: MigrationIndex.Location
        var handlerUses: [String: HandlerUse]
        /// Every parameter as argument matching sees it.
        var parameters: [ParameterShape] = []
        /// `public` or `open` (also through a `public extension`): callers may be outside the tree.
        var isPublic = false
        /// Declared `throws`.
        /// What the body calls before it returns (``SynchronousCalls``): read for completion-handler
        /// functions, and for every function where the index was built for call sites; nil where not read.
        var synchronousCalls: [String]?
        var isThrowing = false
        /// Declared `throws(E)`: `E`.
        var thrownType: String?
        /// Added by vow-migrate (its doc comment says so).
        var addedByTool = false

        /// A closure-like parameter with a default value: calls may omit it, so an alternative
        /// without it could capture them.
        var hasDefaultedClosure: Bool { parameters.contains { $0.takesClosure && $0.hasDefault } }
    }
}

extension MigrationOptions {
    /// The completion-handler functions a run with these options asks the index about: all of
    /// them when it converts whole functions (`replace`), those some call names or a handler is
    /// handed to when it converts call sites, else only those that a handler is handed to.
    public var indexReading: MigrationIndex.FunctionReading {
        if replace { return .all }
        return stage == .declarations ? .handOffTargets : .calledOrHandedOff
    }
}
