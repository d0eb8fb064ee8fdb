import SwiftSyntax

/// The edits for one file, gathered from its completion-handler functions and applied at once
/// as byte insertions, so every comment and space of the original stays where it was.
struct FileRewrite {
    typealias Edit = TextEdit

    let source: String
    let bytes: [UInt8]
    let tree: SourceFileSyntax
    let converter: SourceLocationConverter
    let options: MigrationOptions
    let target: MigrationTarget
    let unit: String
    /// What the whole tree declares (for a piece of a large file, that file's declarations are
    /// those of all its pieces).
    let index: MigrationIndex
    let fileName: String
    // Internal rather than private: the call-site stage (CallSites/FileRewrite+CallSites.swift) adds to them.
    var findings: [Finding] = []
    /// What the call-site stage learnt about forwarding callbacks (``ForwardingFacts``).
    var forwarding = ForwardingFacts()
    var edits: [Edit] = []
    /// Where calls that leave a defaulted handler out were spelled out: the call-site stage does
    /// not rewrite code around them (it would copy the call as it was).
    var spelledOutOffsets: [Int] = []
    /// The arguments spelled out (`, completion: nil`) by the offset they go in at: a statement
    /// the call-site stage rewrites around one writes it in its own text (``StatementText/insertions``).
    var spelledOutInsertions: [Int: String] = [:]
    var needsVow = false
    /// For a piece of a large file (`ChunkedMigration`): the bytes whose functions this rewrite
    /// handles, whether another piece imports Vow, and whether to add `import Vow` (`nil`: when needed).
    var ownedRange: Range<Int>?
    var fileImportsVow = false
    var vowImport: Bool?
    /// The `SwiftOnlySupport` declarations this rewrite's code uses, those another piece of a large
    /// file declares already, and (for the piece that adds them) those other pieces' code uses.
    var neededSupport = Set<SwiftOnlySupport>()
    var fileDeclaredSupport = Set<SwiftOnlySupport>()
    var otherPiecesSupport = Set<SwiftOnlySupport>()
    /// False for the pieces of a large file but the first, which declares what they all need.
    var declaresSupport = true
    /// For a piece of a large file with `--stage all`: the functions of the other pieces that the
    /// declarations stage gave an alternative (or found one for), as the call-site stage names them.
    var gainedInOtherPieces = Set<String>()
    /// And the names a type cut in pieces declares in the other pieces (`CallSiteRewrite`).
    var otherPiecesMembers: [Int: Set<String>] = [:]
    /// And the properties such a type declares in each piece, with their types (the callees of
    /// calls on them: ``IndexCalleeCatalog/receivers``).
    var otherPiecesProperties: [Int: [String: String?]] = [:]
    /// The call-site stage runs after the declarations, in this rewrite or (for the pieces of a
    /// large file, whose declarations run first on their own) a later one of the same piece.
    lazy var callSitesFollow = options.stage == .all
    /// Whether this rewrite added `import Vow` (the run's summary counts the files).
    private(set) var addedVowImport = false
    /// Told where the rewrite is, function by function.
    var progress: ((MigrationProgress) -> Void)?
    /// What an earlier rewrite of the same tree, with the same index, gave in the declarations
    /// stage: `run()` takes it instead of running that stage again, and goes on with the call
    /// sites. A piece of a large file (`ChunkedMigration`) runs its declarations stage before any
    /// piece's call sites, which must know what every piece gains.
    var declared: DeclaredStage?

    /// The declarations stage's outcome (``declared``).
    struct DeclaredStage {
        var edits: [Edit]
        var findings: [Finding]
        fileprivate var generatedEdits: [Int]
        var spelledOutOffsets: [Int]
        var spelledOutInsertions: [Int: String]
        var needsVow: Bool
        var neededSupport: Set<SwiftOnlySupport>
    }

    /// This rewrite's outcome as ``declared`` takes it, after a `run()` of the declarations stage
    /// alone that added neither `import Vow` nor support declarations.
    var declaredStage: DeclaredStage {
        DeclaredStage(edits: edits, findings: findings, generatedEdits: generatedEdits, spelledOutOffsets: spelledOutOffsets,
                      spelledOutInsertions: spelledOutInsertions, needsVow: needsVow, neededSupport: neededSupport)
    }

