import Foundation
import VowMigrateDriver

/// Where the run is, on one line of stderr redrawn in place, only when stderr is a terminal:
/// `vow-migrate: 1200/5000 files, 24% · Sources/Big.swift: migrating 40%`. It is drawn at the
/// start, after each file and five times a second from a timer, so one large file shows its
/// stage and how far through it the tool is.
final class ProgressLine: @unchecked Sendable {
    private let progress: RunProgress
    private let enabled: Bool
    private let lock = NSLock()
    private var shown = false
    private var stopped = false
    private var timer: DispatchSourceTimer?

    init(progress: RunProgress, enabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.progress = progress
        self.enabled = enabled && progress.totalFiles > 0
    }

    func start() {
        guard enabled else { return }
        draw()
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        timer.schedule(deadline: .now() + .milliseconds(200), repeating: .milliseconds(200))
        timer.setEventHandler { [weak self] in self?.draw() }
        timer.resume()
        self.timer = timer
    }

    /// Runs `body` (which writes to stdout or stderr) with the line cleared, then draws it again.
    func whileCleared(_ body: () -> Void) {
        guard enabled else { return body() }
        lock.lock()
        defer { lock.unlock() }
        clearLocked()
        body()
        drawLocked()
    }

    /// Draws the final state and clears the line for the summary.
    func stop() {
        timer?.cancel()
        timer = nil
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        drawLocked()
        clearLocked()
        stopped = true
    }

    private func draw() {
        lock.lock()
        defer { lock.unlock() }
        drawLocked()
    }

    private func drawLocked() {
        guard !stopped else { return }
        let (files, bytes, slowest) = progress.snapshot()
        var text = "vow-migrate: \(files)/\(progress.totalFiles) file\(progress.totalFiles == 1 ? "" : "s")"
        if progress.totalBytes > 0 {
            text += ", \(Int(Double(bytes) * 100 / Double(progress.totalBytes)))%"
        }
        // Name the file in progress when it is big enough to take a while.
        if let slowest, progress.totalFiles == 1 || slowest.size >= 256 * 1024 {
            text += " · \(slowest.path): \(slowest.stage)"
            if let fraction = slowest.fraction { text += " \(Int(fraction * 100))%" }
        }
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + text).utf8))
        shown = true
    }

    private func clearLocked() {
        guard shown else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        shown = false
    }
}
