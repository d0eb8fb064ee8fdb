/// A replacement of `removing` bytes at a UTF-8 `offset` of the original text. Edits are applied
/// all at once, so every byte outside them (comments, blank lines, trivia) stays as it was.
struct TextEdit {
    var offset: Int
    var removing: Int
    var text: String

    /// The bytes of the original text it replaces.
    var removedRange: Range<Int> { offset..<(offset + removing) }

    /// Applies `edits` (which must not overlap) in one forward pass, so the cost is linear in the
    /// size of the file plus the inserted text, however many edits there are. Edits at the same
    /// offset appear in the order they were made.
    ///
    /// Generated code is written with `\n`; each inserted text takes the line ending of the line
    /// it is inserted into (`\r\n` in a Windows file, and in a file mixing both, whichever the
    /// neighbouring line uses), so the output never mixes endings where the input did not.
    static func apply(_ edits: [TextEdit], to source: String) -> String {
        guard !edits.isEmpty else { return source }
        let ordered = edits.enumerated().sorted { lhs, rhs in
            lhs.element.offset != rhs.element.offset ? lhs.element.offset < rhs.element.offset : lhs.offset < rhs.offset
        }.map(\.element)
        var source = source
        return source.withUTF8 { bytes in
            // The texts as inserted, then the output written once, straight into the string's
            // storage: building it in an array first held two copies of a large file's output at
            // the end of its run, its peak.
            var texts: [String] = []
            texts.reserveCapacity(ordered.count)
            var length = 0
            var cursor = 0
            for edit in ordered {
                let start = max(edit.offset, cursor)
                length += start - cursor
                var text = edit.text
                if text.utf8.contains(UInt8(ascii: "\n")) {
                    let windows = usesWindowsLineEnding(bytes, around: edit.offset)
                    if windows || text.utf8.contains(UInt8(ascii: "\r")) {
                        text = text.replacing("\r\n", with: "\n")
                        if windows { text = text.replacing("\n", with: "\r\n") }
                    }
                }
                length += text.utf8.count
                texts.append(text)
                cursor = max(cursor, min(bytes.count, edit.offset + edit.removing))
            }
            length += bytes.count - cursor
            return String(unsafeUninitializedCapacity: length) { output in
                var written = 0
                func write<Bytes: Collection<UInt8>>(_ part: Bytes) {
                    written = UnsafeMutableBufferPointer(rebasing: output[written...]).initialize(fromContentsOf: part) + written
                }
                var cursor = 0
                for (edit, text) in zip(ordered, texts) {
                    let start = max(edit.offset, cursor)
                    write(UnsafeBufferPointer(rebasing: bytes[cursor..<start]))
                    write(text.utf8)
                    cursor = max(cursor, min(bytes.count, edit.offset + edit.removing))
                }
                write(UnsafeBufferPointer(rebasing: bytes[cursor...]))
                return written
            }
        }
    }

    /// Whether the line holding `offset` ends with `\r\n`; for the last line, which may have no
    /// ending, the line before it decides.
    static func usesWindowsLineEnding(_ bytes: UnsafeBufferPointer<UInt8>, around offset: Int) -> Bool {
        var index = min(offset, bytes.count)
        while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
        if index < bytes.count { return index > 0 && bytes[index - 1] == UInt8(ascii: "\r") }
        index = min(offset, bytes.count) - 1
        while index >= 0 && bytes[index] != UInt8(ascii: "\n") { index -= 1 }
        return index > 0 && bytes[index - 1] == UInt8(ascii: "\r")
    }
}

/// Where the bytes of a text that edits made were in the text before them: an inserted byte is
/// where its insertion was. The stages after an edit report places in its text; the run reports
/// them in the file as it was. The edits are sorted once, each offset found by binary search.
struct EditedOffsets {
    private let edits: [TextEdit]
    /// Where each edit's text starts in the edited text.
    private let starts: [Int]

    init(_ edits: [TextEdit]) {
        self.edits = edits.sorted { $0.offset < $1.offset }
        var starts: [Int] = []
        starts.reserveCapacity(self.edits.count)
        var delta = 0
        for edit in self.edits {
            starts.append(edit.offset + delta)
            delta += edit.text.utf8.count - edit.removing
        }
        self.starts = starts
    }

    /// The offset before the edits of `offset` after them.
    func original(of offset: Int) -> Int {
        // The last edit starting at or before `offset`.
        var low = 0
        var high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= offset { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return offset }
        let edit = edits[low - 1]
        let start = starts[low - 1]
        let inserted = edit.text.utf8.count
        if offset < start + inserted { return edit.offset }
        return edit.offset + edit.removing + (offset - start - inserted)
    }
}
