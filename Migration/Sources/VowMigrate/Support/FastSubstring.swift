extension String {
    /// Whether `needle` occurs in the string, comparing UTF-8 bytes: for the short ASCII words
    /// the completion rule looks for, several times faster than the generic `contains(_:)`,
    /// which counts on a large file.
    func hasSubstring(_ needle: String) -> Bool {
        var haystack = self
        var needle = needle
        return haystack.withUTF8 { text in
            needle.withUTF8 { word in
                guard !word.isEmpty else { return true }
                guard word.count <= text.count else { return false }
                let first = word[0]
                var index = 0
                let last = text.count - word.count
                while index <= last {
                    if text[index] == first {
                        var offset = 1
                        while offset < word.count && text[index + offset] == word[offset] { offset += 1 }
                        if offset == word.count { return true }
                    }
                    index += 1
                }
                return false
            }
        }
    }
}
