/// A Swift file's bytes as text, with what must survive a rewrite byte for byte: the UTF-8 byte
/// order mark. (Line endings stay in the text; generated lines take the file's own, see
/// `LineEndings`.)
public struct SourceText: Sendable, Equatable {
    /// The text without the byte order mark.
    public var text: String
    /// Whether the file starts with the UTF-8 byte order mark `EF BB BF`.
    public var hasByteOrderMark: Bool
    /// Newlines in the file (its line count when the last line ends with one).
    public var newlines: Int

    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Why bytes are not a Swift source: the first byte that is not UTF-8, with its place.
    public struct DecodingError: Error, Equatable, CustomStringConvertible {
        /// 0-based offset of the first bad byte in the file (byte order mark included).
        public var offset: Int
        public var line: Int
        public var column: Int
        public var byte: UInt8

        public var description: String {
            "is not valid UTF-8: the first bad byte, 0x\(String(byte, radix: 16, uppercase: true)), is at byte offset \(offset) "
                + "(line \(line), column \(column)); convert the file to UTF-8 (e.g. `iconv -f LATIN1 -t UTF-8`) and run again"
        }
    }

    /// Decodes `bytes`, which must be valid UTF-8 (a byte order mark is allowed and kept aside).
    public init(decoding bytes: [UInt8]) throws(DecodingError) {
        let bom = bytes.starts(with: Self.byteOrderMark)
        let start = bom ? 3 : 0
        if let bad = Self.firstInvalidByte(in: bytes, from: start) {
            var line = 1, lineStart = 0
            for index in 0..<bad where bytes[index] == UInt8(ascii: "\n") {
                line += 1
                lineStart = index + 1
            }
            throw DecodingError(offset: bad, line: line, column: bad - lineStart + 1, byte: bytes[bad])
        }
        text = bom ? String(decoding: bytes[start...], as: UTF8.self) : String(decoding: bytes, as: UTF8.self)
        hasByteOrderMark = bom
        newlines = bytes.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }

    /// The bytes to write for `text`, with the byte order mark again if the file had one.
    public func bytes(for text: String) -> [UInt8] {
        hasByteOrderMark ? Self.byteOrderMark + Array(text.utf8) : Array(text.utf8)
    }

    /// The offset of the first byte that does not belong to a well-formed UTF-8 sequence
    /// (overlong forms, surrogates and code points past U+10FFFF are ill-formed), or `nil`.
    static func firstInvalidByte(in bytes: [UInt8], from start: Int) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            var index = start
            let count = buffer.count
            while index < count {
                let lead = buffer[index]
                if lead < 0x80 {
                    index += 1
                    continue
                }
                let length: Int
                var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
                switch lead {
                case 0xC2...0xDF: length = 2
                case 0xE0: length = 3; lower = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: length = 3
                case 0xED: length = 3; upper = 0x9F
                case 0xF0: length = 4; lower = 0x90
                case 0xF1...0xF3: length = 4
                case 0xF4: length = 4; upper = 0x8F
                default: return index
                }
                for offset in 1..<length {
                    guard index + offset < count else { return index }
                    let byte = buffer[index + offset]
                    let (low, high) = offset == 1 ? (lower, upper) : (UInt8(0x80), UInt8(0xBF))
                    guard byte >= low && byte <= high else { return index }
                }
                index += length
            }
            return nil
        }
    }
}
