/// Splits a large file into pieces that can be parsed one at a time, so that memory follows the
/// size of a piece rather than of the file (a SwiftSyntax tree takes about 45 bytes per byte of
/// source, more once walked).
///
/// A piece *owns* a range of the file, cut between top-level declarations or between the members
/// of a top-level type, after a blank line or a closing brace (never inside a declaration, a
/// protocol, a string, a comment, brackets or `#if`). It is parsed as a *masked* copy of
/// the whole file: every byte outside what it owns is a space, except the line breaks, the
/// imports at the top, and the header and closing brace of the type its range starts or ends in.
/// So a masked piece parses as the same declarations in the same types, at the same byte offsets,
/// lines and columns as in the file: edits and findings need no translation.
///
/// The scan is lexical (comments, string literals with interpolation and `#` delimiters, braces);
/// whatever it misreads shows up as a piece that does not parse, and the caller then falls back
/// to the whole file.
struct SourceChunks {
    struct Chunk {
        /// The bytes this piece is responsible for: its functions and their edits.
        var owned: Range<Int>
        /// Other bytes kept readable: the imports, the enclosing type's header and closing brace.
        var kept: [Range<Int>]

        func contains(_ offset: Int) -> Bool { owned.contains(offset) }

        /// The piece of the output `edits` make (each within `owned` or a `kept` range), for the
        /// check that it parses only: its readable ranges in order, edited, one line break where
        /// each blank was. Its offsets are not the file's, so the lexer need not read the rest of
        /// the file. Nil when an edit reaches past its range (the caller checks the masked text).
        func editedVisibleText(_ bytes: [UInt8], edits: [TextEdit]) -> String? {
            var ranges: [Range<Int>] = []
            for range in ([owned] + kept).sorted(by: { $0.lowerBound < $1.lowerBound }) {
                if let last = ranges.last, range.lowerBound <= last.upperBound {
                    ranges[ranges.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
                } else {
                    ranges.append(range)
                }
            }
            var output = ""
            var placed = 0
            for (number, range) in ranges.enumerated() {
                // The blanks fall between declarations (and before the closing brace kept on its
                // own line), where a line break is what the masked text's comment meant too.
                if number > 0 || range.lowerBound > 0 { output += "\n" }
                let inside = edits.filter { range.contains($0.offset) }
                guard inside.allSatisfy({ $0.offset + $0.removing <= range.upperBound }) else { return nil }
                placed += inside.count
                let shifted = inside.map { TextEdit(offset: $0.offset - range.lowerBound, removing: $0.removing, text: $0.text) }
                output += TextEdit.apply(shifted, to: String(decoding: bytes[range], as: UTF8.self))
            }
            return placed == edits.count ? output : nil
        }

        /// The file with everything but `owned` and `kept` blanked out (spaces, in a block
        /// comment), line breaks kept, so every offset is the file's. `wholeFile`: to the file's
        /// end, for the parse a `SourceLocationConverter` of the whole file is built from;
        /// otherwise it ends where the piece's last visible byte does, its type's closing brace
        /// moved up after the owned range (nothing after that range moves an offset of it, and the
        /// lexer need not read the rest of the file as a comment: with about 32 pieces, four
        /// parses each, that was a tenth of a large file's run).
        func masked(_ bytes: [UInt8], wholeFile: Bool) -> String {
            // The closing braces kept after the owned range (of the type it is cut in) are
            // written right after it instead of where the file has them, often at its very end:
            // no code reads their place, and the lexer then reads no blank after the piece.
            let trailing = kept.filter { $0.lowerBound >= owned.upperBound }
            let relocated = !wholeFile && !trailing.isEmpty && trailing.allSatisfy { $0.count == 1 && bytes[$0.lowerBound] == UInt8(ascii: "}") }
            var visible = [owned] + (relocated ? kept.filter { $0.lowerBound < owned.upperBound } : kept)
            visible.sort { $0.lowerBound < $1.lowerBound }
            var cursor = 0
            let length = wholeFile ? bytes.count : min(bytes.count, visible.map(\.upperBound).max() ?? bytes.count)
            let braces = relocated ? trailing.count : 0
            // Written straight into the string's storage: a copy of the file as an array first
            // would be one more file-sized buffer at the peak.
            return String(unsafeUninitializedCapacity: length + 2 * braces) { buffer in
                _ = buffer.initialize(from: bytes[..<length])
                func isBreak(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") }
                func blank(_ range: Range<Int>) {
                    for index in range where !isBreak(buffer[index]) {
                        buffer[index] = UInt8(ascii: " ")
                    }
                    // One block comment over the blanked bytes: the lexer reads it a third faster
                    // than lines of spaces, and every piece reads the whole file's length.
                    var open = range.lowerBound
                    while open + 1 < range.upperBound && (isBreak(buffer[open]) || isBreak(buffer[open + 1])) { open += 1 }
                    var close = range.upperBound - 1
                    while close - 1 > open + 1 && (isBreak(buffer[close]) || isBreak(buffer[close - 1])) { close -= 1 }
                    guard open + 1 < close - 1 else { return }
                    buffer[open] = UInt8(ascii: "/")
                    buffer[open + 1] = UInt8(ascii: "*")
                    buffer[close - 1] = UInt8(ascii: "*")
                    buffer[close] = UInt8(ascii: "/")
                }
                for range in visible {
                    if range.lowerBound > cursor { blank(cursor..<range.lowerBound) }
                    cursor = max(cursor, range.upperBound)
                }
                if cursor < length { blank(cursor..<length) }
                for brace in 0..<braces {
                    buffer[length + 2 * brace] = UInt8(ascii: "\n")
                    buffer[length + 2 * brace + 1] = UInt8(ascii: "}")
                }
                return length + 2 * braces
            }
        }
    }

    /// A top-level body (of a type, a function, a statement): where a piece cut inside it gets
    /// the header and closing brace it keeps.
    struct Body {
        var headerStart: Int
        var open: Int
        var close: Int
        /// The body of a class, structure, enumeration, extension or actor: its members can be
        /// read apart (a function's statements, a protocol's requirements cannot).
        var splittable: Bool
    }

    /// A place to cut: the start of a line between two top-level declarations (`body` is `nil`),
    /// or between two members of the top-level type `bodies[body]`.
    struct Cut {
        var offset: Int
        var body: Int?
    }

    /// Pieces of about `targetSize` bytes, or `nil` when the file cannot be cut (no place
    /// between declarations or members, an import below the first cut, unbalanced braces).
    static func plan(_ bytes: [UInt8], targetSize: Int) -> [Chunk]? {
        guard let scan = scan(bytes) else { return nil }
        // Greedy: cut at the last candidate before each piece would pass the target size.
        var cuts: [Cut] = []
        var pieceStart = 0
        var previous: Cut?
        for cut in scan.cuts {
            if cut.offset - pieceStart >= targetSize, let chosen = previous, chosen.offset > pieceStart {
                cuts.append(chosen)
                pieceStart = chosen.offset
            }
            previous = cut
        }
        guard !cuts.isEmpty else { return nil }
        if bytes.count - pieceStart >= targetSize / 2 || cuts.count == 1, let last = previous, last.offset > pieceStart,
           bytes.count - last.offset >= targetSize / 4 {
            cuts.append(last)
        }
        guard let firstCut = cuts.first, scan.importsEnd <= firstCut.offset else { return nil }
        var chunks: [Chunk] = []
        let boundaries = [Cut(offset: 0, body: nil)] + cuts + [Cut(offset: bytes.count, body: nil)]
        for index in 0..<(boundaries.count - 1) {
            let start = boundaries[index], end = boundaries[index + 1]
            var kept: [Range<Int>] = []
            if scan.importsEnd > 0 && start.offset > 0 { kept.append(0..<scan.importsEnd) }
            if let body = start.body.map({ scan.bodies[$0] }) {
                kept.append(body.headerStart..<(body.open + 1))
            }
            if let body = end.body.map({ scan.bodies[$0] }) {
                kept.append(body.close..<(body.close + 1))
            }
            chunks.append(Chunk(owned: start.offset..<end.offset, kept: kept))
        }
        return chunks
    }

    private enum Context {
        /// Code, with its open parentheses; in an interpolation, the `(` that opened it is one.
        case code(parens: Int)
        case string(hashes: Int, multiline: Bool)
    }

    /// What a top-level `{` opens, from the last declaration or statement keyword before it.
    private enum Opener {
        case type, `protocol`, other
    }

    static func scan(_ bytes: [UInt8]) -> (bodies: [Body], cuts: [Cut], importsEnd: Int)? {
        let count = bytes.count
        var bodies: [Body] = []
        var cuts: [Cut] = []
        var opener = Opener.other
        var stack: [Context] = [.code(parens: 0)]
        var braces = 0, brackets = 0, poundIf = 0
        var itemStart = 0
        var importsEnd = 0
        var lineHasCode = false
        var lastCode: UInt8 = 0
        var pendingCut: Int?
        var index = 0
        func at(_ offset: Int) -> UInt8 { offset < count ? bytes[offset] : 0 }
        func startsWord(_ word: String, _ offset: Int) -> Bool {
            let utf8 = Array(word.utf8)
            guard offset + utf8.count <= count, Array(bytes[offset..<(offset + utf8.count)]) == utf8 else { return false }
            let next = at(offset + utf8.count)
            return !(next == UInt8(ascii: "_") || (next >= 0x30 && next <= 0x39) || (next | 0x20 >= 0x61 && next | 0x20 <= 0x7A))
        }
        while index < count {
            let byte = bytes[index]
            guard case .code(let parens) = stack[stack.count - 1] else {
                // Inside a string literal.
                guard case .string(let hashes, let multiline) = stack[stack.count - 1] else { return nil }
                if byte == UInt8(ascii: "\\") {
                    var hashCount = 0
                    while hashCount < hashes && at(index + 1 + hashCount) == UInt8(ascii: "#") { hashCount += 1 }
                    if hashCount == hashes {
                        let after = index + 1 + hashes
                        if at(after) == UInt8(ascii: "(") {
                            stack.append(.code(parens: 1))
                            index = after + 1
                            continue
                        }
                        index = after + 1
                        continue
                    }
                    index += 1
                    continue
                }
                if byte == UInt8(ascii: "\"") {
                    let quotes = multiline ? 3 : 1
                    var closes = true
                    for offset in 0..<quotes where at(index + offset) != UInt8(ascii: "\"") { closes = false }
                    for offset in 0..<hashes where at(index + quotes + offset) != UInt8(ascii: "#") { closes = false }
                    if closes {
                        stack.removeLast()
                        index += quotes + hashes
                        continue
                    }
                }
                if byte == UInt8(ascii: "\n") && !multiline { return nil }
                index += 1
                continue
            }
            // Code.
            if byte == UInt8(ascii: "\n") {
                // After a blank line or a closing brace, between top-level declarations or the
                // members of a top-level type: a place to cut, unless the next line continues an
                // expression (`.map { }`).
                // Not before the file's first code: the first piece holds what `import Vow` and
                // the support declarations are placed by.
                if (!lineHasCode || lastCode == UInt8(ascii: "}")) && lastCode != 0 && parens == 0 && brackets == 0 && poundIf == 0 && stack.count == 1 {
                    if braces == 0 {
                        pendingCut = index + 1
                    } else if braces == 1, let last = bodies.indices.last, bodies[last].close < 0, bodies[last].splittable {
                        pendingCut = index + 1
                    }
                }
                lineHasCode = false
                index += 1
                continue
            }
            if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\r"), let cut = pendingCut {
                pendingCut = nil
                if byte != UInt8(ascii: ".") {
                    if braces == 0 {
                        cuts.append(Cut(offset: cut, body: nil))
                        // A type's header, kept by a piece cut inside it, starts here at the earliest.
                        itemStart = cut
                    } else if braces == 1, let last = bodies.indices.last, bodies[last].close < 0 {
                        cuts.append(Cut(offset: cut, body: last))
                    }
                }
            }
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") {
                index += 1
                continue
            }
            if byte == UInt8(ascii: "/") && at(index + 1) == UInt8(ascii: "/") {
                lineHasCode = true
                while index < count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
                continue
            }
            if byte == UInt8(ascii: "/") && at(index + 1) == UInt8(ascii: "*") {
                var depth = 1
                index += 2
                while index < count && depth > 0 {
                    if bytes[index] == UInt8(ascii: "/") && at(index + 1) == UInt8(ascii: "*") { depth += 1; index += 2; continue }
                    if bytes[index] == UInt8(ascii: "*") && at(index + 1) == UInt8(ascii: "/") { depth -= 1; index += 2; continue }
                    index += 1
                }
                lineHasCode = true
                continue
            }
            let firstOnLine = !lineHasCode
            lineHasCode = true
            lastCode = byte
            if stack.count == 1 && firstOnLine && braces == 0 && parens == 0 {
                // A file-scope import (attributes before it allowed).
                var word = index
                while at(word) == UInt8(ascii: "@") {
                    while word < count && bytes[word] != UInt8(ascii: " ") && bytes[word] != UInt8(ascii: "\n") { word += 1 }
                    while at(word) == UInt8(ascii: " ") { word += 1 }
                }
                if startsWord("import", word) {
                    var end = word
                    while end < count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
                    importsEnd = end
                }
            }
            if stack.count == 1 && firstOnLine && byte == UInt8(ascii: "#") {
                if startsWord("#if", index) { poundIf += 1 } else if startsWord("#endif", index) { poundIf -= 1 }
            }
            if isIdentifierByte(byte) && !(byte >= 0x30 && byte <= 0x39) {
                // A word, read whole. At top level, a declaration or statement keyword says what
                // the next `{` opens (`protocol P: class` is a protocol; `x.init` is no keyword).
                var end = index + 1
                while end < count && isIdentifierByte(bytes[end]) { end += 1 }
                if stack.count == 1 && braces == 0 && parens == 0 {
                    var before = index - 1
                    while before >= 0 && (bytes[before] == UInt8(ascii: " ") || bytes[before] == UInt8(ascii: "\t")) { before -= 1 }
                    let previousByte = before >= 0 ? bytes[before] : 0
                    if previousByte != UInt8(ascii: ".") && previousByte != UInt8(ascii: "`") {
                        switch String(decoding: bytes[index..<end], as: UTF8.self) {
                        case "class" where previousByte == UInt8(ascii: ":") || previousByte == UInt8(ascii: ","):
                            break
                        case "class", "struct", "enum", "extension", "actor":
                            opener = .type
                        case "protocol":
                            opener = .protocol
                        case "func", "init", "deinit", "subscript", "var", "let", "typealias", "macro", "operator", "precedencegroup",
                             "if", "guard", "else", "for", "while", "repeat", "do", "catch", "switch", "defer":
                            opener = .other
                        default:
                            break
                        }
                    }
                }
                lastCode = bytes[end - 1]
                index = end
                continue
            }
            switch byte {
            case UInt8(ascii: "#"), UInt8(ascii: "\""):
                var hashes = 0
                while at(index + hashes) == UInt8(ascii: "#") { hashes += 1 }
                guard at(index + hashes) == UInt8(ascii: "\"") else {
                    index += max(hashes, 1)
                    continue
                }
                let multiline = at(index + hashes + 1) == UInt8(ascii: "\"") && at(index + hashes + 2) == UInt8(ascii: "\"")
                stack.append(.string(hashes: hashes, multiline: multiline))
                index += hashes + (multiline ? 3 : 1)
                continue
            case UInt8(ascii: "("):
                stack[stack.count - 1] = .code(parens: parens + 1)
            case UInt8(ascii: ")"):
                if parens == 1 && stack.count > 1 {
                    stack.removeLast()
                } else {
                    stack[stack.count - 1] = .code(parens: max(0, parens - 1))
                }
            case UInt8(ascii: "["):
                if stack.count == 1 { brackets += 1 }
            case UInt8(ascii: "]"):
                if stack.count == 1 { brackets = max(0, brackets - 1) }
            case UInt8(ascii: "{"):
                if stack.count == 1 {
                    if braces == 0 && parens == 0 {
                        bodies.append(Body(headerStart: itemStart, open: index, close: -1, splittable: opener == .type && brackets == 0))
                        opener = .other
                    }
                    braces += 1
                }
            case UInt8(ascii: "}"):
                if stack.count == 1 {
                    braces -= 1
                    if braces < 0 { return nil }
                    if braces == 0 && parens == 0 {
                        if let last = bodies.indices.last, bodies[last].close < 0 {
                            bodies[last].close = index
                        }
                        itemStart = index + 1
                    }
                }
            default:
                break
            }
            index += 1
        }
        guard stack.count == 1, braces == 0, poundIf == 0, bodies.allSatisfy({ $0.close >= 0 }) else { return nil }
        return (bodies, cuts, importsEnd)
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte >= 0x80
    }
}
