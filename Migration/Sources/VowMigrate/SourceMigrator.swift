import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax

/// Migrates the text of one Swift file. Pure: no file system, no global state, safe to call from
/// many threads at once.
public enum SourceMigrator {
    /// The size of the pieces a large file is read in: a file at least this large leaves such
    /// buffers behind once migrated (see `AllocatorTuning.releaseFreeMemory`).
    public static var pieceSize: Int { ChunkedMigration.pieceSize }

    /// Switches `source` from PromiseKit to Vow (`options.fromPromiseKit`), then adds alternatives
    /// to (or converts) its completion-handler functions (`options.target`).
    ///
    /// - A file that does not parse comes back unchanged with a `parseError` finding at the first
    ///   error's location.
    /// - The output is parsed again after each step; should a rewrite ever not parse, the file
    ///   comes back unchanged with a `skipped` finding rather than broken.
    /// - Running the result through again changes nothing.
    /// - With both steps, the alternatives' findings are located in the switched text, which
    ///   differs from the original only where a duplicate `import PromiseKit` line was removed.
    /// - `index` is what the whole tree declares (typealiases, cancellable and `Sendable` types,
    ///   existing counterparts, other functions' handlers); without one, or when it was built
    ///   without this file, the file's own declarations are added to it.
    /// - Every completion-handler function gets exactly one finding: `added`, `replaced`,
    ///   `alreadyMigrated` or `skipped` (so their number is the file's candidates); functions with
    ///   an escaping closure that the rule does not take for a completion get a `rejected` one.
    /// - A file of 2 MB or more is read in pieces (`ChunkedMigration`), with the same output.
    ///
    /// `progress`, if given, is called on the calling thread as the work moves through the file.
    public static func migrate(source: String, fileName: String, options: MigrationOptions,
                               index: MigrationIndex? = nil,
                               progress: ((MigrationProgress) -> Void)? = nil) -> FileMigration {
        // A large file is read in pieces, so memory follows the piece and not the file.
        if let target = options.target,
           let chunked = ChunkedMigration.migrate(source: source, fileName: fileName, options: options, target: target,
                                                  index: index, progress: progress) {
            return chunked
        }
        progress?(MigrationProgress("parsing"))
        let tree = Parser.parse(source: source)
        let converter = SourceLocationConverter(fileName: fileName, tree: tree)
        if tree.hasError {
            return FileMigration(output: source, changed: false, findings: [parseErrorFinding(tree, converter)])
        }

        var text = source, textTree = tree, textConverter = converter
        var findings: [Finding] = []
        if options.fromPromiseKit {
            progress?(MigrationProgress("switching from PromiseKit"))
            var change = PromiseKitSwitch(source: source, tree: tree, converter: converter)
            change.run()
            findings = inSourceOrder(change.findings)
            if !change.edits.isEmpty {
                text = TextEdit.apply(change.edits, to: source)
                textTree = Parser.parse(source: text)
                if textTree.hasError { return unparseableOutput(source) }
                textConverter = SourceLocationConverter(fileName: fileName, tree: textTree)
            }
        }
        guard let target = options.target else {
            return FileMigration(output: text, changed: text != source, findings: findings)
        }

        let knowledge: MigrationIndex
        if let index, index.files.contains(fileName) {
            knowledge = index
        } else {
            var summary = MigrationIndex.summarize(tree: textTree, fileName: fileName, isContext: false, readsForReplace: options.replace,
                                                   readsUncalledNames: options.stage != .declarations)
            summary.languageMode = options.languageMode
            summary.defaultIsolation = options.defaultIsolation
            summary.defaultQueueAssignment = DefaultQueueAssignment.first(in: text, fileName: fileName)
            summary.inLibraryPackage = options.inLibraryPackage
            knowledge = index?.adding(summary) ?? MigrationIndex(summaries: [summary], keepsSummaries: false, reading: options.indexReading,
                                                                               switchesFromPromiseKit: options.fromPromiseKit, publicAPI: options.publicAPI)
        }
        // `--replace --to async`: calls of the functions the run makes async change first.
        var callEdits: (edits: [TextEdit], converter: SourceLocationConverter)?
        if options.replace, target == .async, options.stage != .declarations,
           let replaced = ReplacedPromiseCalls.apply(to: text, fileName: fileName, index: knowledge) {
            progress?(MigrationProgress("updating calls of functions made async"))
            let replacedTree = Parser.parse(source: replaced.text)
            if replacedTree.hasError { return unparseableOutput(source, findings: findings) }
            callEdits = (replaced.edits, textConverter)
            text = replaced.text
            textTree = replacedTree
            textConverter = SourceLocationConverter(fileName: fileName, tree: textTree)
        }
        // The stages' output and what is read of them after: their trees go before the pass below
        // parses the output again (a large file's peak).
        let stages = { [text, textTree, textConverter] in
            var rewrite = FileRewrite(source: text, fileName: fileName, tree: textTree, converter: textConverter, options: options, target: target,
                                      index: knowledge)
            rewrite.progress = progress
            rewrite.run()
            return (output: rewrite.hasEdits ? rewrite.apply() : text, findings: rewrite.findings, edits: rewrite.edits,
                    addedVowImport: rewrite.addedVowImport, forwarding: rewrite.forwarding)
        }()
        textTree = Parser.parse(source: "")
        var rewriteFindings = stages.findings
        let callOffsets = callEdits.map { EditedOffsets($0.edits) }
        if let callEdits, let callOffsets {
            // Each place as it was before the calls changed (they move columns only).
            for position in rewriteFindings.indices {
                let finding = rewriteFindings[position]
                let offset = textConverter.position(ofLine: finding.line, column: finding.column).utf8Offset
                let original = callEdits.converter.location(for: AbsolutePosition(utf8Offset: callOffsets.original(of: offset)))
                rewriteFindings[position].line = original.line
                rewriteFindings[position].column = original.column
            }
        }
        var output = stages.output
        // `--replace --to async`: chains used as values on the calls made async, wherever the
        // stages left them (copied into code they wrote too), move into Vow's bridge.
        if options.replace, target == .async, options.stage != .declarations,
           let chains = WrappedValueChains.apply(to: output, fileName: fileName, index: knowledge, trustsStoredHandlers: options.trustStoredHandlers) {
            progress?(MigrationProgress("converting chains used as values"))
            let stageOffsets = EditedOffsets(stages.edits)
            for (offset, finding) in chains.findings {
                // Back through the stages' edits, then through the calls' changes.
                let beforeStages = stageOffsets.original(of: offset)
                let location = if let callEdits, let callOffsets {
                    callEdits.converter.location(for: AbsolutePosition(utf8Offset: callOffsets.original(of: beforeStages)))
                } else {
                    textConverter.location(for: AbsolutePosition(utf8Offset: beforeStages))
                }
                var finding = finding
                finding.line = location.line
                finding.column = location.column
                // A returned chain the stages refused already, for the same reason.
                if finding.kind == .callSiteRefused,
                   rewriteFindings.contains(where: { $0.line == finding.line && $0.message == finding.message }) { continue }
                rewriteFindings.append(finding)
            }
            rewriteFindings = inSourceOrder(rewriteFindings)
            output = chains.text
        }
        findings = options.fromPromiseKit ? inSourceOrder(findings + rewriteFindings) : rewriteFindings
        // Converted calls are placed in the text the stages read; where calls of replaced functions
        // changed before them, their columns may not be the index's: none is claimed (the run then
        // converts fewer forwarding callbacks, never more).
        var forwarding = stages.forwarding
        if callEdits != nil { forwarding.converted = [] }
        guard output != text else {
            return FileMigration(output: text, changed: text != source, findings: findings, forwarding: forwarding)
        }
        progress?(MigrationProgress("checking the output"))
        if Parser.parse(source: output).hasError { return unparseableOutput(source, findings: findings) }
        return FileMigration(output: output, changed: output != source, findings: findings, addedVowImport: stages.addedVowImport,
                             forwarding: forwarding)
    }

