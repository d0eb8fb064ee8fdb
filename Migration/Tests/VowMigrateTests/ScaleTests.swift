import SwiftParser
@testable import VowMigrate
import XCTest

/// A large file is read in pieces (`ChunkedMigration`), so memory follows the piece, not the
/// file. These tests cut small inputs into tiny pieces and hold the result to the whole-file
/// path: the same output, byte for byte, and the same findings. (Throughput and peak memory are
/// measured by `Scripts/measure-throughput.sh`, not asserted here.)
final class ScaleTests: XCTestCase {
    private func assertSameAsWholeFile(_ source: String, _ target: MigrationTarget, pieceSize: Int,
                                       file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let options = MigrationOptions(target: target)
        let whole = SourceMigrator.migrate(source: source, fileName: "F.swift", options: options)
        guard let pieces = ChunkedMigration.migrate(source: source, fileName: "F.swift", options: options, target: target,
                                                    progress: nil, pieceSize: pieceSize) else { return false }
        XCTAssertEqual(pieces.output, whole.output, file: file, line: line)
        XCTAssertEqual(pieces.findings, whole.findings, file: file, line: line)
        XCTAssertEqual(pieces.changed, whole.changed, file: file, line: line)
        // As the command line runs it: with the whole-tree index, which already holds the file.
        let index = MigrationIndex(summaries: [MigrationIndex.summarize(source: source, fileName: "F.swift")])
        let indexedWhole = SourceMigrator.migrate(source: source, fileName: "F.swift", options: options, index: index)
        guard let indexedPieces = ChunkedMigration.migrate(source: source, fileName: "F.swift", options: options, target: target,
                                                           index: index, progress: nil, pieceSize: pieceSize) else {
            XCTFail("read whole with an index, but in pieces without one", file: file, line: line)
            return false
        }
        XCTAssertEqual(indexedPieces.output, indexedWhole.output, file: file, line: line)
        XCTAssertEqual(indexedPieces.findings, indexedWhole.findings, file: file, line: line)
        XCTAssertEqual(indexedWhole.output, whole.output, file: file, line: line)
        // The index pass reads a large file in pieces too; the whole-file path gives the same with it.
        if let summary = ChunkedMigration.summarize(source: source, fileName: "F.swift", isContext: false, pieceSize: pieceSize) {
            let piecesIndexed = SourceMigrator.migrate(source: source, fileName: "F.swift", options: options,
                                                       index: MigrationIndex(summaries: [summary]))
            XCTAssertEqual(piecesIndexed.output, whole.output, file: file, line: line)
            XCTAssertEqual(piecesIndexed.findings, whole.findings, file: file, line: line)
        } else {
            XCTFail("migrated in pieces, but not summarized in pieces", file: file, line: line)
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
                XCTAssertTrue(assertSameAsWholeFile(source, target, pieceSize: pieceSize), "\(target) in pieces of \(pieceSize) was not cut")
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
            for target in MigrationTarget.allCases where assertSameAsWholeFile(input, target, pieceSize: 40) {
                cut += 1
            }
        }
        XCTAssertGreaterThan(cut, 10, "most fixtures have a type with blank lines between members")
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
            let masked = chunk.masked(bytes)
            XCTAssertEqual(masked.utf8.count, bytes.count, "offsets are kept")
            XCTAssertFalse(Parser.parse(source: masked).hasError, masked)
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
        // Top-level functions only: no type body to cut.
        let source = (0..<50).map { "func f\($0)(completion: @escaping @Sendable (Error?) -> Void) {\n    completion(nil)\n}\n\n" }.joined()
        XCTAssertNil(SourceChunks.plan(Array(source.utf8), targetSize: 100))
        XCTAssertNil(ChunkedMigration.migrate(source: source, fileName: "F.swift", options: .init(target: .promise), target: .promise,
                                              progress: nil, pieceSize: 100))
        // A protocol is never cut: its alternatives go into one extension after it.
        let requirements = (0..<50).map { "    func f\($0)(completion: @escaping @Sendable (Error?) -> Void)\n\n" }.joined()
        XCTAssertNil(SourceChunks.plan(Array("protocol Api {\n\(requirements)}\n".utf8), targetSize: 100))
    }
}
