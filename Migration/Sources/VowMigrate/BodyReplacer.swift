import SwiftSyntax

/// `--replace`: converts a completion-handler function itself into the target form.
struct BodyReplacer {
    struct Replacement {
        var lines: CodeLines
        var needsVow: Bool
    }

    var functions: DeclarationCollector
    var reader: CompletionFunctionReader
    var target: MigrationTarget

    func replacement(for function: CompletionFunction, emitter: AlternativeEmitter) -> Result<Replacement, SkipReason> {
        .failure(SkipReason("not yet"))
    }
}
