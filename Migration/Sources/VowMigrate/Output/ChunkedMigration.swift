import SwiftParser
import SwiftSyntax

/// Adds alternatives to a large file piece by piece (`SourceChunks`), so peak memory follows
/// the size of a piece, not of the file: a first pass reads what the whole file declares into
/// the `MigrationIndex` (unless the index was built from this file already), a second rewrites
/// each piece with that index, and each rewritten piece is parsed again to check it.
/// Edits and findings are those of the whole-file path; anything unusual (a piece that does not
/// parse, a file declaring its own `Result`, functions of one name and scope in two pieces,
/// `--replace`, `--from-promisekit`) returns `nil` and the caller reads the whole file.
enum ChunkedMigration {
    /// Files at least twice this big are read in pieces of about three quarters of it.
    static let pieceSize = 1 << 20

    /// The size pieces are cut to. Each piece is parsed with the whole file's length (its line
    /// breaks), so the pieces grow with the file, to keep that cost linear: at most about 32 of
    /// them, under 800 KB for a 16 MB file (a piece's tree, walked, is most of a run's peak).
    static func pieceTarget(_ fileSize: Int, _ pieceSize: Int) -> Int {
        max(pieceSize * 3 / 4, fileSize / 32)
    }

    static func migrate(source: String, fileName: String, options: MigrationOptions, target: MigrationTarget,
                        index: MigrationIndex? = nil, progress: ((MigrationProgress) -> Void)?, pieceSize: Int = pieceSize) -> FileMigration? {
        guard !options.replace, !options.fromPromiseKit, source.utf8.count >= 2 * pieceSize else { return nil }
        let bytes = Array(source.utf8)
        guard let chunks = SourceChunks.plan(bytes, targetSize: pieceTarget(bytes.count, pieceSize)) else { return nil }
        let unit = Indentation.detectUnit(in: source)
        // The index built from the whole tree already holds this file; otherwise the pieces'
        // declarations are joined into one summary of the file, as the whole-file path adds it.
        let indexed = index?.files.contains(fileName) == true
        // Passes over the pieces: reading, (with `--stage all` and no index of the file yet)
        // declarations, rewriting.
        let readingPasses = options.stage == .all && !indexed ? 2 : 1
        let total = Double(chunks.count * (readingPasses + 1))

        // With `--stage all`, the call sites of each piece need to know which functions of the
        // other pieces gain an alternative: the declarations stage of every piece runs first, and
        // says it. Each piece's rewrite then takes its piece's outcome and adds the call sites.
        var gained = [Set<String>](repeating: [], count: chunks.count)
        var declaredStages = [FileRewrite.DeclaredStage?](repeating: nil, count: chunks.count)
        var declarations = options
        declarations.stage = .declarations
        // A piece's rewrite reads the file's bytes (`bytes`, `unit`), never its text: the masked
        // text is dropped once parsed (the parser keeps its own copy).
        func runDeclarations(_ tree: SourceFileSyntax, number: Int, converter: SourceLocationConverter,
                             knowledge: MigrationIndex, importsVow: Bool) {
            var rewrite = FileRewrite(source: "", fileName: fileName, tree: tree, converter: converter, options: declarations,
                                      target: target, index: knowledge, bytes: bytes, unit: unit)
            rewrite.ownedRange = chunks[number].owned
            rewrite.fileImportsVow = importsVow
            rewrite.vowImport = false
            rewrite.declaresSupport = false
            rewrite.callSitesFollow = options.stage == .all
            rewrite.run()
            gained[number] = Set(rewrite.findings.filter { $0.kind == .added || $0.kind == .alreadyMigrated || $0.kind == .replaced }.map {
                IndexCalleeCatalog.gainedKey(swiftName: $0.function, line: $0.line)
            })
            declaredStages[number] = rewrite.declaredStage
        }

        // 1. What the whole file declares, and where it spells `Result`.
        var summary = FileSummary(file: fileName, isContext: false, aliases: [], types: [], functions: [], languageMode: options.languageMode,
                                  defaultIsolation: options.defaultIsolation)
        var importsVow = false
        var declaredSupport = Set<SwiftOnlySupport>()
        var resultOffsets: [Int] = []
        // The piece that declares each function name, by scope, of the functions that may take a
        // handler: a rewrite compares them with each other (overloads whose alternatives would
        // collide, a protocol's requirement and its default implementation) only within its
        // piece. (An existing alternative takes none: it may be in another piece.)
        var namePieces: [String: Int] = [:]
        // The call-site stage asks whether a name is read through `self`: the names each top-level
        // type declares, by its body's `{`, from every piece it is cut in.
        var typeMembers: [Int: Set<String>] = [:]
        // And the types of the properties it declares, which tell the callees of calls on them.
        var typeProperties: [Int: [String: String?]] = [:]
        // Every masked piece has the file's line breaks at the same offsets, so one converter
        // serves them all.
        var converter: SourceLocationConverter?
        for (number, chunk) in chunks.enumerated() {
            progress?(MigrationProgress("reading", fraction: Double(number) / total))
            let tree = Parser.parse(source: chunk.masked(bytes, wholeFile: converter == nil))
            if tree.hasError { return nil }
            if converter == nil { converter = SourceLocationConverter(fileName: fileName, tree: tree) }
            let collector = DeclarationCollector()
            collector.walk(tree)
            for site in collector.functions where chunk.owned.contains(site.decl.positionAfterSkippingLeadingTrivia.utf8Offset)
                && site.decl.signature.effectSpecifiers?.asyncSpecifier == nil
                && site.decl.signature.parameterClause.parameters.contains(where: {
                    IndexCollector.mayBeClosure($0, name: ($0.secondName ?? $0.firstName).text)
                }) {
                let key = site.scope + "|" + site.decl.name.text
                if let piece = namePieces[key], piece != number { return nil }
                namePieces[key] = number
            }
            if options.stage != .declarations {
                for statement in tree.statements {
                    guard let block = Syntax(statement.item).asProtocol(DeclGroupSyntax.self)?.memberBlock, let first = block.members.first else { continue }
                    let offset = block.leftBrace.positionAfterSkippingLeadingTrivia.utf8Offset
                    typeMembers[offset, default: []].formUnion(CallSiteRewrite.memberNames(around: first.decl))
                    // A property is declared in one piece; masked elsewhere, it is not seen twice.
                    typeProperties[offset, default: [:]].merge(ExistingCallCollector.propertyTypes(in: block)) { kept, _ in kept }
                }
            }
            importsVow = importsVow || collector.importsVow
            declaredSupport.formUnion(SwiftOnlySupport.declared(in: tree))
            if !indexed, let converter {
                summary.add(piece: tree, fileName: fileName, owned: chunk.owned, converter: converter)
            }
            let qualifier = ResultQualifier()
            qualifier.walk(tree)
            if qualifier.declaresResult { return nil }
            resultOffsets += qualifier.offsets.filter { chunk.owned.contains($0) }
            // With the index of the file at hand, from this parse (the imports, and so whether
            // the file imports Vow, are all above the first cut).
            if options.stage == .all && indexed, let index, let converter {
                runDeclarations(tree, number: number, converter: converter, knowledge: index, importsVow: importsVow)
            }
        }

        // Without an index the file's own is built without keeping its summary (it is not joined
        // to again), so the declaration texts and handler uses of its functions are dropped here.
        let knowledge = indexed ? index ?? MigrationIndex()
            : index.map { $0.adding(summary) } ?? MigrationIndex(summaries: [summary], keepsSummaries: false, reading: options.indexReading,
                                                                           switchesFromPromiseKit: options.fromPromiseKit, publicAPI: options.publicAPI)
        summary = FileSummary(file: fileName, isContext: false, aliases: [], types: [], functions: [])

        // 2. Otherwise the declarations stage of every piece, with that knowledge, first.
        if options.stage == .all && !indexed {
            for (number, chunk) in chunks.enumerated() {
                progress?(MigrationProgress("reading", fraction: Double(chunks.count + number) / total))
                let tree = Parser.parse(source: chunk.masked(bytes, wholeFile: false))
                guard !tree.hasError, let converter else { return nil }
                runDeclarations(tree, number: number, converter: converter, knowledge: knowledge, importsVow: importsVow)
            }
        }
        let allGained = gained.reduce(into: Set<String>()) { $0.formUnion($1) }

        // 3. Each piece rewritten with that knowledge; the first last, to add `import Vow` once
        //    if any piece needs it.
        var edits: [TextEdit] = []
        var findings: [Finding] = []
        var needsVow = false
        var neededSupport = Set<SwiftOnlySupport>()
        var firstPiece: (edits: [TextEdit], findings: [Finding])?
        var forwarding = ForwardingFacts()
        for number in Array(1..<chunks.count) + [0] {
            let chunk = chunks[number]
            progress?(MigrationProgress("rewriting", fraction: Double(readingPasses * chunks.count + (number == 0 ? chunks.count - 1 : number - 1)) / total))
            let tree = Parser.parse(source: chunk.masked(bytes, wholeFile: false))
            if tree.hasError { return nil }
            guard let converter else { return nil }
            // The file's own bytes: within the piece they are the masked text's, and beyond it they
            // show what follows a function at the end of the piece.
            var rewrite = FileRewrite(source: "", fileName: fileName, tree: tree, converter: converter, options: options, target: target,
                                      index: knowledge, bytes: bytes, unit: unit)
            rewrite.ownedRange = chunk.owned
            rewrite.fileImportsVow = importsVow
            // The first piece adds the import if another piece needs it, or if it needs it itself.
            rewrite.vowImport = number == 0 ? (needsVow ? true : nil) : false
            // Likewise the declarations a file without Vow needs, once, below its imports.
            rewrite.fileDeclaredSupport = declaredSupport
            rewrite.otherPiecesSupport = neededSupport
            rewrite.declaresSupport = number == 0
            rewrite.gainedInOtherPieces = allGained.subtracting(gained[number])
            rewrite.otherPiecesMembers = typeMembers
            rewrite.otherPiecesProperties = typeProperties
            rewrite.declared = declaredStages[number]
            declaredStages[number] = nil
            rewrite.run()
            forwarding.merge(rewrite.forwarding)
            if number == 0 {
                firstPiece = (rewrite.edits, rewrite.findings)
                needsVow = needsVow || rewrite.needsVow
            } else {
                edits += rewrite.edits
                findings += rewrite.findings
                needsVow = needsVow || rewrite.needsVow
                neededSupport.formUnion(rewrite.neededSupport)
            }
        }
        guard let first = firstPiece else { return nil }
        let anyEdits = !edits.isEmpty || !first.edits.isEmpty
        edits += first.edits
        // The serial executor of converted fan-outs goes at the file's end once, whichever
        // pieces asked for it.
        let isExecutor = { (edit: TextEdit) in edit.text.hasSuffix(FanOutExecutor.declaration) }
        if let kept = edits.firstIndex(where: isExecutor) {
            edits = edits.enumerated().filter { $0.offset == kept || !isExecutor($0.element) }.map(\.element)
        }
        findings += first.findings
        if needsVow && anyEdits && !importsVow {
            // `Swift.Result` in every piece once the file imports Vow, in the code the other
            // pieces generated too (the first piece did its own).
            for position in 0..<(edits.count - first.edits.count) where edits[position].removing == 0 {
                edits[position].text = ResultQualifier.qualifyingBareResult(in: edits[position].text)
            }
            let done = Set(edits.filter { $0.text == "Swift." }.map(\.offset))
            for offset in resultOffsets where !done.contains(offset) && !chunks[0].owned.contains(offset) {
                edits.append(TextEdit(offset: offset, removing: 0, text: "Swift."))
            }
        }
        findings = findings.enumerated().sorted { lhs, rhs in
            (lhs.element.line, lhs.element.column, lhs.offset) < (rhs.element.line, rhs.element.column, rhs.offset)
        }.map(\.element)
        guard !edits.isEmpty else { return FileMigration(output: source, changed: false, findings: findings, forwarding: forwarding) }

        // 4. Each piece of the output parses (the pieces are cut where the file's syntax allows).
        progress?(MigrationProgress("checking the output"))
        for chunk in chunks {
            let visible = edits.filter { edit in chunk.owned.contains(edit.offset) || chunk.kept.contains { $0.contains(edit.offset) } }
            let text = chunk.editedVisibleText(bytes, edits: visible) ?? TextEdit.apply(visible, to: chunk.masked(bytes, wholeFile: false))
            if Parser.parse(source: text).hasError { return nil }
        }
        let output = TextEdit.apply(edits, to: source)
        return FileMigration(output: output, changed: output != source, findings: findings,
                             addedVowImport: needsVow && anyEdits && !importsVow, forwarding: forwarding)
    }
}

