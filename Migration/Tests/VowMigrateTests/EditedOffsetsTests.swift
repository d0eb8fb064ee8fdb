@testable import VowMigrate
import XCTest

/// `EditedOffsets`: where a byte of an edited text was before the edits (findings of the stages
/// after `--replace`'s call changes are reported in the file as it was). Checked against the
/// edits applied by hand, byte by byte, for edits that insert, remove and replace, at the same
/// offset too.
final class EditedOffsetsTests: XCTestCase {
    func testEveryByteOfTheEditedTextMapsToWhereItWas() {
        let source = "let a = load(1)\nlet b = load(2)\n"
        let edits = [
            TextEdit(offset: 8, removing: 0, text: "Promise.immediate { "),   // before `load(1)`
            TextEdit(offset: 15, removing: 0, text: " }"),                     // after it
            TextEdit(offset: 16, removing: 3, text: "var"),                    // `let` -> `var`
            TextEdit(offset: 20, removing: 1, text: ""),                       // `b` removed
            TextEdit(offset: 24, removing: 0, text: "X"),
            TextEdit(offset: 24, removing: 0, text: "Y"),                      // two at one offset
        ]
        let edited = TextEdit.apply(edits, to: source)
        XCTAssertEqual(edited, "let a = Promise.immediate { load(1) }\nvar  = XYload(2)\n")

        // By hand: each byte of the edited text, the original offset it came from (an inserted
        // byte, where its insertion was).
        var expected: [Int] = []
        var cursor = 0
        for edit in edits.sorted(by: { $0.offset < $1.offset }) {
            while cursor < edit.offset { expected.append(cursor); cursor += 1 }
            expected += Array(repeating: edit.offset, count: edit.text.utf8.count)
            cursor = max(cursor, edit.offset + edit.removing)
        }
        while cursor < source.utf8.count { expected.append(cursor); cursor += 1 }
        XCTAssertEqual(expected.count, edited.utf8.count)

        let offsets = EditedOffsets(edits)
        XCTAssertEqual((0..<edited.utf8.count).map(offsets.original(of:)), expected)
        // No edits: every offset is its own.
        XCTAssertEqual(EditedOffsets([]).original(of: 7), 7)
    }
}
