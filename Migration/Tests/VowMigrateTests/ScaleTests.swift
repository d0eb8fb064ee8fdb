import SwiftParser
@testable import VowMigrate
import XCTest

/// A large file is read in pieces (`ChunkedMigration`), so memory follows the piece, not the
/// file. These tests cut small inputs into tiny pieces and hold the result to the whole-file
/// path: the same output, byte for byte, and the same findings. (Throughput and peak memory are
/// measured by `Scripts/measure-throughput.sh`, not asserted here.)
final class ScaleTests: XCTestCase {
    private func assertSameAsWholeFile(_ source: String, _ target: MigrationTarget, stage: MigrationStage = .declarations, pieceSize: Int,
                                       _ label: String = "", file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let options = MigrationOptions(target: target, stage: stage)
        let whole = SourceMigrator.migrate(source: source, fileName: "F.swift", options: options)
        guard let pieces = ChunkedMigration.migrate(source: source, fileName: "F.swift", options: options, target: target,
                                                    progress: nil, pieceSize: pieceSize) else { return false }
        XCTAssertEqual(pieces.output, whole.output, label, file: file, line: line)
        XCTAssertEqual(pieces.findings, whole.findings, label, file: file, line: line)
        XCTAssertEqual(pieces.changed, whole.changed, label, file: file, line: line)
        // As the command line runs it: with the whole-tree index, which already holds the file.
        let index = MigrationIndex(summaries: [MigrationIndex.summarize(source: source, fileName: "F.swift")])
        let indexedWhole = SourceMigrator.migrate(source: source, fileName: "F.swift", options: options, index: index)
        guard let indexedPieces = ChunkedMigration.migrate(source: source, fileName: "F.swift", options: options, target: target,
                                                           index: index, progress: nil, pieceSize: pieceSize) else {
            XCTFail("read whole with an index, but in pieces without one " + label, file: file, line: line)
            return false
        }
        XCTAssertEqual(indexedPieces.output, indexedWhole.output, label, file: file, line: line)
        XCTAssertEqual(indexedPieces.findings, indexedWhole.findings, label, file: file, line: line)
        XCTAssertEqual(indexedWhole.output, whole.output, label, file: file, line: line)
        // The index pass reads a large file in pieces too; the whole-file path gives the same with it.
        if let summary = ChunkedMigration.summarize(source: source, fileName: "F.swift", isContext: false, pieceSize: pieceSize) {
            let piecesIndexed = SourceMigrator.migrate(source: source, fileName: "F.swift", options: options,
                                                       index: MigrationIndex(summaries: [summary]))
            XCTAssertEqual(piecesIndexed.output, whole.output, label, file: file, line: line)
            XCTAssertEqual(piecesIndexed.findings, whole.findings, label, file: file, line: line)
        } else {
            XCTFail("migrated in pieces, but not summarized in pieces " + label, file: file, line: line)
        }
        return true
    }

    /// A file whose pieces depend on each other: a typealias, a `Sendable` type, a cancellable
    /// handle type and an existing alternative each declared in one piece and needed in another;
    /// a bare `Result` in a piece with nothing to migrate; comments and strings with braces and
    /// blank lines that must not be cut.
    private var interdependentFile: String {
        var text = """
        // Header comment.
        import Foundation

        typealias Loaded = (Result<Int, Error>) -> Void

        final class Service: @unchecked Sendable {
            private var cache: [Int: Int] = [:]

            func fetch(id: Int, completion: @escaping @Sendable Loaded) {
                completion(.success(id))
            }

        """
        for index in 0..<12 {
            text += """
                /// Loads record \(index); a { brace } in a comment.
                func load\(index)(id: Int, completion: @escaping @Sendable (Record?, Error?) -> Void) {
                    let note = \"\"\"
                    a multi-line string { with braces

                    and a blank line \\(id + 1)
                    \"\"\"
                    _ = note
                    completion(Record(id: id), nil)
                }

                func start\(index)(completion: @escaping @Sendable (Error?) -> Void) -> Download {
                    completion(nil)
                    return Download()
                }

                func keep\(index)(_ value: Result<Int, Error>) -> Int {
                    (try? value.get()) ?? 0
                }


            """
        }
        text += """
            func ping(completion: @escaping @Sendable (Error?) -> Void) {
                completion(nil)
            }

            func ping() -> Promise<Void> {
                Promise { seal in ping { seal.resolve($0) } }
            }

            func pong(completion: @escaping @Sendable (Error?) -> Void) {
                completion(nil)
            }

            func pong() -> Int { 1 }
        }

        struct Record: Sendable {
            let id: Int
        }

        final class Download: Sendable {
            func cancel() {}
        }

        """
        return text
    }