    /// `bytes` and `unit`, when given, are the file's (a masked piece of a large file reads them
    /// from the whole file, once).
    init(source: String, fileName: String, tree: SourceFileSyntax, converter: SourceLocationConverter, options: MigrationOptions,
         target: MigrationTarget, index: MigrationIndex, bytes: [UInt8]? = nil, unit: String? = nil) {
        self.index = index
        self.fileName = fileName
        self.source = source
        self.bytes = bytes ?? Array(source.utf8)
        self.tree = tree
        self.converter = converter
        self.options = options
        self.target = target
        self.unit = unit ?? Indentation.detectUnit(in: source)
    }

    var hasEdits: Bool { !edits.isEmpty }

    mutating func run() {
        let collector = DeclarationCollector()
        collector.walk(tree)
        let importsVow = collector.importsVow || fileImportsVow
        if let declared {
            edits = declared.edits
            findings = declared.findings
            generatedEdits = declared.generatedEdits
            spelledOutOffsets = declared.spelledOutOffsets
            spelledOutInsertions = declared.spelledOutInsertions
            needsVow = declared.needsVow
            neededSupport = declared.neededSupport
        } else {
            addDeclarations(collector: collector, importsVow: importsVow)
        }
        if options.stage != .declarations { addCallSites(collector: collector) }
        if vowImport ?? (needsVow && !edits.isEmpty), !importsVow {
            addedVowImport = true
            insertAtTop("import Vow", after: collector.lastTopLevelImport)
            let replaced = edits.filter { $0.removing > 0 }
            for offset in ResultQualifier.unqualifiedResultOffsets(in: tree)
            where !replaced.contains(where: { $0.offset <= offset && offset < $0.offset + $0.removing }) {
                edits.append(Edit(offset: offset, removing: 0, text: "Swift."))
            }
            // Generated text copies parameter types (`transform: (Result<Int, Error>) -> Int`) too.
            if !ResultQualifier.declaresResult(in: tree) {
                for position in generatedEdits {
                    edits[position].text = ResultQualifier.qualifyingBareResult(in: edits[position].text)
                }
            }
        }
        // Declared once per file (not `import Vow`): below the imports.
        let missingSupport = neededSupport.union(otherPiecesSupport)
            .subtracting(fileDeclaredSupport).subtracting(SwiftOnlySupport.declared(in: tree))
        if declaresSupport && !missingSupport.isEmpty {
            insertAtTop(SwiftOnlySupport.declarations(of: missingSupport, errorType: errorType).render(baseIndent: "", unit: unit), after: collector.lastTopLevelImport)
        }
    }

