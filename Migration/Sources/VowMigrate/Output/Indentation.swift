/// The indentation a file already uses, so that inserted code looks like its neighbours.
enum Indentation {
    /// The unit of one indentation level: a tab, or 2, 3, 4 or 8 spaces (4 when nothing decides).
    static func detectUnit(in source: String) -> String {
        var tabIndentedLines = 0
        var spaceIndentedLines = 0
        var increases: [Int: Int] = [:]
        var previousIndent = 0
        for line in source.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            var spaces = 0
            var startsWithTab = false
            var firstCharacter: UInt8 = 0
            for byte in line {
                if byte == UInt8(ascii: " ") {
                    spaces += 1
                } else if byte == UInt8(ascii: "\t") {
                    if spaces == 0 { startsWithTab = true }
                    break
                } else {
                    firstCharacter = byte
                    break
                }
            }
            if startsWithTab {
                tabIndentedLines += 1
                continue
            }
            // Blank lines and the ` * ` of block comments say nothing about the unit.
            if firstCharacter == 0 || firstCharacter == UInt8(ascii: "*") || firstCharacter == UInt8(ascii: "\r") {
                continue
            }
            if spaces > 0 { spaceIndentedLines += 1 }
            if spaces > previousIndent {
                increases[spaces - previousIndent, default: 0] += 1
            }
            previousIndent = spaces
        }
        if tabIndentedLines > spaceIndentedLines { return "\t" }
        let candidates = [4, 2, 3, 8]
        let best = candidates.max { (increases[$0] ?? 0) < (increases[$1] ?? 0) } ?? 4
        if (increases[best] ?? 0) == 0 { return "    " }
        return String(repeating: " ", count: best)
    }

    /// The whitespace before the first non-blank character of the line holding `offset`.
    static func lineIndent(in bytes: [UInt8], at offset: Int) -> String {
        var start = min(offset, bytes.count)
        while start > 0 && bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        var end = start
        while end < bytes.count && (bytes[end] == UInt8(ascii: " ") || bytes[end] == UInt8(ascii: "\t")) { end += 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}

/// Lines of generated code with a nesting level each, rendered with the file's own unit.
struct CodeLines {
    private(set) var lines: [(level: Int, text: String)] = []

    mutating func add(_ text: String, _ level: Int) {
        lines.append((level, text))
    }

    mutating func removeLast() {
        lines.removeLast()
    }

    mutating func add(_ other: CodeLines, indentedBy extra: Int) {
        for line in other.lines { lines.append((line.level + extra, line.text)) }
    }

    /// The first line opening a new task at the outer level (`Task {`, `Task { [weak self] in`)
    /// made to run on the main actor (`Task { @MainActor in`, `Task { @MainActor [weak self] in`):
    /// the callbacks it replaces ran on the main queue.
    mutating func openTaskOnMainActor() {
        guard let position = lines.firstIndex(where: { $0.level == 0 && $0.text.hasPrefix("Task {") }) else { return }
        let text = lines[position].text
        let rest = text.dropFirst("Task {".count)
        if rest.isEmpty {
            lines[position].text = "Task { @MainActor in"
        } else if rest.hasPrefix(" "), rest.hasSuffix(" in"), !rest.contains("@MainActor") {
            lines[position].text = "Task { @MainActor" + rest
        }
    }

    func render(baseIndent: String, unit: String) -> String {
        lines.map { line in
            line.text.isEmpty ? "" : baseIndent + String(repeating: unit, count: line.level) + line.text
        }.joined(separator: "\n")
    }
}
