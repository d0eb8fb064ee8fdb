import Foundation
import VowMigrate
import VowMigrateDriver

/// Streams the JSON report file by file, so a large tree's report never sits in memory whole:
/// `{"fromPromiseKit":…,"mode":…,"replace":…,"target":…,"version":1,"skippedPaths":[…],"files":[…],"summary":{…}}`
/// (`target` is `null` for a `--from-promisekit` run that adds no alternatives).
final class JSONReportWriter {
    private let encoder: JSONEncoder
    private let header: String
    private var first = true

    init(options: MigrationOptions, mode: OutputMode) {
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let modeName = switch mode {
        case .diff: "diff"
        case .inPlace: "in-place"
        case .check: "check"
        }
        let target = options.target.map { "\"\($0.rawValue)\"" } ?? "null"
        header = "{\"fromPromiseKit\":\(options.fromPromiseKit),\"mode\":\"\(modeName)\",\"replace\":\(options.replace),"
            + "\"target\":\(target),\"version\":1,"
    }

    /// Starts the document; `skippedPaths` are the paths inside the named directories that were
    /// not migrated (link cycles, duplicates, broken links, unreadable folders), with why.
    func begin(skippedPaths: [SourceFiles.SkippedPath]) {
        let skipped = (try? encoder.encode(skippedPaths)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        write(header + "\"skippedPaths\":" + skipped + ",\"files\":[")
    }

    func add(_ report: FileReport) {
        guard let data = try? encoder.encode(report) else { return }
        write((first ? "\n" : ",\n") + String(decoding: data, as: UTF8.self))
        first = false
    }

    func end(_ summary: RunSummary) {
        let data = (try? encoder.encode(summary)) ?? Data("{}".utf8)
        write("\n],\"summary\":" + String(decoding: data, as: UTF8.self) + "}\n")
    }

    private func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