    /// The declarations stage: an alternative beside each completion-handler function (or the
    /// function replaced), and the calls an alternative would capture spelled out.
    private mutating func addDeclarations(collector: DeclarationCollector, importsVow: Bool) {
        var protocolAlternatives: [(protocolDecl: ProtocolDeclSyntax, lines: [CodeLines], sendableAssociatedTypes: [String])] = []
        var promiseProtocolAlternatives: [(protocolDecl: ProtocolDeclSyntax, lines: [CodeLines])] = []
        let replacer = options.replace
            ? BodyReplacer(collector: collector, index: index, target: target, tree: tree, bytes: bytes,
                           runsOnCallersActor: { self.runsOnCallersActor($0) })
            : nil

        // Requirements of this file's protocols that gain an alternative: a default implementation
        // of the same name in an extension of the protocol is served by it.
        var requirementsGainingAlternatives = Set<String>()
        for site in collector.functions where replacer == nil && options.stage != .callSites && site.protocolDecl != nil && site.protocolIsTopLevel {
            if case .candidate(let function) = CompletionFunctionReader(index: index, scope: site.scope).read(site.decl, isProtocolRequirement: true) {
                requirementsGainingAlternatives.insert("\(site.scope)|\(function.swiftName)")
            }
        }

        for site in collector.functions
        where options.stage != .callSites && ownedRange?.contains(site.decl.positionAfterSkippingLeadingTrivia.utf8Offset) ?? true {
            progress?(MigrationProgress("rewriting", fraction: Double(site.decl.position.utf8Offset) / Double(max(1, bytes.count))))
            if target == .async && replacer == nil, let promise = promiseFunction(at: site) {
                addPromiseAlternative(promise, at: site, importsVow: importsVow, protocolAlternatives: &promiseProtocolAlternatives)
                continue
            }
            let isRequirement = site.protocolDecl != nil
            let reader = CompletionFunctionReader(index: index, scope: site.scope)
            switch reader.read(site.decl, isProtocolRequirement: isRequirement) {
            case .notCandidate:
                continue
            case .rejected(let name, let reason):
                report(.rejected, name, site.decl, reason.message)
            case .skipped(let name, let reason):
                report(.skipped, name, site.decl, reason.message)
            case .candidate(let function):
                // In an extension, the extended type's parameters come from the index, less those
                // the extension itself constrains (`extension Box where T: Sendable`).
                var typeParameters = site.nonSendableTypeParameters
                if let extensionWhere = site.extensionWhere {
                    typeParameters = index.nonSendableTypeParameters(of: site.scope).filter { !extensionWhere.contains("\($0): Sendable") }
                }
                // Swift 5 mode checks no `Sendable` requirement: the alternative adds none the
                // original did not have (README, "Language mode").
                let requiresSendable = options.languageMode.checksSendable
                var emitter = AlternativeEmitter(function: function, target: target,
                                                 enclosingTypeParameters: requiresSendable ? typeParameters : [], isMember: !site.scope.isEmpty)
                emitter.requiresSendable = requiresSendable
                emitter.tokenTypeIsShadowed = index.declaresType("CancellationToken")
                emitter.swiftOnly = !importsVow
                emitter.answersCancellation = answersCancellation(function)
                if index.declaresType("Task") { emitter.taskType = "Swift.Task" }
                emitter.errorType = errorType
                emitter.runsOnCallersActor = runsOnCallersActor(site.actorContext)
                let asyncThrows = target == .async ? function.shape.canFail || function.isThrowing : nil
                let place = site.decl.funcKeyword.startLocation(converter: converter)
                let location = MigrationIndex.Location(file: fileName, line: place.line, column: place.column)
                let baseName = function.name.filter { $0 != "`" }
                let rivals = index.collidingOverloads(of: function, scope: site.scope, location: location)
                let collides = index.collisionBlocks(location, baseName: baseName, rivals: rivals.map(\.location))
                // Where an overload's alternative would be the same, one of that name is its own
                // only when the collision leaves it this function's.
                let existing = collides ? nil : emitter.counterpartNames.compactMap { name in
                    index.existingAlternative(named: name, in: site.scope, for: target, throwing: asyncThrows).map { (name, $0) }
                }.first
                if let (name, counterpart) = existing {
                    report(.alreadyMigrated, function.swiftName, site.decl, "already has the alternative `\(name)` at \(counterpart.location)")
                    continue
                }
                if collides, let rival = rivals.first {
                    var unused: MigrationIndex.StoredHandler?
                    var unusedPath: MigrationIndex.Location?
                    let own = index.bodyAllowsAlternative(at: location, baseName: baseName)
                        ? nil : handlerCallsReason(function, site.decl, scope: site.scope, trusted: &unused, silentPath: &unusedPath)
                    report(.skipped, function.swiftName, site.decl,
                           own ?? "its alternative `\(emitter.alternativeSwiftName)` would be the same as that of `\(rival.swiftName)` at \(rival.location) "
                           + "(the two differ only in what the alternative drops): neither gets one")
                    continue
                }
                if let clash = index.alternativeClash(named: emitter.alternativeSwiftName, in: site.scope, throwing: asyncThrows) {
                    report(.skipped, function.swiftName, site.decl, clash)
                    continue
                }
                // `func profile() -> Promise<Driver>` beside `var profile: Driver?` is a redeclaration
                // (an `async` one is not: Swift tells them apart).
                if target == .promise, emitter.alternativeSwiftName == baseName + "()", let property = Self.memberProperty(named: baseName, around: site.decl) {
                    report(.skipped, function.swiftName, site.decl,
                           "its alternative `\(emitter.alternativeSwiftName)` would clash with the \(property) `\(baseName)` of the same type (an invalid redeclaration)")
                    continue
                }
                if replacer == nil, site.protocolDecl == nil,
                   let requirement = index.declaredFunctions(named: function.swiftName, in: site.scope).first(where: \.isProtocolRequirement),
                   requirement.location.file != fileName || requirementsGainingAlternatives.contains("\(site.scope)|\(function.swiftName)") {
                    report(.alreadyMigrated, function.swiftName, site.decl,
                           "a default implementation of the requirement at \(requirement.location): the alternative `\(emitter.alternativeSwiftName)` "
                           + "added for the requirement serves it too (a second one in this extension would be an invalid redeclaration)")
                    continue
                }
                var trusted: MigrationIndex.StoredHandler?
                var silentPath: MigrationIndex.Location?
                if let reason = handlerCallsReason(function, site.decl, scope: site.scope, trusted: &trusted, silentPath: &silentPath) {
                    report(.skipped, function.swiftName, site.decl, reason)
                    continue
                }
                if trusted != nil && target == .async { emitter.resumesOnce = true }
                emitter.answersNothingAt = silentPath?.line
                if let reason = index.compileBlocker(of: emitter, valueType: function.shape.valueType, languageMode: options.languageMode) {
                    report(.skipped, function.swiftName, site.decl, reason)
                    continue
                }
                var spelledOut = ""
                if replacer == nil, site.protocolDecl == nil {
                    switch captureCheck(function, emitter: emitter, site: site) {
                    case .failure(let reason):
                        report(.skipped, function.swiftName, site.decl, reason.message)
                        continue
                    case .success(let calls):
                        if !calls.isEmpty {
                            spelledOut = "; \(calls.count) existing call\(calls.count == 1 ? "" : "s") leaving the handler out "
                                + "spelled out so \(calls.count == 1 ? "it keeps" : "they keep") calling the original"
                        }
                    }
                }
                if let replacer {
                    switch replacer.replacement(for: function, emitter: emitter) {
                    case .success(let replacement):
                        replace(function.decl, with: replacement)
                        needsVow = needsVow || replacement.needsVow
                        neededSupport.formUnion(replacement.support)
                        report(.replaced, function.swiftName, site.decl, "converted to `\(emitter.summary)`")
                    case .failure(let reason):
                        report(.skipped, function.swiftName, site.decl, reason.message)
                    }
                    continue
                }
                if let protocolDecl = site.protocolDecl {
                    guard site.protocolIsTopLevel else {
                        report(.skipped, function.swiftName, site.decl, "the protocol is nested in a type; its default implementation needs a file-scope extension")
                        continue
                    }
                    let associated = requiresSendable ? associatedTypesNeedingSendable(protocolDecl, mentionedIn: function.shape.valueType) : []
                    if let index = protocolAlternatives.firstIndex(where: { $0.protocolDecl.id == protocolDecl.id }) {
                        protocolAlternatives[index].lines.append(emitter.declaration())
                        protocolAlternatives[index].sendableAssociatedTypes.append(contentsOf: associated)
                    } else {
                        protocolAlternatives.append((protocolDecl, [emitter.declaration()], associated))
                    }
                } else {
                    insertAfter(site.decl, emitter.declaration())
                }
                if target == .async { markRenamed(site.decl, to: emitter.alternativeSwiftName) }
                needsVow = needsVow || emitter.needsVow
                neededSupport.formUnion(emitter.support)
                let silentNote = silentPath.map { place -> String in
                    let waiting: String
                    switch target {
                    case .async: waiting = "the awaiting task stays suspended"
                    case .promise: waiting = "the \(emitter.producesGuarantee ? "guarantee" : "promise") stays pending"
                    }
                    return "; like the original, which ends without calling its handler on the path at line \(place.line), it answers nothing there "
                        + "(\(waiting))"
                } ?? ""
                report(.added, function.swiftName, site.decl, "added `\(emitter.summary)`" + spelledOut + silentNote + (trusted.map { "; \($0.trustedNote)" } ?? ""))
            }
        }

        for entry in protocolAlternatives {
            insertExtension(for: entry.protocolDecl, members: entry.lines, sendableAssociatedTypes: entry.sendableAssociatedTypes)
        }
        for entry in promiseProtocolAlternatives {
            insertExtension(for: entry.protocolDecl, members: entry.lines, sendableAssociatedTypes: [],
                            comment: "Async alternatives to the promise-returning requirements, added by vow-migrate.")
        }
        if options.stage != .callSites && replacer == nil {
            spellOutCapturedCalls()
            if target == .async { spellOutPromiseCalls() }
        }
    }