    func testPiecesGiveTheSameOutputAndFindingsAsTheWholeFile() {
        let source = interdependentFile
        for target in MigrationTarget.allCases {
            for pieceSize in [400, 2_500] {
                for stage in [MigrationStage.declarations, .all] {
                    XCTAssertTrue(assertSameAsWholeFile(source, target, stage: stage, pieceSize: pieceSize),
                                  "\(target) \(stage) in pieces of \(pieceSize) was not cut")
                }
            }
        }
        // Without blank lines between members, cuts fall after a member's closing brace.
        var dense = source
        while dense.contains("\n\n") { dense = dense.replacingOccurrences(of: "\n\n", with: "\n") }
        XCTAssertTrue(assertSameAsWholeFile(dense, .promise, pieceSize: 1_500), "a file without blank lines was not cut")
        let whole = SourceMigrator.migrate(source: source, fileName: "F.swift", options: .init(target: .promise))
        XCTAssertTrue(whole.findings.contains { $0.kind == .alreadyMigrated && $0.function == "ping(completion:)" })
        XCTAssertTrue(whole.findings.contains { $0.kind == .skipped && $0.function == "pong(completion:)" })
        XCTAssertTrue(whole.output.contains("func fetch(id: Int) -> Promise<Int>"), "the typealias from the first piece is known")
        XCTAssertTrue(whole.output.contains("func start11(cancellation token: CancellationToken? = nil) -> Promise<Void>"),
                      "the cancellable type from the last piece is known")
        XCTAssertTrue(whole.output.contains("func keep11(_ value: Swift.Result<Int, Error>) -> Int"), whole.output)
    }

    func testEveryFixtureCutInTinyPiecesMatchesTheWholeFile() throws {
        var cut = 0
        for name in TestSupport.alternativeFixtureNames where !TestSupport.isReplaceFixture(name) {
            let input = try TestSupport.fixture(name, "input.swift")
            for target in MigrationTarget.allCases where assertSameAsWholeFile(input, target, pieceSize: 40, "\(name) \(target)") {
                cut += 1
                // The call-site stage too, after the declarations of every piece.
                XCTAssertTrue(assertSameAsWholeFile(input, target, stage: .all, pieceSize: 40, "\(name) \(target) --stage all"))
            }
        }
        XCTAssertGreaterThanOrEqual(cut, 80, "most fixtures have more than one top-level declaration, or a type with blank lines between members")
    }

    func testCutsFallBetweenMembersOnlyAndEveryMaskedPieceParses() throws {
        let bytes = Array(interdependentFile.utf8)
        let chunks = try XCTUnwrap(SourceChunks.plan(bytes, targetSize: 400))
        XCTAssertGreaterThan(chunks.count, 5)
        XCTAssertEqual(chunks.first?.owned.lowerBound, 0)
        XCTAssertEqual(chunks.last?.owned.upperBound, bytes.count)
        for (previous, next) in zip(chunks, chunks.dropFirst()) {
            XCTAssertEqual(previous.owned.upperBound, next.owned.lowerBound, "the pieces tile the file")
        }
        for chunk in chunks {
            let masked = chunk.masked(bytes, wholeFile: true)
            XCTAssertEqual(masked.utf8.count, bytes.count, "offsets are kept")
            XCTAssertFalse(Parser.parse(source: masked).hasError, masked)
            // Cut after what it owns (its type's closing brace moved up behind it), the piece
            // keeps every offset up to there.
            let short = chunk.masked(bytes, wholeFile: false)
            XCTAssertLessThanOrEqual(short.utf8.count, masked.utf8.count)
            XCTAssertTrue(masked.utf8.starts(with: short.utf8.prefix(chunk.owned.upperBound)))
            XCTAssertFalse(Parser.parse(source: short).hasError, short)
            // The text the output check parses: the readable ranges alone, edited.
            let visibleText = try XCTUnwrap(chunk.editedVisibleText(bytes, edits: []))
            XCTAssertFalse(Parser.parse(source: visibleText).hasError, visibleText)
            let inserted = TextEdit(offset: chunk.owned.lowerBound, removing: 0, text: "// added\n")
            XCTAssertEqual(chunk.editedVisibleText(bytes, edits: [inserted])?.contains("// added\n"), true)
            let crossing = TextEdit(offset: chunk.owned.upperBound - 1, removing: 2, text: "")
            XCTAssertNil(chunk.editedVisibleText(bytes, edits: [crossing]), "an edit past its range")
            // A cut is at the start of a line after a blank one, never inside the string literal.
            let start = chunk.owned.lowerBound
            if start > 0 {
                XCTAssertEqual(bytes[start - 1], UInt8(ascii: "\n"))
                let before = String(decoding: bytes[..<start], as: UTF8.self)
                XCTAssertEqual(before.components(separatedBy: "\"\"\"").count % 2, 1, "cut inside a string literal")
            }
        }
    }

