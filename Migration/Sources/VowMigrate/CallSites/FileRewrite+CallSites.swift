import SwiftSyntax

extension FileRewrite {
    /// The call-site stage, after the declarations: knows the tree's completion-handler functions
    /// through the index (with the alternatives this run adds), and leaves alone the functions
    /// `--replace` rewrote.
    mutating func addCallSites(collector: DeclarationCollector) {
        let gained = Set(findings.filter { $0.kind == .added || $0.kind == .alreadyMigrated || $0.kind == .replaced }.map(\.function))
        // With --replace, a function of another file gets no alternative: it is converted itself or
        // left alone, which only that file's run decides; its callers here are not converted.
        let catalog = IndexCalleeCatalog(index: index, fileName: fileName, addingAlternatives: options.stage == .all && !options.replace,
                                         gainedHere: gained)
        let excluded = edits.filter { $0.removing > 0 }.map { $0.offset..<($0.offset + $0.removing) }
        var stage = CallSiteRewrite(bytes: bytes, converter: converter, target: target, catalog: catalog, unit: unit, excluded: excluded)
        stage.run(tree)
        edits += stage.edits
        // In source order, declarations and call sites together.
        findings = (findings + stage.findings).enumerated().sorted { lhs, rhs in
            (lhs.element.line, lhs.element.column, lhs.offset) < (rhs.element.line, rhs.element.column, rhs.offset)
        }.map(\.element)
        needsVow = needsVow || stage.needsVow
    }
}