    /// Positions in `edits` of generated code (alternatives, replacements, extensions).
    private var generatedEdits: [Int] = []

    /// Whether a function in this context is provably not isolated, so its async alternative
    /// can run on its caller's actor (``ActorContext``).
    func runsOnCallersActor(_ context: ActorContext) -> Bool {
        switch context {
        case .isolated: return false
        case .explicitlyNonisolated: return true
        case .fileScope: return options.defaultIsolation == .nonisolated
        case .member(let type): return options.defaultIsolation == .nonisolated && index.isProvablyNonisolated(type)
        }
    }

    /// Why the body's use of its handler rules out an alternative: a handler called twice would
    /// trap a continuation ("resumed more than once") and be lost to a promise; one never called
    /// by the body at all leaves nothing to convert; one missed on some path only rules out
    /// `--replace` (an added alternative answers nothing there, like the original).
    /// `trusted`: the stored handler `--trust-stored-handlers` let through, for the finding to say so;
    /// `silentPath`: where a path ends without calling the handler, which an added alternative
    /// keeps (it answers nothing there either).
    private func handlerCallsReason(_ function: CompletionFunction, _ decl: FunctionDeclSyntax, scope: String,
                                    trusted: inout MigrationIndex.StoredHandler?, silentPath: inout MigrationIndex.Location?) -> String? {
        guard let body = decl.body else { return nil }
        var names: Set<String> = [function.parameters[function.handlerIndex].name]
        if let failure = function.failureIndex { names.insert(function.parameters[failure].name) }
        let use = HandlerUseAnalyzer.read(body: body, names: names, fileName: fileName, converter: converter, returnsOptional: false)
        let handler = "`\(function.parameters[function.handlerIndex].name)`"
        switch index.resolveCalls(use, uses: [:], visiting: [], scope: scope, cancellationAnswered: answersCancellation(function)) {
        case .once, .unknown:
            return nil
        case .stored(let stored):
            // --trust-stored-handlers: a promise seals once (later answers go to
            // `conf.diagnosticHandler`); a continuation resumed twice would trap.
            if !options.trustStoredHandlers { return stored.reason }
            if target == .async && !importsFoundation {
                return stored.asyncReason
            }
            trusted = stored
            return nil
        case .mayRepeat(let place):
            let consequence = "an async alternative would trap and a promise would drop the later answers"
            if let handOff = use.handOffs.first(where: { $0.location == place }) {
                // Every function of these labels counts (``MigrationIndex/resolveCalls(_:uses:visiting:scope:cancellationAnswered:)``):
                // name the one that repeats, and say when the call may reach another.
                let matches = index.callees(of: handOff).filter { !($0.scope == scope && $0.swiftName == function.swiftName) }
                if let callee = matches.first(where: { if case .mayRepeat = $0.handlerCalls { true } else { false } }) {
                    let reached = matches.count == 1 ? ""
                        : " (one of \(matches.count) functions of that name the call may reach; this one is at "
                            + "\(callee.location.fileName):\(callee.location.line)\(callee.scope.isEmpty ? "" : ", in `\(callee.scope)`"))"
                    return "it hands its handler \(handler) to `\(callee.swiftName)` (line \(place.line))\(reached), which can call it more than once; \(consequence)"
                }
            }
            return "it can call its handler \(handler) more than once (again at line \(place.line)); \(consequence)"
        case .mayNotCall(let place):
            // An alternative added beside it answers nothing there either, as the callback never
            // ran; a function made async itself would have to return something there.
            guard options.replace else {
                silentPath = place
                return nil
            }
            return "a path through its body ends without calling its handler \(handler) (line \(place.line)); "
                + "made async itself, it would have to return something there (the default mode adds an alternative that, like it, answers nothing)"
        case .never:
            return "its body never calls its handler \(handler)"
        }
    }

