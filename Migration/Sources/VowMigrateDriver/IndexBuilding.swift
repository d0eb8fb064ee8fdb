import Foundation
import VowMigrate

extension MigrationIndex {
    /// Reads every file of the run and every `--context` file into one index, in batches on all
    /// cores, before anything is rewritten. Only summaries are kept, so memory follows the number
    /// of declarations, not the size of the tree. A file that cannot be read or is not UTF-8 adds
    /// nothing here (read with ``SourceText``, as the run reads it); the run reports it when it gets to it.
    /// `reading` says which completion-handler functions are read in full (``MigrationOptions/indexReading``);
    /// `languageModes` gives each file's mode (Swift 6 for all when nil).
    public static func build(files: [String], context: [String], jobs: Int, batchSize: Int = 64,
                             reading: FunctionReading = .all, languageModes: LanguageModes? = nil,
                             switchesFromPromiseKit: Bool = false, publicAPI: PublicAPI = .keep) -> MigrationIndex {
        let all = files.map { ($0, false) } + context.map { ($0, true) }
        var summaries: [FileSummary] = []
        summaries.reserveCapacity(all.count)
        var start = 0
        while start < all.count {
            let batch = Array(all[start..<min(start + batchSize, all.count)])
            let slots = BatchSlots<FileSummary>(count: batch.count)
            let summarize: @Sendable (Int) -> Void = { position in
                let (path, isContext) = batch[position]
                // Decoded as the run decodes it (a byte order mark dropped, invalid UTF-8 refused).
                guard let data = FileManager.default.contents(atPath: path),
                      let source = try? SourceText(decoding: [UInt8](data)) else { return }
                let mode = languageModes?.mode(of: path) ?? .v6
                var summary = MigrationIndex.summarize(source: source.text, fileName: path, isContext: isContext, languageMode: mode,
                                                       readsForReplace: reading == .all, readsUncalledNames: reading != .handOffTargets)
                summary.defaultIsolation = languageModes?.defaultIsolation(of: path) ?? .nonisolated
                summary.inLibraryPackage = languageModes?.isInLibraryPackage(path) ?? false
                slots.store(summary, at: position)
            }
            if jobs == 1 {
                for position in batch.indices { summarize(position) }
            } else {
                DispatchQueue.concurrentPerform(iterations: batch.count, execute: summarize)
            }
            summaries.append(contentsOf: slots.stored)
            start += batch.count
        }
        // Every file of the run is in it, so nothing is joined later: the summaries are not kept.
        return MigrationIndex(summaries: summaries, keepsSummaries: false, reading: reading, switchesFromPromiseKit: switchesFromPromiseKit,
                              publicAPI: publicAPI)
    }
}
