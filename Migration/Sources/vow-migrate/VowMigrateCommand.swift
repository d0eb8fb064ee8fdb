import ArgumentParser
import Foundation
import VowMigrate
import VowMigrateDriver

extension MigrationTarget: ExpressibleByArgument {}
extension MigrationStage: ExpressibleByArgument {}

enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
}

extension OutputMode: EnumerableFlag {
    public static func name(for value: OutputMode) -> NameSpecification {
        switch value {
        case .diff: return .customLong("diff")
        case .inPlace: return .customLong("in-place")
        case .check: return .customLong("check")
        }
    }

    public static func help(for value: OutputMode) -> ArgumentHelp? {
        switch value {
        case .diff: return "Print a unified diff of what would change, touching nothing (the default)."
        case .inPlace: return "Rewrite the files in place, each atomically (temporary file + rename)."
        case .check: return "Change nothing; exit 1 if any file would change (for CI)."
        }
    }
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
        several values (Data?, URLResponse?, Error?) as a labelled tuple, split success:/failure: \
        pairs, optional and defaulted handlers, typealiased handlers, handlers in any position, and \
        functions returning a cancellable handle. All named paths (and --context paths, read but \
        never rewritten) are indexed first, so a typealias, a handle's cancel() or an existing \
        async version in another file counts. Every such function is reported as added, replaced, \
        already migrated or skipped with a reason; --verbose also lists the functions with an \
        escaping closure that are not taken for completions.