    /// Whether `function`'s alternatives answer a cancelled request themselves, as the index
    /// decides it for every file's run.
    private func answersCancellation(_ function: CompletionFunction) -> Bool {
        index.answersCancellation(returnsHandle: function.cancellableHandle != nil,
                                  canFail: function.shape.canFail || function.isThrowing, file: fileName)
    }

    /// The async form's resume-once bridge locks with Foundation's `NSLock`: only where the file
    /// imports Foundation, or a module that exports it.
    private var importsFoundation: Bool {
        FileSummary.importsFoundation(tree)
    }

    func apply() -> String {
        Edit.apply(edits, to: source)
    }

    // MARK: - Edits

    mutating func report(_ kind: Finding.Kind, _ name: String, _ decl: FunctionDeclSyntax, _ message: String) {
        let location = decl.funcKeyword.startLocation(converter: converter)
        findings.append(Finding(kind: kind, function: name, line: location.line, column: location.column, message: message))
    }

    private func indent(of node: some SyntaxProtocol) -> String {
        Indentation.lineIndent(in: bytes, at: node.positionAfterSkippingLeadingTrivia.utf8Offset)
    }

    mutating func insertAfter(_ decl: FunctionDeclSyntax, _ lines: CodeLines) {
        var text = "\n\n" + lines.render(baseIndent: indent(of: decl), unit: unit)
        // Keep a blank line before a member that followed the original directly.
        var next = decl.endPosition.utf8Offset
        if next < bytes.count && bytes[next] == UInt8(ascii: "\n") {
            next += 1
            while next < bytes.count && (bytes[next] == UInt8(ascii: " ") || bytes[next] == UInt8(ascii: "\t")) { next += 1 }
            if next < bytes.count && bytes[next] != UInt8(ascii: "\n") && bytes[next] != UInt8(ascii: "}") && bytes[next] != UInt8(ascii: "#") {
                text += "\n"
            }
        }
        generatedEdits.append(edits.count)
        edits.append(Edit(offset: decl.endPosition.utf8Offset, removing: 0, text: text))
    }

