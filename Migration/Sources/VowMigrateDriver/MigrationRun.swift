import Foundation
import VowMigrate

/// What happens to files that would change.
public enum OutputMode: String, Sendable, CaseIterable {
    /// Print a unified diff (the default); touch nothing.
    case diff
    /// Rewrite the files atomically.
    case inPlace
    /// Print nothing but the summary; exit 1 if anything would change.
    case check
}

/// The outcome of one file, in the shape of the JSON report.
public struct FileReport: Sendable, Codable {
    public var path: String
    public var changed: Bool
    public var lines: Int
    public var findings: [Finding]
    /// Why the file could not be read or written, if so.
    public var error: String?
    /// The unified diff, in diff mode.
    public var diff: String?
}

/// Totals for the summary line and the JSON report.
public struct RunSummary: Sendable, Codable, Equatable {
    public var files = 0
    public var changedFiles = 0
    /// Completion-handler functions found: added + replaced + alreadyMigrated + skipped.
    public var candidates = 0
    /// Functions with an escaping closure that the rule does not take for completions.
    public var rejected = 0
    public var lines = 0
    public var added = 0
    public var replaced = 0
    public var alreadyMigrated = 0
    public var skipped = 0
    /// `--from-promisekit`: imports and `.value` reads switched to Vow's spelling.
    public var switched = 0
    /// `--from-promisekit`: places left alone that may need a change by hand.
    public var toReview = 0
    public var unparseableFiles = 0
    public var failedFiles = 0
    /// `--stage call-sites`/`all`: statements calling completion handlers converted, and left alone.
    public var callSitesConverted = 0
    public var callSitesRefused = 0
    /// Refused call sites by reason, for the summary.
    public var refusalReasons: [String: Int] = [:]

    public init() {}

    public mutating func count(_ report: FileReport) {
        files += 1
        lines += report.lines
        if report.changed { changedFiles += 1 }
        if report.error != nil { failedFiles += 1 }
        for finding in report.findings {
            if finding.isCandidate { candidates += 1 }
            switch finding.kind {
            case .added: added += 1
            case .replaced: replaced += 1
            case .alreadyMigrated: alreadyMigrated += 1
            case .skipped: skipped += 1
            case .parseError: unparseableFiles += 1
            case .switched: switched += 1
            case .review: toReview += 1
            case .rejected: rejected += 1
            case .callSiteConverted: callSitesConverted += 1
            case .callSiteRefused:
                callSitesRefused += 1
                refusalReasons[finding.message, default: 0] += 1
            }
        }
    }
}

/// Migrates a list of files on all cores and hands back their reports in the list's order,
/// holding at most one batch of files in memory at a time.
public struct MigrationRun: Sendable {
    public var options: MigrationOptions
    public var mode: OutputMode
    public var includeDiffs: Bool
    /// Files processed at once; 1 runs everything on the calling thread.
    public var jobs: Int
    public var batchSize: Int
    /// What the whole tree declares (``MigrationIndex/build(files:context:jobs:)``); nil reads each
    /// file on its own.
    public var index: MigrationIndex?

    public init(options: MigrationOptions, mode: OutputMode, includeDiffs: Bool, jobs: Int, batchSize: Int = 64) {
        self.options = options
        self.mode = mode
        self.includeDiffs = includeDiffs
        self.jobs = jobs
        self.batchSize = batchSize
    }

    /// Processes `files`; `emit` is called on the calling thread once per file, in order.
    public func run(_ files: [String], emit: (FileReport) -> Void) {
        var start = 0
        while start < files.count {
            let batch = Array(files[start..<min(start + batchSize, files.count)])
            if jobs == 1 {
                for path in batch { emit(process(path)) }
                start += batch.count
                continue
            }
            let slots = ReportSlots(count: batch.count)
            DispatchQueue.concurrentPerform(iterations: batch.count) { index in
                slots.store(process(batch[index]), at: index)
            }
            for report in slots.reports { emit(report) }
            start += batch.count
        }
    }

    /// Reads, migrates and (in place mode) writes one file.
    public func process(_ path: String) -> FileReport {
        guard let data = FileManager.default.contents(atPath: path) else {
            return FileReport(path: path, changed: false, lines: 0, findings: [], error: "cannot be read", diff: nil)
        }
        guard let source = String(data: data, encoding: .utf8) else {
            return FileReport(path: path, changed: false, lines: 0, findings: [], error: "is not UTF-8 text", diff: nil)
        }
        let lines = source.utf8.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        let migration = SourceMigrator.migrate(source: source, fileName: path, options: options, index: index)
        var report = FileReport(path: path, changed: migration.changed, lines: lines, findings: migration.findings, error: nil, diff: nil)
        guard migration.changed else { return report }
        switch mode {
        case .diff:
            if includeDiffs {
                // `a/` and `b/` prefix the path as git's diffs do; an absolute path keeps one slash.
                let diffPath = path.hasPrefix("/") ? String(path.dropFirst()) : path
                report.diff = UnifiedDiff.make(old: source, new: migration.output, oldName: "a/" + diffPath, newName: "b/" + diffPath)
            }
        case .inPlace:
            do {
                try AtomicFile.write(migration.output, to: path)
            } catch {
                report.error = String(describing: error)
            }
        case .check:
            break
        }
        return report
    }
}

/// Per-batch result storage written from many threads, read once the batch is done.
private final class ReportSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [FileReport?]

    init(count: Int) {
        storage = Array(repeating: nil, count: count)
    }

    func store(_ report: FileReport, at index: Int) {
        lock.lock()
        storage[index] = report
        lock.unlock()
    }

    var reports: [FileReport] {
        lock.lock()
        defer { lock.unlock() }
        return storage.map { $0! }
    }
}