        With --from-promisekit it switches files from PromiseKit to Vow: `import PromiseKit` becomes \
        `import Vow`, and PromiseKit's synchronous `.value` becomes `.valueIfFulfilled` where the \
        file shows the base is a promise (Vow's `value` is async). Other `.value` reads that could \
        be a promise are reported as warnings, not changed; PromiseKit extension modules \
        (`import PMKFoundation`) are reported, not removed. Given --to as well, it switches first \
        and then adds the alternatives.

        CALL SITES: --stage call-sites rewrites the code that calls completion-handler functions \
        which have an alternative: a pyramid of nested callbacks becomes one flat chain \
        (firstly { }.then(on: nil) { }.done(on: nil) { }.catch(on: nil, policy: .allErrors) { }) with \
        --to promise, or straight-line `try await` with --to async (inside a new `Task { }` in a \
        synchronous function, reported). Handlers keep running where the callbacks ran (on: nil), \
        a `DispatchQueue.main.async { }` body becomes on: .mainActor / MainActor.run. What would \
        change behaviour (early returns, guard, loops, `default:` on a Result, `(nil, nil)` or \
        `(false, nil)` answers, code after the pyramid in async form...) is left alone and reported \
        with file:line:column and the reason. --stage all does declarations and call sites in one \
        run; or run --stage declarations first and --stage call-sites later.

        EXAMPLES:
          Show the diff for a whole tree:
            vow-migrate Sources --to promise
          Rewrite one file, adding async alternatives:
            vow-migrate Sources/Api.swift --to async --in-place
          Add alternatives and flatten the pyramids calling them, in one run:
            vow-migrate Sources --to promise --stage all --in-place
          Later, flatten call sites onto alternatives that already exist:
            vow-migrate Sources/Screens --to async --stage call-sites
          In CI, fail while anything is left to migrate:
            vow-migrate Sources --to async --check
          Move a tree from PromiseKit to Vow:
            vow-migrate Sources --from-promisekit --in-place
          Move from PromiseKit and add promise alternatives in one go:
            vow-migrate Sources --from-promisekit --to promise --in-place
          Every change and skip as JSON:
            vow-migrate Sources --to promise --report json > migration.json

        EXIT STATUS:
          0   success (with --check: nothing would change)
          1   --check: some file would change
          2   a named path is missing, not a .swift file or unreadable; nothing done
          3   files left alone: they do not parse, or could not be read or written
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

    @Option(help: ArgumentHelp(
        "What to migrate: declarations (add alternatives; the default), call-sites (flatten the code calling functions that have alternatives), or all (both in one run).",
        valueName: "declarations|call-sites|all"))
    var stage: MigrationStage = .declarations

    @Flag var mode: OutputMode = .diff

    @Option(help: "Report format on stdout: text (diffs) or json (one document with every file's findings).")
    var report: ReportFormat = .text

    @Option(parsing: .upToNextOption,
            help: "Files or directories read for knowledge only (typealiases, handle types, existing async versions), never rewritten.")
    var context: [String] = []

    @Flag(help: "Also list the functions with an escaping closure that are not taken for completion-handler functions, and why.")
    var verbose = false

    @Option(help: ArgumentHelp("Files processed at once (default: all cores).", visibility: .hidden))
    var jobs: Int?

    func validate() throws {
        if paths.isEmpty {
            throw ValidationError("Name at least one Swift file or directory, e.g. `vow-migrate Sources --to promise`.")
        }
        if to == nil && !fromPromiseKit {
            throw ValidationError("Say what to do: `--to promise` or `--to async` to add alternatives, `--from-promisekit` to switch from PromiseKit to Vow, or both.")
        }
        if stage != .declarations && to == nil {
            throw ValidationError("--stage \(stage.rawValue) converts call sites to the form given by --to; add `--to promise` or `--to async`.")
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
        let files: [String]
        let contextFiles: [String]
        do {
            files = try SourceFiles.collect(paths)
            contextFiles = try SourceFiles.collect(context).filter { !files.contains($0) }
        } catch {
            standardError.write(Data("vow-migrate: error: \(error)\n".utf8))
            throw ExitCode(ExitStatus.badPath)
        }

        let options = MigrationOptions(target: to, replace: replace, fromPromiseKit: fromPromiseKit, stage: stage)
        var migrationRun = MigrationRun(options: options, mode: mode, includeDiffs: mode == .diff,
                                        jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        if to != nil {
            migrationRun.index = MigrationIndex.build(files: files, context: contextFiles, jobs: migrationRun.jobs)
        }
        let progress = ProgressLine(total: files.count)
        let json = report == .json ? JSONReportWriter(options: options, mode: mode) : nil
        var summary = RunSummary()
        let clock = ContinuousClock.now

        json?.begin()
        migrationRun.run(files) { fileReport in
            var fileReport = fileReport
            summary.count(fileReport)
            if !verbose { fileReport.findings.removeAll { $0.kind == .rejected } }
            progress.advance()
            if let json {
                json.add(fileReport)
                return
            }
            progress.clear()
            printFindings(of: fileReport)
            if let diff = fileReport.diff {
                FileHandle.standardOutput.write(Data(diff.utf8))
            } else if mode == .check && fileReport.changed {
                print("would change: \(fileReport.path)")
            }
        }
        progress.clear()
        json?.end(summary)
        printSummary(summary, seconds: (ContinuousClock.now - clock).seconds)

        if summary.unparseableFiles > 0 || summary.failedFiles > 0 { throw ExitCode(ExitStatus.filesLeftAlone) }
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
            case .rejected:
                text += "\(report.path):\(finding.line):\(finding.column): not a completion handler `\(finding.function)`: \(finding.message)\n"
            case .callSiteRefused:
                text += "\(report.path):\(finding.line):\(finding.column): call site left alone in `\(finding.function)`: \(finding.message)\n"
            case .callSiteConverted where finding.message.contains("Task"):
                text += "\(report.path):\(finding.line):\(finding.column): note: \(finding.message)\n"
            case .added, .replaced, .alreadyMigrated, .switched, .callSiteConverted:
                continue
            }
        }
        if !text.isEmpty { FileHandle.standardError.write(Data(text.utf8)) }
    }

    private func printSummary(_ summary: RunSummary, seconds: Double) {
        let rate = seconds > 0 ? Int(Double(summary.lines) / seconds) : 0
        var text = "vow-migrate: \(summary.files) file\(summary.files == 1 ? "" : "s"), \(summary.changedFiles) "
        switch mode {
        case .diff, .check: text += "would change"
        case .inPlace: text += "changed"
        }
        text += "; \(summary.candidates) candidate\(summary.candidates == 1 ? "" : "s"): "
        text += "\(summary.added) alternative\(summary.added == 1 ? "" : "s") added, \(summary.replaced) replaced, "
        text += "\(summary.skipped) skipped, \(summary.alreadyMigrated) already migrated"
        if verbose { text += "; \(summary.rejected) not taken for completions" }
        if stage != .declarations {
            text += "; \(summary.callSitesConverted) call site\(summary.callSitesConverted == 1 ? "" : "s") converted, \(summary.callSitesRefused) left alone"
            let reasons = summary.refusalReasons.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
            if !reasons.isEmpty {
                text += " (" + reasons.map { "\($0.value) \($0.key)" }.joined(separator: "; ") + ")"
            }
        }
        if fromPromiseKit {
            text += "; \(summary.switched) PromiseKit spelling\(summary.switched == 1 ? "" : "s") switched, \(summary.toReview) to review"
        }
        if summary.unparseableFiles > 0 { text += "; \(summary.unparseableFiles) unparseable file(s) left alone" }
        if summary.failedFiles > 0 { text += "; \(summary.failedFiles) file(s) could not be read or written" }
        text += String(format: "; %d lines in %.2fs (%d lines/s)\n", summary.lines, seconds, rate)
        FileHandle.standardError.write(Data(text.utf8))
    }
}

extension Duration {
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