    private mutating func replace(_ decl: FunctionDeclSyntax, with replacement: BodyReplacer.Replacement) {
        let start = decl.positionAfterSkippingLeadingTrivia.utf8Offset
        let end = decl.endPositionBeforeTrailingTrivia.utf8Offset
        let rendered = replacement.lines.render(baseIndent: indent(of: decl), unit: unit)
        // The first line goes where the declaration started, already indented by the file.
        let text = String(rendered.drop { $0 == " " || $0 == "\t" })
        generatedEdits.append(edits.count)
        edits.append(Edit(offset: start, removing: end - start, text: text))
    }

    /// `@available(*, renamed:)` on the original lets Swift point async callers at the new form.
    private mutating func markRenamed(_ decl: FunctionDeclSyntax, to name: String) {
        let alreadyMarked = decl.attributes.contains { element in
            guard let attribute = element.as(AttributeSyntax.self), attribute.attributeName.trimmedDescription == "available" else { return false }
            return attribute.arguments?.trimmedDescription.contains("renamed") == true
        }
        if alreadyMarked { return }
        let text = "@available(*, renamed: \"\(name)\")\n" + indent(of: decl)
        edits.append(Edit(offset: decl.positionAfterSkippingLeadingTrivia.utf8Offset, removing: 0, text: text))
    }

    mutating func insertExtension(for protocolDecl: ProtocolDeclSyntax, members: [CodeLines], sendableAssociatedTypes: [String],
                                  comment: String = "Promise and async alternatives to the completion-handler requirements, added by vow-migrate.") {
        var lines = CodeLines()
        let access = protocolDecl.modifiers.first { ["public", "package", "fileprivate", "private"].contains($0.name.text) }
        var head = (access.map { $0.name.text + " " } ?? "") + "extension \(protocolDecl.name.text)"
        var seen = Set<String>()
        let requirements = sendableAssociatedTypes.filter { seen.insert($0).inserted }
        if !requirements.isEmpty {
            head += " where " + requirements.map { "\($0): Sendable" }.joined(separator: ", ")
        }
        lines.add("/// " + comment, 0)
        lines.add(head + " {", 0)
        for (index, member) in members.enumerated() {
            if index > 0 { lines.add("", 0) }
            lines.add(member, indentedBy: 1)
        }
        lines.add("}", 0)
        let text = "\n\n" + lines.render(baseIndent: indent(of: protocolDecl), unit: unit)
        generatedEdits.append(edits.count)
        edits.append(Edit(offset: protocolDecl.endPosition.utf8Offset, removing: 0, text: text))
    }