extension ChunkedMigration {
    /// The index pass's summary of a large file, read piece by piece as `migrate` reads it, so the
    /// index pass does not hold the whole file's syntax tree either. `nil` (read the file whole)
    /// for a smaller file or one that cannot be cut or whose pieces do not parse.
    static func summarize(source: String, fileName: String, isContext: Bool, pieceSize: Int = pieceSize) -> FileSummary? {
        guard source.utf8.count >= 2 * pieceSize else { return nil }
        let bytes = Array(source.utf8)
        guard let chunks = SourceChunks.plan(bytes, targetSize: pieceTarget(bytes.count, pieceSize)) else { return nil }
        var summary = FileSummary(file: fileName, isContext: isContext, aliases: [], types: [], functions: [])
        summary.readInPieces = true
        var converter: SourceLocationConverter?
        for chunk in chunks {
            let tree = Parser.parse(source: chunk.masked(bytes, wholeFile: converter == nil))
            if tree.hasError { return nil }
            let pieceConverter = converter ?? SourceLocationConverter(fileName: fileName, tree: tree)
            converter = pieceConverter
            summary.add(piece: tree, fileName: fileName, owned: chunk.owned, converter: pieceConverter)
        }
        return summary
    }
}

extension FileSummary {
    /// Adds what one masked piece of a large file declares, keeping only the functions the piece
    /// owns (the header of a type cut in pieces is seen by each of them; its typealiases and
    /// conformances are the same in each, and joining them is harmless).
    mutating func add(piece tree: SourceFileSyntax, fileName: String, owned: Range<Int>, converter: SourceLocationConverter) {
        // The piece's converter is the file's (every masked piece has the file's line breaks):
        // not built again for each piece.
        let collector = IndexCollector(fileName: fileName, converter: converter)
        collector.walk(tree)
        importsFoundation = importsFoundation || Self.importsFoundation(tree)
        let start = converter.location(for: AbsolutePosition(utf8Offset: owned.lowerBound))
        let end = converter.location(for: AbsolutePosition(utf8Offset: owned.upperBound))
        let known = Set(aliases.map(\.qualifiedName))
        aliases += collector.aliases.filter { !known.contains($0.qualifiedName) }
        types += collector.types
        functions += collector.functions.filter { function in
            let place = (function.location.line, function.location.column)
            return place >= (start.line, start.column) && place < (end.line, end.column)
        }
        let read = ExistingCallCollector.calls(in: tree, fileName: fileName, converter: converter)
        calls += read.calls.filter { call in
            let place = (call.location.line, call.location.column)
            return place >= (start.line, start.column) && place < (end.line, end.column)
        }
        calledNames.formUnion(read.calledNames)
    }
}
