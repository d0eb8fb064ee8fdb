import SwiftSyntax

/// The base names a function's body calls before it returns, on the caller's thread: what a call
/// of it from another thread would run there instead. Closures count where they may run during
/// the call: those handed to a function of the tree (whatever it does with them), to `Task { }`,
/// or to a function known to run its closure at once (`map`, `forEach`, `queue.sync`,
/// `withLock`...); not those handed to a queue hop (`queue.async { }`) or to another function
/// outside the tree (a framework's completion handler: `session.dataTask(with:) { }`), which run
/// later, on a thread of their own. The names are resolved against the tree's declarations later
/// (``MigrationIndex/startsTreeCodeAtOnce(_:)``).
enum SynchronousCalls {
    /// Functions outside the tree that run a closure argument before they return.
    static let runAtOnce: Set<String> = [
        "map", "compactMap", "flatMap", "filter", "forEach", "reduce", "sorted", "sort", "first", "firstIndex", "last", "lastIndex",
        "contains", "allSatisfy", "min", "max", "partition", "removeAll", "drop", "prefix", "split", "mapValues", "compactMapValues",
        "sync", "withLock", "performAndWait", "autoreleasepool", "withExtendedLifetime", "withUnsafeBytes", "withUnsafeMutableBytes",
        "withUnsafePointer", "withUnsafeMutablePointer", "withUnsafeBufferPointer", "withCString", "enumerateObjects", "Task",
    ]

    /// The entry for a body not read (a file read in pieces): counted as running tree code.
    static let unread = "#unread"
    /// The entry for code that asks which thread it runs on (`Thread.isMainThread` in a log line).
    static let threadRead = "#thread"
    static let threadReads: Set<String> = ["isMainThread", "getSpecific"]
    /// The entry for code that traps on another thread (`dispatchPrecondition(condition: .onQueue(.main))`).
    static let threadCheck = "#check"
    static let threadChecks: Set<String> = ["dispatchPrecondition", "assumeIsolated", "assertIsolated", "preconditionIsolated"]

    /// Every call's base name in `body` that runs before it returns; a call in a closure handed
    /// to a function that may or may not run it at once as `outer>inner` (the tree's declarations
    /// decide: only a function of the tree's may); in order of appearance, without repeats.
    static func names(in body: CodeBlockSyntax) -> [String] {
        let visitor = Visitor(viewMode: .sourceAccurate)
        visitor.walk(body)
        return visitor.names
    }

    private final class Visitor: SyntaxVisitor {
        var names: [String] = []
        private var seen: Set<String> = []

        private func add(_ name: String) {
            if seen.insert(name).inserted { names.append(name) }
        }

        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            let name = SynchronousCalls.calledName(node.calledExpression)
            if let name { add(name) }
            let closures = node.arguments.compactMap { $0.expression.as(ClosureExprSyntax.self) }
                + (node.trailingClosure.map { [$0] } ?? []) + node.additionalTrailingClosures.map(\.closure)
            guard !closures.isEmpty else { return .visitChildren }
            // A hop or a framework's callback runs later; a tree function's closure may run at
            // once: `name>inner` marks the calls in closures whose fate the tree's declarations decide.
            let later = name.map { ["async", "asyncAfter"].contains($0) } ?? false
            walk(node.calledExpression)
            for argument in node.arguments where !argument.expression.is(ClosureExprSyntax.self) { walk(argument.expression) }
            if later { return .skipChildren }
            if let name, Self.runsAtOnce(name) {
                for closure in closures { walk(closure) }
            } else if let name {
                // Read, but only counted where `name` is the tree's (``MigrationIndex/startsTreeCodeAtOnce(_:)``).
                let inner = Visitor(viewMode: .sourceAccurate)
                for closure in closures { inner.walk(closure) }
                for innerName in inner.names { add(name + ">" + innerName) }
            }
            return .skipChildren
        }

        override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

        /// `dispatchPrecondition(...)`, `Thread.isMainThread`, `DispatchQueue.getSpecific(key:)`,
        /// `MainActor.assumeIsolated`: code that asks which thread it is on (``threadCheck``).
        override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
            if SynchronousCalls.threadChecks.contains(node.baseName.text) { add(SynchronousCalls.threadCheck) }
            if SynchronousCalls.threadReads.contains(node.baseName.text) { add(SynchronousCalls.threadRead) }
            return .visitChildren
        }

        static func runsAtOnce(_ name: String) -> Bool { SynchronousCalls.runAtOnce.contains(name) }
    }

    /// The base name a call's called expression names: `load` for `load`, `api.load`, `load<T>`
    /// (`Promise<Int>`) and `load?`.
    static func calledName(_ expression: ExprSyntax) -> String? {
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        if let member = expression.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
        if let specialized = expression.as(GenericSpecializationExprSyntax.self) { return calledName(specialized.expression) }
        if let chained = expression.as(OptionalChainingExprSyntax.self) { return calledName(chained.expression) }
        return nil
    }
}
