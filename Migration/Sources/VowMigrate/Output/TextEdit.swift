/// A replacement of `removing` bytes at a UTF-8 `offset` of the original text. Edits are applied
/// all at once, so every byte outside them (comments, blank lines, trivia) stays as it was.
struct TextEdit {
    var offset: Int
    var removing: Int
    var text: String

    static func apply(_ edits: [TextEdit], to source: String) -> String {
        var output = Array(source.utf8)
        // From the end backwards so that earlier offsets stay valid; equal offsets keep their order.
        let ordered = edits.enumerated().sorted { lhs, rhs in
            lhs.element.offset != rhs.element.offset ? lhs.element.offset > rhs.element.offset : lhs.offset > rhs.offset
        }
        // Generated code is written with "\n"; a file with Windows line endings gets its own.
        let windowsLineEndings = source.contains("\r\n")
        for (_, edit) in ordered {
            var text = edit.text
            if windowsLineEndings {
                text = text.replacing("\r\n", with: "\n").replacing("\n", with: "\r\n")
            }
            output.replaceSubrange(edit.offset..<(edit.offset + edit.removing), with: Array(text.utf8))
        }
        return String(decoding: output, as: UTF8.self)
    }
}
