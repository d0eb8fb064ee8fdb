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
    /// Whether the migration changes the file. In place, a file that could not be written has
    /// `changed` and an `error`: it still needs the change, which was not made.
    public var changed: Bool
    public var lines: Int
    public var findings: [Finding]
    /// Why the file could not be read or written, if so.
    public var error: String?
    /// The unified diff, in diff mode.
    public var diff: String?
    /// True when the change adds `import Vow` (absent otherwise): the file then needs Vow.
    public var addsVowImport: Bool?

    public init(path: String, changed: Bool, lines: Int, findings: [Finding], error: String? = nil, diff: String? = nil) {
        self.path = path
        self.changed = changed
        self.lines = lines
        self.findings = findings
        self.error = error
        self.diff = diff
    }
}

/// Totals for the summary line and the JSON report.
public struct RunSummary: Sendable, Codable, Equatable {
    public var files = 0
    /// Files changed (in place: written; otherwise: that would change). A file whose write
    /// failed is not counted here but in `failedFiles`.
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
    /// Files that could not be read, decoded or written.
    public var failedFiles = 0
    /// `--stage call-sites`/`all`: statements calling completion handlers converted, and left alone.
    public var callSitesConverted = 0
    public var callSitesRefused = 0
    /// Refused call sites by reason, for the summary.
    public var refusalReasons: [String: Int] = [:]
    /// Call sites left alone for the shape of their callback's own code (``CallbackShapeReasons``).
    public var callbackShapeRefusals = 0
    /// Paths inside the named directories that were not migrated (link cycles, duplicates,
    /// broken links, unreadable folders), each reported on its own line.
    public var skippedPaths = 0
    /// Files whose change adds `import Vow`.
    public var vowImportsAdded = 0
    /// What the run's output needs beyond Swift and what the files already import: "Vow" for
    /// `--to promise`, "Swift" for `--to async` (nil without a target).
    public var outputNeeds: String?

    public init() {}

    public mutating func count(_ report: FileReport) {
        files += 1
        lines += report.lines
        if report.changed && report.error == nil { changedFiles += 1 }
        if report.error != nil { failedFiles += 1 }
        if report.addsVowImport == true && report.error == nil { vowImportsAdded += 1 }
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
                if CallbackShapeReasons.isCallbackShape(finding.message) { callbackShapeRefusals += 1 }
            }
        }
    }
}

/// Where a run is, for a progress display: files and bytes done, and the stage of each file in
/// progress. Updated from the worker threads; read from any thread.
public final class RunProgress: @unchecked Sendable {
    /// One file being migrated.
    public struct Active: Sendable {
        public var path: String
        public var size: Int
        public var stage: String
        /// How far through the file the current stage is, 0...1, when known.
        public var fraction: Double?
    }

    public let totalFiles: Int
    public let totalBytes: Int
    private let lock = NSLock()
    private var filesDone = 0
    private var bytesDone = 0
    private var active: [String: Active] = [:]

    public init(totalFiles: Int, totalBytes: Int) {
        self.totalFiles = totalFiles
        self.totalBytes = totalBytes
    }

    /// A snapshot: files done, bytes done (counting the part of the files in progress that is
    /// done), and the file in progress that is furthest from done, the one worth showing.
    public func snapshot() -> (files: Int, bytes: Int, slowest: Active?) {
        lock.lock()
        defer { lock.unlock() }
        var bytes = bytesDone
        for file in active.values { bytes += Int(Double(file.size) * (file.fraction ?? 0) * 0.999) }
        let slowest = active.values.max { $0.size < $1.size }
        return (filesDone, min(bytes, totalBytes), slowest)
    }

    func begin(_ path: String, size: Int) {
        lock.lock()
        active[path] = Active(path: path, size: size, stage: "reading", fraction: nil)
        lock.unlock()
    }

    func stage(_ path: String, _ stage: String, fraction: Double? = nil) {
        lock.lock()
        active[path]?.stage = stage
        active[path]?.fraction = fraction
        lock.unlock()
    }