    func testAFileThatCannotBeCutIsReadWhole() {
        // A protocol is never cut: its alternatives go into one extension after it.
        let requirements = (0..<50).map { "    func f\($0)(completion: @escaping @Sendable (Error?) -> Void)\n\n" }.joined()
        XCTAssertNil(SourceChunks.plan(Array("protocol Api {\n\(requirements)}\n".utf8), targetSize: 100))
        XCTAssertNil(SourceChunks.plan(Array("protocol Api: class {\n\(requirements)}\n".utf8), targetSize: 100))
        // Nor one function, however long: its statements are read together.
        let statements = (0..<50).map { "    let value\($0) = \($0)\n\n    _ = value\($0)\n" }.joined()
        XCTAssertNil(SourceChunks.plan(Array("func huge(completion: @escaping (Error?) -> Void) {\n\(statements)    completion(nil)\n}\n".utf8),
                                       targetSize: 100))
        // Nor a `#if` block.
        let classes = (0..<50).map { "final class C\($0) {\n    func f() {}\n}\n\n" }.joined()
        XCTAssertNil(SourceChunks.plan(Array("#if DEBUG\n\(classes)#endif\n".utf8), targetSize: 100))
        // Two functions of one name in two pieces (an overload, a requirement and its default
        // implementation) are compared by the whole-file read.
        let overloads = (0..<50).map { "func f(_ value\($0): Int, completion: @escaping @Sendable (Error?) -> Void) {\n    completion(nil)\n}\n\n" }
        XCTAssertNotNil(SourceChunks.plan(Array(overloads.joined().utf8), targetSize: 100))
        XCTAssertNil(ChunkedMigration.migrate(source: overloads.joined(), fileName: "F.swift", options: .init(target: .promise), target: .promise,
                                              progress: nil, pieceSize: 100))
    }

    // MARK: - Files of many top-level declarations

    /// Generated code's shape (API clients, GraphQL, protobuf): many top-level types, extensions
    /// and free functions, cut between them.
    private var manyTopLevelDeclarations: String {
        var text = """
        // Generated.
        import Foundation

        // Calls functions declared further down, in other pieces.
        func warmUp() {
            fetchModel19 { result in
                switch result {
                case .failure(let error): print(error)
                case .success(let model): print(model.id)
                }
            }
        }

        """
        for index in 0..<20 {
            text += """

            /// Type \(index); a { brace } in a comment.
            final class Client\(index): @unchecked Sendable {
                func load(id: Int, completion: @escaping @Sendable (Result<Int, Error>) -> Void) {
                    completion(.success(id + \(index)))
                }

                func delete(id: Int, completion: @escaping @Sendable (Error?) -> Void) {
                    let note = \"\"\"
                    a string { with braces

                    \"\"\"
                    _ = note
                    completion(nil)
                }
            }
            extension Client\(index) {
                func reload(completion: @escaping @Sendable (Result<Int, Error>) -> Void) {
                    load(id: \(index)) { completion($0) }
                }
            }
            func makeClient\(index)(completion: @escaping @Sendable (Client\(index)?, Error?) -> Void) {

                completion(Client\(index)(), nil)
            }
            struct Model\(index): Sendable { let id: Int }
            func fetchModel\(index)(completion: @escaping @Sendable (Result<Model\(index), Error>) -> Void) {
                completion(.success(Model\(index)(id: \(index))))
            }
            protocol Api\(index): class {
                func ping(completion: @escaping @Sendable (Error?) -> Void)

                func pong(completion: @escaping @Sendable (Error?) -> Void)
            }

            """
        }
        return text
    }

