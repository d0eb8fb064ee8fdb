import SwiftSyntax

/// A kept callback's statements that hold calls in closures or a loop of calls: the call-site
/// stage rewrites them itself (``InlinePyramidWriter/nestedPlaces``), as places of their own in
/// the task's code, and the writer puts its edits in the callback's text.
extension InlinePyramidWriter {
    /// The nested rewrites of a callback's statements (``nestedPlaces``): their edits inside the
    /// callback, the file's edits kept for the caller. A loop or closure whose call the stage
    /// leaves alone keeps the whole pyramid as it is, with that reason.
    mutating func nestedRewrites(of statements: [CodeBlockItemSyntax], at indices: [Int], renamed: [String: String]) throws(Refusal) -> [TextEdit] {
        guard let nestedPlaces, !indices.isEmpty else { return [] }
        var edits: [TextEdit] = []
        var coveredUpTo = -1
        for index in indices where index > coveredUpTo {
            let statement = statements[index]
            if let name = statement.identifierNames.first(where: { renamed[$0] != nil }) {
                throw Refusal("a callback inside a closure or loop of a callback reads `\(name)`, which needs a new name in straight-line code", at: statement)
            }
            let place = try nestedPlaces(statements, index, index < statements.count - 1, coveredUpTo >= 0, taken)
            let isLoop = statement.item.is(ForStmtSyntax.self)
            // A call left alone there stays a callback in the task's code, where one in an async
            // closure (`Task { }`) would draw the compiler's warning: the whole pyramid stays.
            if let refusal = place.findings.first(where: { $0.kind == .callSiteRefused }) {
                throw Refusal((isLoop ? "a loop around a callback: " : "a callback inside a closure of a callback: ") + refusal.message, at: statement)
            }
            if isLoop {
                guard place.findings.contains(where: { $0.kind == .callSiteConverted }) else {
                    throw Refusal("a loop around a callback", at: statement)
                }
                let finder = KnownCallFinder(reader: reader)
                finder.walk(statement)
                nestedCalls += finder.calls.map(\.0)
            }
            let range = statements[0].position.utf8Offset..<statements[statements.count - 1].endPosition.utf8Offset
            for edit in place.edits {
                if range.contains(edit.offset) { edits.append(edit) } else { fileEdits.append(edit) }
                for word in edit.text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }) { taken.insert(String(word)) }
            }
            nestedFindings += place.findings
            nestedForwarding.merge(place.forwarding)
            coveredUpTo = place.lastIndex
        }
        return edits
    }
}