    func finish(_ path: String, size: Int) {
        lock.lock()
        active[path] = nil
        filesDone += 1
        bytesDone += size
        lock.unlock()
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
    /// What the whole tree declares (``MigrationIndex/build(files:context:jobs:batchSize:reading:)``); nil reads each
    /// file on its own.
    public var index: MigrationIndex?
    /// The language mode of each file (from its package manifest); nil: `options.languageMode`
    /// for every file.
    public var languageModes: LanguageModes?

    public init(options: MigrationOptions, mode: OutputMode, includeDiffs: Bool, jobs: Int, batchSize: Int = 64) {
        self.options = options
        self.mode = mode
        self.includeDiffs = includeDiffs
        self.jobs = jobs
        self.batchSize = batchSize
    }

    /// Processes `files`; `emit` is called on the calling thread once per file, in order.
    public func run(_ files: [String], emit: (FileReport) -> Void) {
        run(files.map { SourceFiles.File(path: $0, size: 0) }, progress: nil, emit: emit)
    }

    /// Processes `files`, keeping `progress` up to date; `emit` is called on the calling thread
    /// once per file, in order.
    public func run(_ files: [SourceFiles.File], progress: RunProgress?, emit: (FileReport) -> Void) {
        if decidesForwarding {
            runDecidingForwarding(files, progress: progress, emit: emit)
            return
        }
        forEachMigrated(files, progress: progress) { _, outcome in
            switch outcome {
            case .failed(let report): emit(report)
            case .migrated(let read, let migration): emit(finish(read, migration, progress: progress))
            }
        }
    }

    /// Reads, migrates and (in place mode) writes one file.
    public func process(_ path: String) -> FileReport {
        process(SourceFiles.File(path: path, size: 0), progress: nil)
    }

    func process(_ file: SourceFiles.File, progress: RunProgress?) -> FileReport {
        switch migrate(file, progress: progress) {
        case .failed(let report): return report
        case .migrated(let read, let migration): return finish(read, migration, progress: progress)
        }
    }

    /// A file read and migrated, not yet written or diffed; or its report, when it could not be read.
    enum Migrated: Sendable {
        case failed(FileReport)
        case migrated(ReadFile, FileMigration)
    }

    /// A file's text as read, with its path.
    struct ReadFile: Sendable {
        var path: String
        var text: SourceText
    }

    /// Migrates `files` in batches of `batchSize`, holding one batch in memory at a time, and
    /// hands each outcome with its position in `files` to `handle`, in order, on the calling thread.
    private func forEachMigrated(_ files: [SourceFiles.File], progress: RunProgress?, handle: (Int, Migrated) -> Void) {
        var start = 0
        while start < files.count {
            let batch = Array(files[start..<min(start + batchSize, files.count)])
            for (offset, outcome) in inParallel(batch, { migrate($0, progress: progress) }).enumerated() {
                handle(start + offset, outcome)
            }
            start += batch.count
        }
    }

    /// `body` of each item on all cores (or on this thread for `jobs == 1`), in the items' order.
    private func inParallel<Item: Sendable, Result: Sendable>(_ items: [Item], _ body: @Sendable (Item) -> Result) -> [Result] {
        if jobs == 1 { return items.map(body) }
        let slots = BatchSlots<Result>(count: items.count)
        DispatchQueue.concurrentPerform(iterations: items.count) { position in
            slots.store(body(items[position]), at: position)
        }
        let results = slots.stored
        precondition(results.count == items.count, "a file of the batch has no report")
        return results
    }

    private func migrate(_ file: SourceFiles.File, progress: RunProgress?) -> Migrated {
        progress?.begin(file.path, size: file.size)
        defer { progress?.finish(file.path, size: file.size) }
        switch Self.read(file.path) {
        case .success(let text):
            let read = ReadFile(path: file.path, text: text)
            return .migrated(read, migrate(read, index: index, progress: progress))
        case .failure(let error):
            return .failed(FileReport(path: file.path, changed: false, lines: 0, findings: [], error: error.reason))
        }
    }

    /// The migration of a file read already, with `index`.
    private func migrate(_ read: ReadFile, index: MigrationIndex?, progress: RunProgress?) -> FileMigration {
        let path = read.path
        var options = options
        if let languageModes {
            options.languageMode = languageModes.mode(of: path)
            options.defaultIsolation = languageModes.defaultIsolation(of: path)
            options.inLibraryPackage = languageModes.isInLibraryPackage(path)
            options.earlyDeployment = languageModes.earlyDeployment(of: path)
        }
        let migration = SourceMigrator.migrate(source: read.text.text, fileName: path, options: options, index: index) { stage in
            progress?.stage(path, stage.name, fraction: stage.fraction)
        }
        // A large file's pieces are freed by now (see `AllocatorTuning.releaseFreeMemory`).
        if read.text.text.utf8.count >= SourceMigrator.pieceSize { AllocatorTuning.releaseFreeMemory() }
        return migration
    }

    /// The report of a migrated file, with its diff, or written in place.
    private func finish(_ read: ReadFile, _ migration: FileMigration, progress: RunProgress?) -> FileReport {
        let path = read.path
        let source = read.text
        var report = FileReport(path: path, changed: migration.changed, lines: source.newlines, findings: migration.findings)
        if migration.changed && migration.addedVowImport { report.addsVowImport = true }
        guard migration.changed else { return report }
        switch mode {
        case .diff:
            if includeDiffs {
                progress?.stage(path, "diffing")
                // `a/` and `b/` prefix the path as git's diffs do; an absolute path keeps one slash.
                let diffPath = path.hasPrefix("/") ? String(path.dropFirst()) : path
                report.diff = UnifiedDiff.make(old: source.text, new: migration.output, oldName: "a/" + diffPath, newName: "b/" + diffPath)
            }
        case .inPlace:
            progress?.stage(path, "writing")
            do {
                try AtomicFile.write(bytes: source.bytes(for: migration.output), to: path)
            } catch let error as AtomicFile.WriteError {
                report.error = error.reason + "; the file was left as it was"
            } catch {
                report.error = "\(error)"
            }
        case .check:
            break
        }
        return report
    }

    /// The async form's call sites in a whole tree: a callback handing its answer on to its
    /// function's handler off the main queue converts only where every call of that function is
    /// converted by the run (``ForwardingFacts``), which the files calling it decide. Files
    /// holding such a callback wait until every file is read; then the functions all of whose
    /// calls were converted are allowed and their files migrated again, until nothing more
    /// qualifies (a converted forwarding callback is itself a converted call of its callee).
    /// Reports still come in the files' order; a file without such a callback is written as
    /// soon as it is migrated.
    private var decidesForwarding: Bool {
        options.target == .async && options.stage != .declarations && index != nil
    }

    private func runDecidingForwarding(_ files: [SourceFiles.File], progress: RunProgress?, emit: (FileReport) -> Void) {
        guard var index else { return }
        var facts = ForwardingFacts()
        var held: [Int: (ReadFile, FileMigration)] = [:]
        var reports: [Int: FileReport] = [:]
        var nextToEmit = 0
        func emitReady() {
            while nextToEmit < files.count, let report = reports.removeValue(forKey: nextToEmit) {
                emit(report)
                nextToEmit += 1
            }
        }
        forEachMigrated(files, progress: progress) { position, outcome in
            switch outcome {
            case .failed(let report):
                reports[position] = report
            case .migrated(let read, let migration):
                facts.converted.formUnion(migration.forwarding.converted)
                if !migration.forwarding.waitsOnRun {
                    reports[position] = finish(read, migration, progress: progress)
                } else {
                    held[position] = (read, migration)
                }
            }
            emitReady()
        }
        for _ in 0..<8 {
            facts.refused = held.values.flatMap { $0.1.forwarding.refused }
            facts.waitingOnCallers = held.values.flatMap { $0.1.forwarding.waitingOnCallers }
            let allowed = ForwardingFacts.allowed(by: facts, index: index).subtracting(index.forwardingAllowed)
            let cleared = ForwardingFacts.cleared(by: facts, index: index).subtracting(index.codeAfterCleared)
            if allowed.isEmpty && cleared.isEmpty { break }
            index.forwardingAllowed.formUnion(allowed)
            index.codeAfterCleared.formUnion(cleared)
            let again = held.filter { _, file in
                file.1.forwarding.refused.contains { allowed.contains($0.key) } || file.1.forwarding.waitingOnCallers.contains { cleared.contains($0.key) }
            }.keys.sorted()
            // From the text read the first time; not counted again in the progress line.
            let reads = again.map { held[$0]!.0 }
            let migrations = inParallel(reads) { [index] read in migrate(read, index: index, progress: nil) }
            for (position, (read, migration)) in zip(again, zip(reads, migrations)) {
                facts.converted.formUnion(migration.forwarding.converted)
                held[position] = (read, migration)
            }
        }
        for (position, (read, migration)) in held { reports[position] = finish(read, migration, progress: progress) }
        emitReady()
    }
}

extension MigrationRun {
    struct ReadError: Error {
        var reason: String
    }

    /// The file's text, decoded. The bytes read are dropped on return, before the migration
    /// starts (kept in the caller's scope, they were one more copy of the file at its peak).
    static func read(_ path: String) -> Result<SourceText, ReadError> {
        guard let data = FileManager.default.contents(atPath: path) else { return .failure(ReadError(reason: "cannot be read")) }
        do {
            return .success(try SourceText(decoding: [UInt8](data)))
        } catch {
            return .failure(ReadError(reason: error.description))
        }
    }
}
