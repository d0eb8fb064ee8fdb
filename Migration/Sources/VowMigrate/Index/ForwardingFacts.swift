/// What the async form's call-site stage learns about callbacks handing their answer on to their
/// function's own handler off the main queue (`api.load { result in completion(result) }` where
/// `api` answers on its own queue). In a new `Task` that handler would run on the task's thread,
/// and so would the callback code of every caller of the function: converted only where no
/// caller's callback is left, that is, where every call of the function in the tree is itself
/// converted by the same run (to `try await` its alternative, which resumes wherever it is
/// called from). A run gathers these facts per file, decides which functions qualify
/// (``allowed(by:index:)``) and migrates the files holding them again (``MigrationIndex/forwardingAllowed``).
public struct ForwardingFacts: Sendable {
    /// A function whose forwarding callback was left alone.
    public struct Function: Sendable {
        public var swiftName: String
        public var typeName: String?
        public var parameters: [ParameterShape]
        /// `Type|name(label:)`: how ``MigrationIndex/forwardingAllowed`` names it.
        public var key: String { Self.key(swiftName: swiftName, typeName: typeName) }

        static func key(swiftName: String, typeName: String?) -> String { (typeName ?? "") + "|" + swiftName }
    }

    /// The functions whose forwarding callbacks this file left alone for that reason alone so far.
    public var refused: [Function] = []
    /// The synchronous functions with a caller running code after calling them
    /// (``MigrationIndex/callWithCodeAfter(_:parameters:typeName:converted:)``), which keeps their
    /// callbacks out of a new `Task`: that caller may be converted by the same run.
    public var waitingOnCallers: [Function] = []
    /// Where the calls this file converted are (each call's start, as the index records calls).
    public var converted: Set<MigrationIndex.Location> = []

    public init() {}

    /// The functions this file waits on the rest of the run for.
    public var waitsOnRun: Bool { !refused.isEmpty || !waitingOnCallers.isEmpty }

    public mutating func merge(_ other: ForwardingFacts) {
        refused += other.refused
        waitingOnCallers += other.waitingOnCallers
        converted.formUnion(other.converted)
    }

    /// The keys of the functions in `waitingOnCallers` none of whose callers running code after
    /// calling them is left by the run (``MigrationIndex/codeAfterCleared``).
    public static func cleared(by facts: ForwardingFacts, index: MigrationIndex) -> Set<String> {
        var keys = Set<String>()
        var left = Set<String>()
        for function in facts.waitingOnCallers {
            if index.callWithCodeAfter(function.swiftName, parameters: function.parameters, typeName: function.typeName,
                                       converted: facts.converted) == nil {
                keys.insert(function.key)
            } else {
                left.insert(function.key)
            }
        }
        return keys.subtracting(left)
    }

    /// The keys of the functions refused in `facts` whose every call in the tree is converted
    /// (``MigrationIndex/forwardingCallers(of:parameters:typeName:converted:)``).
    public static func allowed(by facts: ForwardingFacts, index: MigrationIndex) -> Set<String> {
        // Overloads sharing a key (types differing only in parameter types) qualify together.
        var callersLeft: [String: Bool] = [:]
        for function in facts.refused {
            let callers = index.forwardingCallers(of: function.swiftName, parameters: function.parameters, typeName: function.typeName,
                                                  converted: facts.converted)
            callersLeft[function.key] = (callersLeft[function.key] ?? false) || callers?.isEmpty != true
        }
        return Set(callersLeft.filter { !$0.value }.keys)
    }
}
