import Foundation

/// Where a file assigns PromiseKit's (or Vow's) default queues, `conf.Q` or `conf.D`.
///
/// A chain handler that names no queue runs on `conf.Q.map` (or `conf.Q.return`), the main queue
/// unless the program says otherwise. The async form of such a chain runs its code on the main
/// actor; once any file of the tree assigns those defaults (an app setting `conf.Q.map =
/// .global()` at launch, a test pointing them at its own queue) that is no longer where the
/// handlers ran, so those chains are left alone.
enum DefaultQueueAssignment {
    /// The first line assigning `conf.Q...` or `conf.D...` (qualified by a module or not), with
    /// the column of `conf`. A text scan, cheap enough for every file: a line that only mentions it
    /// in a comment does not count; one in a string literal would, which only leaves chains alone.
    static func first(in source: String, fileName: String) -> MigrationIndex.Location? {
        guard source.contains("conf.Q") || source.contains("conf.D") else { return nil }
        var lineNumber = 0
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            guard line.contains("conf.") else { continue }
            let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
            for marker in ["conf.Q", "conf.D"] {
                guard let found = code.range(of: marker) else { continue }
                if found.lowerBound > code.startIndex {
                    let before = code[code.index(before: found.lowerBound)]
                    guard !(before.isLetter || before.isNumber || before == "_") else { continue }
                }
                let rest = code[found.upperBound...]
                // `conf.Q = ...`, `conf.Q.map = ...`: an `=` that is not `==`, before any other code.
                guard let equals = rest.firstIndex(of: "=") else { continue }
                let after = rest.index(after: equals)
                let target = rest[..<equals].trimmingCharacters(in: .whitespaces)
                let isAssignment = (after == rest.endIndex || rest[after] != "=")
                    && (target.isEmpty || target.hasPrefix(".")) && !target.contains(" ") && !target.hasSuffix("!")
                if isAssignment && !Self.restoresMain(target: target, value: rest[after...]) {
                    let column = code.distance(from: code.startIndex, to: found.lowerBound) + 1
                    return MigrationIndex.Location(file: fileName, line: lineNumber, column: column)
                }
            }
        }
        return nil
    }

    /// `conf.Q.map = .main`, `conf.Q = (map: .main, return: .main)`: the default as it is, which
    /// changes nothing (PromiseKit's own test helpers set it before each test).
    private static func restoresMain(target: String, value: Substring) -> Bool {
        let main: Set<String> = [".main", "DispatchQueue.main"]
        var text = value.trimmingCharacters(in: .whitespaces)
        if text.hasSuffix(";") { text.removeLast() }
        text = text.trimmingCharacters(in: .whitespaces)
        if target == ".map" || target == ".return" { return main.contains(text) }
        guard target.isEmpty, text.hasPrefix("("), text.hasSuffix(")") else { return false }
        let elements = text.dropFirst().dropLast().split(separator: ",").map { element in
            let part = element.split(separator: ":", maxSplits: 1).last.map(String.init) ?? String(element)
            return part.trimmingCharacters(in: .whitespaces)
        }
        return elements.count == 2 && elements.allSatisfy(main.contains)
    }
}
