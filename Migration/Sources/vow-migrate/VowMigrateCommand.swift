import ArgumentParser
import Foundation
import VowMigrate
import VowMigrateDriver

extension MigrationTarget: ExpressibleByArgument {}

enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
}

/// Exit statuses, documented in `--help` and the README.
enum ExitStatus {
    static let wouldChange: Int32 = 1
    static let badPath: Int32 = 2
    static let filesLeftAlone: Int32 = 3
}

@main
struct VowMigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vow-migrate",
        abstract: "Add promise or async alternatives to completion-handler functions, or switch code from PromiseKit to Vow.",
        discussion: """
        For each function that reports its outcome through a completion handler, vow-migrate adds \
        an alternative beside it (`-> Promise<T>` with --to promise, `async` with --to async) that \
        calls the original, so call sites can move one at a time. With --replace it converts the \
        function itself where its body allows, and reports the others untouched. Handlers it reads: \
        (T?, Error?), (T, Error?), (Error?, T?), (Error?), (T), (), Result<T, E>, (Bool, Error?), \
        split success:/failure: pairs, typealiased handlers, handlers in any position, and \
        functions returning a cancellable handle. Every function it leaves alone is listed on \
        stderr with its place and the reason.

        With --from-promisekit it switches files from PromiseKit to Vow: `import PromiseKit` becomes \
        `import Vow`, and PromiseKit's synchronous `.value` becomes `.valueIfFulfilled` where the \
        file shows the base is a promise (Vow's `value` is async). Other `.value` reads that could \
        be a promise are reported as warnings, not changed; PromiseKit extension modules \
        (`import PMKFoundation`) are reported, not removed. Given --to as well, it switches first \
        and then adds the alternatives.

        WORKFLOW:
          1. Look first: the default prints a unified diff and touches nothing.
               vow-migrate Sources --to async
          2. Rewrite when the diff looks right (each file atomically; owner, permissions,
             byte order mark and line endings kept; read-only files are left alone).
               vow-migrate Sources --to async --in-place
          3. Build, run your tests, commit. Move call sites over at your pace.
          4. Keep CI from regressing: --check exits 1 while anything is left to migrate.
               vow-migrate Sources --to async --check

        EXAMPLES:
          Show the diff for a whole tree:
            vow-migrate Sources --to promise
          Rewrite one file, adding async alternatives:
            vow-migrate Sources/Api.swift --to async --in-place
          In CI, fail while anything is left to migrate:
            vow-migrate Sources --to async --check
          Move a tree from PromiseKit to Vow:
            vow-migrate Sources --from-promisekit --in-place
          Move from PromiseKit and add promise alternatives in one go:
            vow-migrate Sources --from-promisekit --to promise --in-place
          Every change and skip as JSON:
            vow-migrate Sources --to promise --report json > migration.json

        PATHS: symbolic links named on the command line are followed. Inside a directory, hidden \
        entries (.build, .git) are skipped, links to files and folders are followed once, and a \
        link cycle or a second path to the same file is skipped and reported. A named directory \
        without any .swift file is an error (exit 2), so a wrong path cannot pass --check.

        On a terminal, progress is shown on stderr; the summary ends with the lines per second.

        EXIT STATUS:
          0   success (with --check: nothing would change)
          1   --check: some file would change
          2   a named path is missing, not a .swift file, unreadable, or a directory without
              .swift files; nothing was done
          3   files left alone: they do not parse, are not valid UTF-8, could not be read, or
              (--in-place) could not be written, such as read-only files; the others were done
          64  invalid command-line usage
        """
    )

    @Argument(help: "Swift files or directories to migrate (directories are searched for .swift files, hidden entries skipped).")
    var paths: [String] = []

    @Option(help: "The form of the alternatives to generate: promise or async (optional with --from-promisekit).")
    var to: MigrationTarget?

    @Flag(help: "Convert each function itself instead of adding an alternative beside it.")
    var replace = false

    @Flag(name: .customLong("from-promisekit"),
          help: "Switch from PromiseKit to Vow: the import, and `.value` on evident promises to `.valueIfFulfilled`; report the uncertain ones.")
    var fromPromiseKit = false

    @Flag(help: "Print a unified diff of what would change, touching nothing (the default).")
    var diff = false

    @Flag(name: .customLong("in-place"),
          help: "Rewrite the files, each atomically (temporary file + rename), keeping owner, permissions, byte order mark and line endings.")
    var inPlace = false

    @Flag(help: "Change nothing; list the files that would change and exit 1 if there are any (for CI).")
    var check = false

    @Option(help: "Report format on stdout: text (diffs) or json (one document with every file's findings).")
    var report: ReportFormat = .text

    @Option(help: ArgumentHelp("Files processed at once (default: all cores).", visibility: .hidden))
    var jobs: Int?

    var mode: OutputMode {
        if inPlace { return .inPlace }
        if check { return .check }
        return .diff
    }

    func validate() throws {
        if paths.isEmpty {
            throw ValidationError("Name at least one Swift file or directory, e.g. `vow-migrate Sources --to promise`.")
        }
        let modes = [(diff, "--diff"), (inPlace, "--in-place"), (check, "--check")].filter(\.0).map(\.1)
        if modes.count > 1 {
            throw ValidationError("\(modes.joined(separator: " and ")) cannot be used together: --diff shows the changes, --in-place makes them, "
                + "--check only tells whether there are any (exit 1). Run --in-place to migrate, then --check in CI.")
        }
        if to == nil && !fromPromiseKit {
            throw ValidationError("Say what to do: `--to promise` or `--to async` to add alternatives, `--from-promisekit` to switch from PromiseKit to Vow, or both.")
        }
        if replace && to == nil {
            throw ValidationError("--replace converts functions to the form given by --to; add `--to promise` or `--to async`.")
        }
        if let jobs, jobs < 1 {
            throw ValidationError("--jobs must be 1 or more.")
        }
    }

    func run() throws {
        let standardError = FileHandle.standardError
        let discovery: SourceFiles.Discovery
        do {
            discovery = try SourceFiles.discover(paths)
        } catch {
            standardError.write(Data("vow-migrate: error: \(error)\n".utf8))
            throw ExitCode(ExitStatus.badPath)
        }

        let options = MigrationOptions(target: to, replace: replace, fromPromiseKit: fromPromiseKit)
        let migrationRun = MigrationRun(options: options, mode: mode, includeDiffs: mode == .diff,
                                        jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        let runProgress = RunProgress(totalFiles: discovery.files.count, totalBytes: discovery.totalBytes)
        let progress = ProgressLine(progress: runProgress)
        let json = report == .json ? JSONReportWriter(options: options, mode: mode) : nil
        var summary = RunSummary()
        summary.skippedPaths = discovery.skipped.count
        let clock = ContinuousClock.now

        if !discovery.skipped.isEmpty {
            let text = discovery.skipped.map { "\($0.path): \($0.missedFiles ? "error" : "note"): skipped: \($0.reason)\n" }.joined()
            standardError.write(Data(text.utf8))
        }
        json?.begin(skippedPaths: discovery.skipped)
        progress.start()
        migrationRun.run(discovery.files, progress: runProgress) { fileReport in
            summary.count(fileReport)
            if let json {
                json.add(fileReport)
                return
            }
            progress.whileCleared {
                printFindings(of: fileReport)
                if let diff = fileReport.diff {
                    FileHandle.standardOutput.write(Data(diff.utf8))
                } else if mode == .check && fileReport.changed {
                    FileHandle.standardOutput.write(Data("would change: \(fileReport.path)\n".utf8))
                }
            }
        }
        progress.stop()
        json?.end(summary)
        printSummary(summary, seconds: (ContinuousClock.now - clock).seconds)

        let missedFiles = discovery.skipped.contains(where: \.missedFiles)
        if summary.unparseableFiles > 0 || summary.failedFiles > 0 || missedFiles { throw ExitCode(ExitStatus.filesLeftAlone) }
        if mode == .check && summary.changedFiles > 0 { throw ExitCode(ExitStatus.wouldChange) }
    }

    private func printFindings(of report: FileReport) {
        var text = ""
        if let error = report.error {
            text += "\(report.path): error: \(error)\n"
        }
        for finding in report.findings {
            switch finding.kind {
            case .skipped where finding.function.isEmpty:
                text += "\(report.path):\(finding.line):\(finding.column): error: \(finding.message)\n"
            case .skipped:
                text += "\(report.path):\(finding.line):\(finding.column): skipped `\(finding.function)`: \(finding.message)\n"
            case .parseError:
                text += "\(report.path):\(finding.line):\(finding.column): error: \(finding.message)\n"
            case .review:
                text += "\(report.path):\(finding.line):\(finding.column): warning: `\(finding.function)` \(finding.message)\n"
            case .added, .replaced, .alreadyMigrated, .switched:
                continue
            }
        }
        if !text.isEmpty { FileHandle.standardError.write(Data(text.utf8)) }
    }

    private func printSummary(_ summary: RunSummary, seconds: Double) {
        var text = "vow-migrate: \(summary.files) file\(summary.files == 1 ? "" : "s"), \(summary.changedFiles) "
        switch mode {
        case .diff, .check: text += "would change"
        case .inPlace: text += "changed"
        }
        text += "; \(summary.added) alternative\(summary.added == 1 ? "" : "s") added, \(summary.replaced) replaced, "
        text += "\(summary.skipped) skipped, \(summary.alreadyMigrated) already migrated"
        if fromPromiseKit {
            text += "; \(summary.switched) PromiseKit spelling\(summary.switched == 1 ? "" : "s") switched, \(summary.toReview) to review"
        }
        if summary.unparseableFiles > 0 { text += "; \(summary.unparseableFiles) unparseable file(s) left alone" }
        if summary.failedFiles > 0 {
            text += mode == .inPlace
                ? "; \(summary.failedFiles) file(s) could not be read or written (left as they were)"
                : "; \(summary.failedFiles) file(s) could not be read"
        }
        if summary.skippedPaths > 0 { text += "; \(summary.skippedPaths) path(s) skipped (listed above)" }
        text += "; \(summary.lines) lines in \(Self.formatSeconds(seconds))"
        // A rate is meaningful once there is enough work to time.
        if seconds >= 0.05 && summary.lines > 0 {
            text += " (\(Int(Double(summary.lines) / seconds)) lines/s)"
        }
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static func formatSeconds(_ seconds: Double) -> String {
        String(format: "%.2fs", seconds)
    }
}

extension Duration {
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