    static func unparseableOutput(_ source: String, findings: [Finding] = []) -> FileMigration {
        let message = "vow-migrate produced code that does not parse; the file was left alone (please report this)"
        // Every candidate and call site keeps its one finding, so the counts still add up: what
        // was converted is left alone, for that reason.
        var kept = findings.map { finding in
            switch finding.kind {
            case .added, .replaced:
                Finding(kind: .skipped, function: finding.function, line: finding.line, column: finding.column, message: message)
            case .callSiteConverted:
                Finding(kind: .callSiteRefused, function: finding.function, line: finding.line, column: finding.column, message: message)
            default:
                finding
            }
        }
        if !findings.contains(where: { [.added, .replaced, .callSiteConverted].contains($0.kind) }) {
            kept.insert(Finding(kind: .skipped, function: "", line: 1, column: 1, message: message), at: 0)
        }
        return FileMigration(output: source, changed: false, findings: kept)
    }

    private static func inSourceOrder(_ findings: [Finding]) -> [Finding] {
        findings.enumerated().sorted { lhs, rhs in
            (lhs.element.line, lhs.element.column, lhs.offset) < (rhs.element.line, rhs.element.column, rhs.offset)
        }.map(\.element)
    }

    private static func parseErrorFinding(_ tree: SourceFileSyntax, _ converter: SourceLocationConverter) -> Finding {
        let diagnostics = ParseDiagnosticsGenerator.diagnostics(for: tree)
        guard let first = diagnostics.first else {
            return Finding(kind: .parseError, function: "", line: 1, column: 1, message: "the file does not parse; left alone")
        }
        let location = first.location(converter: converter)
        return Finding(kind: .parseError, function: "", line: location.line, column: location.column,
                       message: "the file does not parse (\(first.message)); left alone")
    }
}
