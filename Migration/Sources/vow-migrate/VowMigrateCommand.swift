import ArgumentParser
import Foundation
import VowMigrate
import VowMigrateDriver

extension MigrationTarget: ExpressibleByArgument {}
extension MigrationStage: ExpressibleByArgument {}
extension SwiftLanguageMode: ExpressibleByArgument {}
extension DefaultIsolation: ExpressibleByArgument {}
extension PublicAPI: ExpressibleByArgument {}

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
        several values (Data?, URLResponse?, Error?) as a labelled tuple, split success:/failure: \
        pairs, optional and defaulted handlers, typealiased handlers, handlers in any position, and \
        functions returning a cancellable handle. All named paths (and --context paths, read but \
        never rewritten) are indexed first, so a typealias, a handle's cancel() or an existing \
        async version in another file counts. Every such function is reported as added, replaced, \
        already migrated or skipped with a reason; --verbose also lists the functions with an \
        escaping closure that are not taken for completions. With --to async, each function \
        returning Promise<T> or Guarantee<T> gains an async alternative too (`async throws -> T`, \
        awaiting the promise); calls of it in async code that the alternative would take over are \
        spelled out first (`(load() as Promise)`), or the function is skipped with the reason.

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
        run; or run --stage declarations first and --stage call-sites later. With --to async the \
        stage also turns existing promise chains ending in .catch { } or .cauterize() (then, map, compactMap, get, \
        done, recover, ensure, finally, tap, asVoid, mapValues, filterValues, thenMap and the other \
        sequence helpers, firstly, when, race; handlers on the main queue, on: nil, or on a queue \
        of the app's, whose code still runs there) into `try await` inside \
        `Task { @MainActor in }` (`Task { }` where handlers say on: nil); a link \
        it does not know (ensureThen, the app's own) stays promise code, made at once as before. \
        With --replace a function returning Promise<T> or Guarantee<T> whose body the stage can \
        convert becomes `async throws -> T` (`async -> T`), on the main actor where its handlers \
        ran, converted leaves first over the whole tree; every caller in the tree follows: async \
        code awaits it, and code that still needs a promise (chains on it, returns it, passes it \
        to when) wraps the call in Promise.immediate { try await f() }, so the tree keeps \
        compiling. A function callers outside the tree could reach (public, open, a protocol \
        requirement), one that may return a promise it kept (shared by its callers), an ensure \
        on another queue and the app's own links are left alone, each reported with its reason.

        WORKFLOW:
          1. Look first: the default prints a unified diff and touches nothing.
               vow-migrate Sources --to async
          2. Rewrite when the diff looks right (each file atomically; owner,
             permissions, byte order mark and line endings kept; read-only files
             are left alone).
               vow-migrate Sources --to async --in-place
          3. Build, run your tests, commit. Move call sites over at your pace.
          4. Keep CI from regressing: --check exits 1 while anything is left to migrate.
               vow-migrate Sources --to async --check

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
          See a PromiseKit app taken to async/await, chains and functions:
            vow-migrate App --from-promisekit --to async --stage all --replace
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
          2   a named path is missing, not a .swift file, unreadable, or a directory
              without .swift files; nothing was done
          3   files left alone: they do not parse, are not valid UTF-8, could not be
              read, or (--in-place) could not be written, such as read-only files;
              the others were done
          64  invalid command-line usage
        """,
        version: "vow-migrate 0.9.0 (swift-syntax 603.0.1)"
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

    @Flag(name: .customLong("trust-stored-handlers"),
          help: "Add alternatives to functions that store their handler (`operation.completion = completion`) where it cannot be told how often it is called: the first answer wins; later ones are reported (promise: conf.diagnosticHandler) or printed (async, through a resume-once bridge, since a continuation resumed twice traps); an answer never given leaves the promise pending and the await waiting. The async form needs the file to import Foundation (the bridge locks with NSLock).")
    var trustStoredHandlers = false

    @Flag(help: "Print a unified diff of what would change, touching nothing (the default).")
    var diff = false

    @Flag(name: .customLong("in-place"),
          help: "Rewrite the files, each atomically (temporary file + rename), keeping owner, permissions, byte order mark and line endings.")
    var inPlace = false

    @Flag(help: "Change nothing; list the files that would change and exit 1 if there are any (for CI).")
    var check = false

    @Option(help: "Report format on stdout: text (diffs) or json (one document with every file's findings).")
    var report: ReportFormat = .text

    @Option(parsing: .upToNextOption,
            help: "Files or directories read for knowledge only (typealiases, handle types, existing async versions), never rewritten.")
    var context: [String] = []

    @Flag(help: "Also list the functions with an escaping closure that are not taken for completion-handler functions, and why.")
    var verbose = false

    @Option(name: .customLong("swift-version"), help: ArgumentHelp(
        "The language mode of files no Package.swift decides (an Xcode project, or a file outside every target): 5 or 6. "
            + "Without it, a file under an Xcode project takes the project's SWIFT_VERSION (Swift 5 mode when every SWIFT_VERSION "
            + "it sets is below 6), and any other file Swift 6. "
            + "A file in a package target gets its mode from the nearest Package.swift (swift-tools-version before 6.0 is Swift 5 mode; "
            + "swiftLanguageModes / swiftLanguageVersions; a target's .swiftLanguageMode(.v5)); this flag overrides none of that. "
            + "In Swift 5 mode a promise's value need not be Sendable, so no promise alternative is refused for it and none adds a Sendable requirement.",
        valueName: "5|6"))
    var swiftVersion: SwiftLanguageMode?

    @Option(name: .customLong("default-isolation"), help: ArgumentHelp(
        "The default actor isolation of files nothing else decides: nonisolated (Swift's default) or MainActor. "
            + "A file in a package target gets it from the nearest Package.swift (.defaultIsolation(MainActor.self)); "
            + "a file under an Xcode project is MainActor when the project sets SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor. "
            + "An async alternative of a function that is provably not isolated is nonisolated(nonsending), so the original is "
            + "called on the caller's actor as before; under MainActor the alternatives share their original's isolation instead.",
        valueName: "nonisolated|MainActor"))
    var defaultIsolation: DefaultIsolation?

    @Option(name: .customLong("public-api"), help: ArgumentHelp(
        "Whether callers outside the named paths may use the tree's public and open functions. auto (the default): "
            + "when the paths hold an app (a type marked @main, @UIApplicationMain or @NSApplicationMain that is a SwiftUI App or an "
            + "application delegate, or a UIApplicationMain call), every caller of its frameworks is taken to be in them, so --replace "
            + "converts public functions too and each such change says so; a file in a Swift package declaring a library product "
            + "stays API. keep: public functions never change, nor gain an alternative an outside caller could pick. change: the "
            + "paths hold every caller. Name the whole app when relying on auto or change.",
        valueName: "auto|keep|change"))
    var publicAPI: PublicAPI = .auto

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
        // Large files' buffers handed back to the system when freed (the peak memory target).
        AllocatorTuning.mapLargeBlocksApart()
        let standardError = FileHandle.standardError
        let discovery: SourceFiles.Discovery
        let contextDiscovery: SourceFiles.Discovery
        do {
            discovery = try SourceFiles.discover(paths)
            contextDiscovery = try SourceFiles.discover(context)
        } catch {
            standardError.write(Data("vow-migrate: error: \(error)\n".utf8))
            throw ExitCode(ExitStatus.badPath)
        }

        let fallbackMode = swiftVersion ?? .v6
        let options = MigrationOptions(target: to, replace: replace, fromPromiseKit: fromPromiseKit, stage: stage, languageMode: fallbackMode,
                                       trustStoredHandlers: trustStoredHandlers, publicAPI: publicAPI)
        var migrationRun = MigrationRun(options: options, mode: mode, includeDiffs: mode == .diff,
                                        jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        let contextPaths = contextDiscovery.paths.filter { !Set(discovery.paths).contains($0) }
        // Each file's language mode from its package manifest, each manifest read once; what a
        // manifest does not say as a literal is noted once and falls back.
        let languageModes = to == nil ? LanguageModes(fallback: fallbackMode)
            : LanguageModes(files: discovery.paths + contextPaths, fallback: fallbackMode, fallbackIsolation: defaultIsolation ?? .nonisolated,
                            readsProjectModes: swiftVersion == nil)
        migrationRun.languageModes = languageModes
        if !languageModes.notes.isEmpty {
            standardError.write(Data(languageModes.notes.map { $0 + "\n" }.joined().utf8))
        }
        // One file with no context and no PromiseKit switch: the run adds the file's own summary
        // from what it parses anyway, the same summary as an index pass would read (the same
        // whole-file tree, or for a file of 2 MB or more the same pieces, read by the first pass
        // of `ChunkedMigration`), so the file is not parsed a second time for it.
        let singleFile = discovery.files.count == 1 && contextPaths.isEmpty && !fromPromiseKit
        // Under 1 MB the second parse costs little, and an index of the run lets it decide which
        // callbacks handing their answer on may move into a task (``ForwardingFacts``).
        let decidesForwarding = to == .async && stage != .declarations && discovery.totalBytes < 1 << 20
        if to != nil && (!singleFile || decidesForwarding) {
            // Read through the same discovery (links followed, duplicates dropped) and decoding
            // (byte order mark, UTF-8 checked) as the files migrated.
            let migrated = Set(discovery.paths)
            migrationRun.index = MigrationIndex.build(files: discovery.paths,
                                                      context: contextDiscovery.paths.filter { !migrated.contains($0) },
                                                      jobs: migrationRun.jobs, reading: options.indexReading, languageModes: languageModes,
                                                      switchesFromPromiseKit: fromPromiseKit, publicAPI: publicAPI)
            migrationRun.index?.runDecidesForwarding = true
        }
        let runProgress = RunProgress(totalFiles: discovery.files.count, totalBytes: discovery.totalBytes)
        let progress = ProgressLine(progress: runProgress)
        let json = report == .json ? JSONReportWriter(options: options, mode: mode) : nil
        var summary = RunSummary()
        summary.skippedPaths = discovery.skipped.count + contextDiscovery.skipped.count
        // The async form adds no import: without Vow in the file, it uses only the standard library.
        summary.outputNeeds = options.target.map { $0 == .promise ? "Vow" : "Swift" }
        let clock = ContinuousClock.now

        let skipped = discovery.skipped + contextDiscovery.skipped
        if !skipped.isEmpty {
            let text = skipped.map { "\($0.path): \($0.missedFiles ? "error" : "note"): skipped: \($0.reason)\n" }.joined()
            standardError.write(Data(text.utf8))
        }
        json?.begin(skippedPaths: skipped)
        progress.start()
        migrationRun.run(discovery.files, progress: runProgress) { fileReport in
            var fileReport = fileReport
            summary.count(fileReport)
            if !verbose { fileReport.findings.removeAll { $0.kind == .rejected } }
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
            case .rejected:
                text += "\(report.path):\(finding.line):\(finding.column): not a completion handler `\(finding.function)`: \(finding.message)\n"
            case .callSiteRefused:
                text += "\(report.path):\(finding.line):\(finding.column): call site left alone in `\(finding.function)`: \(finding.message)\n"
                for line in finding.detail?.split(separator: "\n") ?? [] { text += "    \(line)\n" }
            case .callSiteConverted where finding.message.contains("Task") || finding.message.contains("main actor"):
                text += "\(report.path):\(finding.line):\(finding.column): note: \(finding.message)\n"
            case .added, .replaced, .alreadyMigrated, .switched, .callSiteConverted:
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
        switch to {
        case .promise?:
            let files = "\(summary.vowImportsAdded) file\(summary.vowImportsAdded == 1 ? "" : "s")"
            text += "; --to promise output needs Vow (import Vow \(mode == .inPlace ? "added" : "would be added") to \(files))"
        case .async?:
            text += "; --to async output needs only Swift"
        case nil:
            break
        }
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
        if to == .promise && summary.callbackShapeRefusals > 0 {
            let count = summary.callbackShapeRefusals
            text += "\nvow-migrate: note: \(count) call site\(count == 1 ? " was" : "s were") left alone for the shape of the callback's own code "
                + "(a `guard`, code before the error check, an answer it gives meaning to...), which a promise chain's handlers cannot hold "
                + "as written; --to async keeps such code as it is, after constants holding what the callback received"
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
