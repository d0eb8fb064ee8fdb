import Foundation

/// A `[n/total]` line on stderr, redrawn in place, only when stderr is a terminal and the tree is
/// big enough for it to matter.
final class ProgressLine {
    private let total: Int
    private let enabled: Bool
    private var done = 0
    private var shown = false

    init(total: Int) {
        self.total = total
        self.enabled = isatty(STDERR_FILENO) == 1 && total >= 50
    }

    func advance() {
        done += 1
        guard enabled, done % 25 == 0 || done == total else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[Kvow-migrate: \(done)/\(total) files".utf8))
        shown = true
    }

    func clear() {
        guard shown else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        shown = false
    }
}