    private func associatedTypesNeedingSendable(_ protocolDecl: ProtocolDeclSyntax, mentionedIn type: String) -> [String] {
        let mentioned = Set(identifiers(in: type))
        return protocolDecl.memberBlock.members.compactMap { member in
            guard let associated = member.decl.as(AssociatedTypeDeclSyntax.self) else { return nil }
            let name = associated.name.text
            let inherits = associated.inheritanceClause?.trimmedDescription ?? ""
            guard mentioned.contains(name), !identifiers(in: inherits).contains("Sendable") else { return nil }
            return name
        }
    }

    /// How generated code names the error protocol: `Swift.Error` where the tree declares a type
    /// named `Error` of its own (as `Swift.Task` for `Task`).
    private var errorType: String { index.declaresType("Error") ? "Swift.Error" : "Error" }

    /// Where the file's imports end: after the last top-level `import`, or after a `#if` block
    /// below it that only imports (`#if canImport(FoundationNetworking) import FoundationNetworking
    /// #endif`), so nothing is written between two imports.
    private func importsEnd(_ lastImport: ImportDeclSyntax?) -> Int? {
        guard let lastImport else { return nil }
        var end = lastImport.endPosition.utf8Offset
        for statement in tree.statements where statement.position.utf8Offset >= end {
            guard let conditional = statement.item.as(IfConfigDeclSyntax.self),
                  conditional.clauses.allSatisfy({ clause in
                      guard case .statements(let items)? = clause.elements else { return clause.elements == nil }
                      return items.allSatisfy { $0.item.is(ImportDeclSyntax.self) }
                  }) else { break }
            end = statement.endPosition.utf8Offset
        }
        return end
    }

    /// `import Vow` (or the file's `SwiftOnlySupport` declarations, a blank line apart) where the
    /// file's imports end (``importsEnd(_:)``), or at the top of the file below its header comment.
    private mutating func insertAtTop(_ text: String, after lastImport: ImportDeclSyntax?) {
        if let importsEnd = importsEnd(lastImport) {
            let separator = text.hasPrefix("import ") ? "\n" : "\n\n"
            edits.append(Edit(offset: importsEnd, removing: 0, text: separator + text))
            return
        }
        if let shebang = tree.shebang {
            // A `#!` line must stay first.
            edits.append(Edit(offset: shebang.endPositionBeforeTrailingTrivia.utf8Offset, removing: 0, text: "\n\n" + text))
            return
        }
        guard let firstToken = tree.firstToken(viewMode: .sourceAccurate), firstToken.tokenKind != .endOfFile else {
            edits.append(Edit(offset: 0, removing: 0, text: text + "\n"))
            return
        }
        // Below a header comment separated by a blank line; a doc comment stays with its decl.
        let trivia = Array(firstToken.leadingTrivia.description.utf8)
        var insertion = 0
        if trivia.count >= 2 {
            for index in stride(from: trivia.count - 2, through: 0, by: -1)
            where trivia[index] == UInt8(ascii: "\n") && trivia[index + 1] == UInt8(ascii: "\n") {
                insertion = index + 2
                break
            }
        }
        edits.append(Edit(offset: firstToken.position.utf8Offset + insertion, removing: 0, text: text + "\n\n"))
    }
}

extension FileRewrite {
    /// What the type (or extension) holding `function` declares under `name` other than
    /// functions: "property" or "case"; nil when nothing.
    static func memberProperty(named name: String, around function: FunctionDeclSyntax) -> String? {
        guard let members = function.parent?.parent?.as(MemberBlockItemListSyntax.self) else { return nil }
        for member in members {
            if let variable = member.decl.as(VariableDeclSyntax.self),
               variable.bindings.contains(where: { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name }) {
                return "property"
            }
            if let cases = member.decl.as(EnumCaseDeclSyntax.self), cases.elements.contains(where: { $0.name.text == name }) {
                return "case"
            }
        }
        return nil
    }
}
