import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax

/// Migrates the text of one Swift file. Pure: no file system, no global state, safe to call from
/// many threads at once.
public enum SourceMigrator {
    /// Adds alternatives to (or converts) the completion-handler functions of `source`.
    ///
    /// - A file that does not parse comes back unchanged with a `parseError` finding at the first
    ///   error's location.
    /// - The output is parsed again before it is returned; should a rewrite ever not parse, the
    ///   file comes back unchanged with a `skipped` finding rather than broken.
    /// - Running the result through again changes nothing.
    public static func migrate(source: String, fileName: String, options: MigrationOptions) -> FileMigration {
        let tree = Parser.parse(source: source)
        let converter = SourceLocationConverter(fileName: fileName, tree: tree)
        if tree.hasError {
            return FileMigration(output: source, changed: false, findings: [parseErrorFinding(tree, converter)])
        }

        var rewrite = FileRewrite(source: source, tree: tree, converter: converter, options: options)
        rewrite.run()
        guard rewrite.hasEdits else {
            return FileMigration(output: source, changed: false, findings: rewrite.findings)
        }
        let output = rewrite.apply()
        if Parser.parse(source: output).hasError {
            let finding = Finding(kind: .skipped, function: "", line: 1, column: 1,
                                  message: "vow-migrate produced code that does not parse; the file was left alone (please report this)")
            return FileMigration(output: source, changed: false, findings: [finding])
        }
        return FileMigration(output: output, changed: output != source, findings: rewrite.findings)
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