    func testAFileOfManyTopLevelDeclarationsIsCutBetweenThemWithTheSameOutput() throws {
        let source = manyTopLevelDeclarations
        let bytes = Array(source.utf8)
        let chunks = try XCTUnwrap(SourceChunks.plan(bytes, targetSize: 300))
        XCTAssertGreaterThan(chunks.count, 20)
        for chunk in chunks {
            XCTAssertFalse(Parser.parse(source: chunk.masked(bytes, wholeFile: false)).hasError)
            // Never inside a function or a protocol: each piece starts with a declaration, its
            // comment or a member.
            let start = chunk.owned.lowerBound
            if start > 0 {
                let line = String(decoding: bytes[start...].prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
                XCTAssertFalse(line.hasPrefix("        "), line)
                XCTAssertFalse(line.contains("pong") || line.contains("completion(Client"), line)
            }
        }
        for target in MigrationTarget.allCases {
            for stage in [MigrationStage.declarations, .all] {
                for pieceSize in [40, 300, 2_000] {
                    XCTAssertTrue(assertSameAsWholeFile(source, target, stage: stage, pieceSize: pieceSize),
                                  "\(target) \(stage) in pieces of \(pieceSize) was not cut")
                }
            }
            let whole = SourceMigrator.migrate(source: source, fileName: "F.swift", options: .init(target: target, stage: .all))
            XCTAssertEqual(whole.findings.filter { $0.kind == .added }.count, 20 * 7)
            XCTAssertEqual(whole.findings.filter { $0.kind == .callSiteConverted }.map(\.line), [6], "\(target)")
        }
    }

    // MARK: - The index a run builds

    /// A run builds its index without keeping the summaries, and for the declaration stage reads
    /// only the functions a handler is handed to: every fixture, and the multi-file tree, migrate
    /// exactly as with the full index.
    func testTheLeanIndexOfARunMigratesEveryFixtureAsTheFullIndex() throws {
        var files: [(String, String)] = []
        for name in TestSupport.alternativeFixtureNames {
            files.append(("\(name)/input.swift", try TestSupport.fixture(name, "input.swift")))
        }
        let tree = TestSupport.fixturesDirectory.appendingPathComponent("tree-index")
        for file in TestSupport.swiftFiles(in: tree.appendingPathComponent("Sources")) {
            files.append(("tree-index/" + file.lastPathComponent, try String(contentsOf: file, encoding: .utf8)))
        }
        let summaries = files.map { MigrationIndex.summarize(source: $1, fileName: $0) }
        let full = MigrationIndex(summaries: summaries)
        for options in [MigrationOptions(target: .promise), MigrationOptions(target: .async),
                        MigrationOptions(target: .async, replace: true), MigrationOptions(target: .promise, stage: .all),
                        MigrationOptions(target: .async, stage: .all)] {
            let lean = MigrationIndex(summaries: summaries, keepsSummaries: false, reading: options.indexReading)
            XCTAssertEqual(lean.reading, options.replace ? .all : options.stage == .declarations ? .handOffTargets : .calledOrHandedOff)
            for (name, source) in files {
                let expected = SourceMigrator.migrate(source: source, fileName: name, options: options, index: full)
                let actual = SourceMigrator.migrate(source: source, fileName: name, options: options, index: lean)
                XCTAssertEqual(actual.output, expected.output, "\(name) \(options)")
                XCTAssertEqual(actual.findings, expected.findings, "\(name) \(options)")
            }
        }
    }

    func testTheLeanIndexReadsTheFunctionsAHandlerIsHandedToWithTheirVerdicts() {
        let source = """
        final class S {
            func twice(completion: @escaping (Error?) -> Void) {
                completion(nil)
                completion(nil)
            }
            func forward(completion: @escaping (Error?) -> Void) {
                twice(completion: completion)
            }
            func again(completion: @escaping (Error?) -> Void) {
                forward(completion: completion)
            }
            func once(completion: @escaping (Error?) -> Void) {
                completion(nil)
            }
        }
        """
        let summary = MigrationIndex.summarize(source: source, fileName: "S.swift")
        let full = MigrationIndex(summaries: [summary])
        let lean = MigrationIndex(summaries: [summary], keepsSummaries: false, reading: .handOffTargets)
        for name in ["twice", "forward"] {
            XCTAssertEqual(lean.completionFunctions(baseName: name), full.completionFunctions(baseName: name), name)
            XCTAssertEqual(lean.completionFunctions(baseName: name).count, 1, name)
        }
        XCTAssertEqual(lean.completionFunctions(baseName: "forward").first?.handlerCalls,
                       .mayRepeat(.init(file: "S.swift", line: 7, column: 27)))
        // Nothing hands a handler to these: not read.
        XCTAssertEqual(lean.completionFunctions(baseName: "again"), [])
        XCTAssertEqual(lean.completionFunctions(baseName: "once"), [])
        XCTAssertEqual(full.completionFunctions(baseName: "once").count, 1)
        let options = MigrationOptions(target: .promise)
        let expected = SourceMigrator.migrate(source: source, fileName: "S.swift", options: options, index: full)
        let actual = SourceMigrator.migrate(source: source, fileName: "S.swift", options: options, index: lean)
        XCTAssertEqual(actual.output, expected.output)
        XCTAssertEqual(actual.findings, expected.findings)
        XCTAssertEqual(actual.findings.filter { $0.kind == .skipped }.map(\.function), ["twice(completion:)", "forward(completion:)", "again(completion:)"])
    }

    /// The call-site stage looks a callee up by the base name of a call it reads: its index reads
    /// the functions some call names (a closure held in a variable of that name counts) or a
    /// handler is handed to, and no other.
    func testTheCallSiteIndexReadsTheFunctionsACallNamesAndNoOther() {
        let source = """
        final class S {
            func load(completion: @escaping (Error?) -> Void) {
                completion(nil)
            }
            func save(completion: @escaping (Error?) -> Void) {
                store(completion: completion)
            }
            func store(completion: @escaping (Error?) -> Void) {
                completion(nil)
            }
            func unused(completion: @escaping (Error?) -> Void) {
                completion(nil)
            }
            func shadowed(completion: @escaping (Error?) -> Void) {
                completion(nil)
            }
            func start(shadowed: () -> Void) {
                load { _ in }
                shadowed()
            }
        }
        """
        let summary = MigrationIndex.summarize(source: source, fileName: "S.swift")
        let full = MigrationIndex(summaries: [summary])
        let options = MigrationOptions(target: .async, stage: .all)
        let lean = MigrationIndex(summaries: [summary], keepsSummaries: false, reading: options.indexReading)
        for name in ["load", "store", "shadowed"] {
            XCTAssertEqual(lean.completionFunctions(baseName: name), full.completionFunctions(baseName: name), name)
            XCTAssertEqual(lean.completionFunctions(baseName: name).count, 1, name)
        }
        XCTAssertEqual(lean.completionFunctions(baseName: "save"), [])
        XCTAssertEqual(lean.completionFunctions(baseName: "unused"), [])
        let expected = SourceMigrator.migrate(source: source, fileName: "S.swift", options: options, index: full)
        let actual = SourceMigrator.migrate(source: source, fileName: "S.swift", options: options, index: lean)
        XCTAssertEqual(actual.output, expected.output)
        XCTAssertEqual(actual.findings, expected.findings)
    }

    /// An index built without its summaries joins a file it was not built from to what it has.
    func testALeanIndexJoinsAFileItWasNotBuiltFrom() {
        let types = """
        typealias Loaded = (Result<Int, Error>) -> Void

        final class Download: Sendable {
            func cancel() {}
        }
        """
        let service = """
        final class Service {
            func fetch(id: Int, completion: @escaping @Sendable Loaded) {
                completion(.success(id))
            }
            func start(completion: @escaping @Sendable (Error?) -> Void) -> Download {
                completion(nil)
                return Download()
            }
        }
        """
        let typesSummary = MigrationIndex.summarize(source: types, fileName: "Types.swift")
        let serviceSummary = MigrationIndex.summarize(source: service, fileName: "Service.swift")
        let lean = MigrationIndex(summaries: [typesSummary], keepsSummaries: false).adding(serviceSummary)
        let full = MigrationIndex(summaries: [typesSummary, serviceSummary])
        XCTAssertEqual(lean.files, ["Types.swift", "Service.swift"])
        XCTAssertEqual(lean.allCompletionFunctions, full.allCompletionFunctions)
        for target in MigrationTarget.allCases {
            let options = MigrationOptions(target: target)
            let expected = SourceMigrator.migrate(source: service, fileName: "Service.swift", options: options, index: full)
            let actual = SourceMigrator.migrate(source: service, fileName: "Service.swift", options: options, index: lean)
            XCTAssertEqual(actual.output, expected.output)
            XCTAssertEqual(actual.findings, expected.findings)
            XCTAssertTrue(actual.output.contains("Promise<Int>") || actual.output.contains("async throws -> Int"), actual.output)
        }
        // A file it holds already is not joined twice.
        XCTAssertEqual(lean.adding(serviceSummary).allCompletionFunctions, lean.allCompletionFunctions)
    }
}
