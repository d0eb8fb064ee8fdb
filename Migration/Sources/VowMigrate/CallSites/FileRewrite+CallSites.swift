import SwiftSyntax

extension FileRewrite {
    /// The call-site stage, after the declarations: knows the tree's completion-handler functions
    /// through the index (with the alternatives this run adds), and leaves alone the functions
    /// `--replace` rewrote.
    mutating func addCallSites(collector: DeclarationCollector) {
        let gained = Set(findings.filter { $0.kind == .added || $0.kind == .alreadyMigrated || $0.kind == .replaced }.map {
            IndexCalleeCatalog.gainedKey(swiftName: $0.function, line: $0.line)
        }).union(gainedInOtherPieces)
        // With --replace, a function of another file gets no alternative: it is converted itself or
        // left alone, which only that file's run decides; its callers here are not converted.
        var catalog = IndexCalleeCatalog(index: index, fileName: fileName, addingAlternatives: options.stage == .all && !options.replace,
                                         gainedHere: gained, replacing: options.replace,
                                         trustsStoredHandlers: options.trustStoredHandlers)
        catalog.replacesPromiseFunctions = options.replace && target == .async
        catalog.receivers = IndexCalleeCatalog.receivers(in: tree, fileName: fileName, converter: converter,
                                                         otherPiecesProperties: otherPiecesProperties,
                                                         names: index.completionFunctionBaseNames)
        // A dropped `.value` (``spellOutPromiseCalls()``) is not a rewrite of its function: only its
        // statement is left alone (`spelledOutOffsets`).
        var excluded = edits.filter { $0.removing > 0 && !isDroppedValue($0) }.map(\.removedRange)
        var functions: PromiseFunctionToAsync?
        if options.replace && target == .async {
            // Functions whose body is one promise chain first; their bodies are theirs alone.
            var chains = PromiseFunctionToAsync(bytes: bytes, converter: converter, catalog: catalog, index: index, unit: unit, excluded: excluded)
            chains.fileName = fileName
            chains.run(tree)
            // What it rewrote (the signature, each answer) is its own; the other statements of a
            // function it made async are read as an async function's, as a second run reads them.
            excluded += chains.edits.filter { $0.removing > 0 }.map(\.removedRange)
            functions = chains
        }
        func runStage(composing: Bool) -> CallSiteRewrite {
            var stage = CallSiteRewrite(bytes: bytes, converter: converter, target: target, catalog: catalog, unit: unit, excluded: excluded)
            stage.madeAsync = functions?.rewritten ?? []
            stage.spelledOutOffsets = composing ? spelledOutOffsets.filter { spelledOutInsertions[$0] == nil } : spelledOutOffsets
            stage.otherPiecesMembers = otherPiecesMembers
            stage.importsVow = collector.importsVow || fileImportsVow
            stage.checksSendable = options.languageMode.checksSendable
            stage.earlyDeployment = options.earlyDeployment
            StatementText.$insertions.withValue(composing ? spelledOutInsertions : [:]) { stage.run(tree) }
            return stage
        }
        // A statement rewritten around a call this run spells out (`present(alert, animated:
        // true, completion: nil)`) carries the spelled-out argument in its own text, so that one
        // run does what a second would; checked, and otherwise left alone as before.
        var stage = runStage(composing: !spelledOutInsertions.isEmpty)
        let composed = Self.composedInsertions(spelledOutInsertions, into: stage.edits, bytes: bytes)
        if composed == nil { stage = runStage(composing: false) }
        let covered = composed ?? []
        edits.removeAll { $0.removing == 0 && covered.contains($0.offset) && spelledOutInsertions[$0.offset] == $0.text }
        edits += (functions?.edits ?? []) + stage.edits
        // A chain `--replace` could not make a function's body is refused again by the bridge
        // (``ChainToAsync/bridgedReturn(_:guarantee:valueType:taken:)``), for the same reason at the same
        // place: reported once.
        let refusedByFunctions = Set((functions?.findings ?? []).filter { $0.kind == .callSiteRefused }.map { "\($0.line):\($0.column) \($0.message)" })
        let stageFindings = stage.findings.filter { $0.kind != .callSiteRefused || !refusedByFunctions.contains("\($0.line):\($0.column) \($0.message)") }
        // In source order, declarations and call sites together.
        findings = (findings + (functions?.findings ?? []) + stageFindings).enumerated().sorted { lhs, rhs in
            (lhs.element.line, lhs.element.column, lhs.offset) < (rhs.element.line, rhs.element.column, rhs.offset)
        }.map(\.element)
        needsVow = needsVow || stage.needsVow
        forwarding.merge(stage.forwarding)
    }

    /// The offsets of the spelled-out arguments that rewritten statements (`edits` replacing a
    /// range) hold inside, when each such edit's text carries every one of them; nil when one
    /// does not (its statement copied the call some other way), which the caller then leaves alone.
    static func composedInsertions(_ insertions: [Int: String], into edits: [Edit], bytes: [UInt8]) -> Set<Int>? {
        var covered: Set<Int> = []
        for edit in edits where edit.removing > 0 {
            let inside = insertions.filter { $0.key > edit.offset && $0.key < edit.offset + edit.removing }
            guard !inside.isEmpty else { continue }
            let removed = String(decoding: bytes[edit.offset..<edit.offset + edit.removing], as: UTF8.self)
            for (text, count) in Dictionary(grouping: inside.values, by: { $0 }).mapValues(\.count) {
                // Beyond what the replaced code already spelled that way.
                let before = removed.components(separatedBy: text).count - 1
                guard edit.text.components(separatedBy: text).count - 1 >= before + count else { return nil }
            }
            covered.formUnion(inside.keys)
        }
        return covered
    }
}
