// The checks behind `scripts/docs --check`, compiled by that script with the toolchain's `swiftc`
// (no package, no dependency). Two commands:
//
//   DocsCheck symbols GRAPH_DIR
//       Every public or open symbol that module Vow declares in Sources/Vow has a doc comment of
//       its own. See `checkSymbols` for what counts as declared there.
//
//   DocsCheck blocks --modules DIR --root REPO FILE.md...
//       Every ```swift block of the given Markdown files typechecks against the Vow module in DIR
//       (or, when marked so, at least parses), and every block that claims to mirror a source file
//       agrees with it. The convention for marking blocks is in docs/README.md.

import Foundation

// MARK: - Shared

/// Prints to standard error.
func report(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

struct ProcessOutput {
    var status: Int32
    var output: String
}

/// Runs a program to completion and returns its exit status and both streams, interleaved.
func run(_ program: String, _ arguments: [String]) throws -> ProcessOutput {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProcessOutput(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
}

/// The first executable called `name` on `PATH`.
func executable(_ name: String) -> String {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
    for directory in path.split(separator: ":") {
        let candidate = "\(directory)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return "/usr/bin/\(name)"
}

// MARK: - Symbols

/// Fails for every symbol of module Vow that is declared in `Sources/Vow` and lacks its own doc
/// comment. The symbol graph (extracted with `-minimum-access-level public -skip-inherited-docs`)
/// also lists symbols Vow does not declare; they are skipped, each for a reason:
/// - synthesized members (`::SYNTHESIZED::` in the identifier): members a Vow type gets from a
///   protocol extension, such as `!=` from `Equatable` or `AsyncSequence.map` on Vow's sequences.
///   Their documentation belongs to the extension that declares them: the standard library's, or
///   Vow's own protocol extension, whose symbol is checked where it is declared;
/// - extension blocks (`swift.extension`): a container, not an API;
/// - symbols without a source location, or located outside `Sources/Vow`.
/// A doc comment inherited from a protocol requirement does not count (`-skip-inherited-docs`
/// leaves it out; a comment from another module is rejected here too): a Vow declaration says in
/// its own words what it does.
func checkSymbols(graphDirectory: String) -> Int32 {
    let files = ((try? FileManager.default.contentsOfDirectory(atPath: graphDirectory)) ?? [])
        .filter { $0.hasSuffix(".symbols.json") }
        .sorted()
    guard !files.isEmpty else {
        report("DocsCheck: no symbol graph in \(graphDirectory)")
        return 1
    }
    var checked = 0
    var missing: [String] = []
    for file in files {
        guard let data = FileManager.default.contents(atPath: "\(graphDirectory)/\(file)"),
              let graph = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let symbols = graph["symbols"] as? [[String: Any]]
        else {
            report("DocsCheck: cannot read \(file)")
            return 1
        }
        for symbol in symbols {
            let kind = (symbol["kind"] as? [String: Any])?["identifier"] as? String ?? "?"
            let precise = (symbol["identifier"] as? [String: Any])?["precise"] as? String ?? ""
            guard kind != "swift.extension", !precise.contains("::SYNTHESIZED::"),
                  let location = symbol["location"] as? [String: Any],
                  let uri = location["uri"] as? String, uri.contains("/Sources/Vow/")
            else { continue }
            let access = symbol["accessLevel"] as? String ?? ""
            guard access == "public" || access == "open" else { continue }
            checked += 1
            let comment = symbol["docComment"] as? [String: Any]
            let module = comment?["module"] as? String ?? "Vow"
            let text = ((comment?["lines"] as? [[String: Any]]) ?? [])
                .compactMap { $0["text"] as? String }
                .joined()
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if module != "Vow" || text.isEmpty {
                let path = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
                let line = ((location["position"] as? [String: Any])?["line"] as? Int).map { $0 + 1 } ?? 0
                let sourcePath = URL(string: uri)?.path ?? uri
                missing.append("\(sourcePath):\(line): error: public \(kind.replacingOccurrences(of: "swift.", with: "")) `\(path)` has no doc comment")
            }
        }
    }
    for line in missing.sorted() { report(line) }
    if missing.isEmpty {
        print("docs: \(checked) public symbols of Vow, every one documented")
        return 0
    }
    report("docs: \(missing.count) of \(checked) public symbols of Vow have no doc comment")
    return 1
}

// MARK: - Code blocks

/// One fenced ```swift block of a Markdown file, with the directives written just above it.
struct CodeBlock {
    var document: String
    /// 1-based line of the first line of code (after the opening fence).
    var firstLine: Int
    var code: String
    var preludes: [String] = []
    var program: String?
    var parseOnly = false
    var mirrors: [String] = []
}

struct DirectiveError: Error {
    var message: String
}

/// The blocks of `document` whose info string starts with `swift`, and the problems with their
/// directives. Other blocks (```sh, ```json, bare ```) are not Swift and are left alone, but a
/// `docs-check:` comment above one is a problem, so that a marked block cannot escape by changing
/// its language. A fence may be indented (inside a list item); its indentation is removed from
/// the code.
func swiftBlocks(in text: String, document: String) -> (blocks: [CodeBlock], problems: [String]) {
    let lines = text.components(separatedBy: "\n").map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
    var blocks: [CodeBlock] = []
    var problems: [String] = []
    // Lines of `docs-check:` comments that sit right above a fence; any other is misplaced.
    var usedDirectiveLines: Set<Int> = []
    var strayDirectiveLines: [Int] = []
    var index = 0
    while index < lines.count {
        let line = lines[index]
        let indentation = line.prefix { $0 == " " }.count
        let rest = line.dropFirst(indentation)
        guard let fenceCharacter = rest.first, fenceCharacter == "`" || fenceCharacter == "~"
        else {
            if rest.hasPrefix("<!--"), rest.contains("docs-check:") { strayDirectiveLines.append(index + 1) }
            index += 1
            continue
        }
        let fenceLength = rest.prefix { $0 == fenceCharacter }.count
        guard fenceLength >= 3 else { index += 1; continue }
        let info = rest.dropFirst(fenceLength).trimmingCharacters(in: .whitespaces)
        let language = info.split(separator: " ").first.map { String($0).lowercased() } ?? ""
        // Find the closing fence.
        var end = index + 1
        while end < lines.count {
            let candidate = lines[end].drop { $0 == " " }
            if candidate.prefix(while: { $0 == fenceCharacter }).count >= fenceLength,
               candidate.drop(while: { $0 == fenceCharacter }).allSatisfy({ $0 == " " }) {
                break
            }
            end += 1
        }
        let directives = directiveLines(lines, before: index)
        usedDirectiveLines.formUnion(directives.map(\.line))
        if language == "swift" {
            let body = lines[(index + 1)..<min(end, lines.count)].map { String($0.dropFirst(min(indentation, $0.prefix { $0 == " " }.count))) }
            var block = CodeBlock(document: document, firstLine: index + 2, code: body.joined(separator: "\n"))
            do {
                try apply(directives, to: &block, at: index)
                blocks.append(block)
            } catch let error as DirectiveError {
                problems.append(error.message)
            } catch {
                problems.append("\(document):\(index + 1): error: \(error)")
            }
        } else if !directives.isEmpty {
            problems.append("\(document):\(index + 1): error: a docs-check comment marks a block that is not ```swift")
        }
        index = end + 1
    }
    for line in strayDirectiveLines where !usedDirectiveLines.contains(line) {
        problems.append("\(document):\(line): error: this docs-check comment is not on the line right above a code fence")
    }
    return (blocks, problems)
}

/// The `docs-check:` HTML comments on the lines right above line `index` (nearest last).
func directiveLines(_ lines: [String], before index: Int) -> [(line: Int, text: String)] {
    var found: [(Int, String)] = []
    var cursor = index - 1
    while cursor >= 0 {
        let trimmed = lines[cursor].trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("<!--"), trimmed.hasSuffix("-->") else { break }
        let inner = trimmed.dropFirst(4).dropLast(3).trimmingCharacters(in: .whitespaces)
        guard inner.hasPrefix("docs-check:") else { break }
        found.insert((cursor + 1, String(inner.dropFirst("docs-check:".count))), at: 0)
        cursor -= 1
    }
    return found
}

/// Reads `prelude NAME...`, `program NAME`, `parse-only` and `mirror PATH...`, separated by `;`.
func apply(_ directives: [(line: Int, text: String)], to block: inout CodeBlock, at index: Int) throws {
    for (line, text) in directives {
        for clause in text.split(separator: ";") {
            let words = clause.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
            guard let keyword = words.first else { continue }
            let arguments = Array(words.dropFirst())
            switch keyword {
            case "prelude" where !arguments.isEmpty:
                block.preludes += arguments
            case "program" where arguments.count == 1:
                block.program = arguments[0]
            case "parse-only" where arguments.isEmpty:
                block.parseOnly = true
            case "mirror" where !arguments.isEmpty:
                block.mirrors += arguments
            default:
                throw DirectiveError(message: "\(block.document):\(line): error: unknown docs-check directive '\(clause.trimmingCharacters(in: .whitespaces))' (expected prelude NAME..., program NAME, parse-only, mirror PATH...)")
            }
        }
    }
    if block.parseOnly && (block.program != nil || !block.preludes.isEmpty) {
        throw DirectiveError(message: "\(block.document):\(index + 1): error: a parse-only block stands alone: no program or prelude")
    }
}

/// What one compiler run checks: one block, or every block of a document sharing a program name.
struct Program {
    var name: String
    var blocks: [CodeBlock]
    var preludes: [String]
    var parseOnly: Bool
}

func programs(from blocks: [CodeBlock]) -> [Program] {
    var result: [Program] = []
    var named: [String: Int] = [:]
    for block in blocks {
        let key = block.program.map { "\(block.document)#\($0)" }
        if let key, let existing = named[key] {
            result[existing].blocks.append(block)
            for prelude in block.preludes where !result[existing].preludes.contains(prelude) {
                result[existing].preludes.append(prelude)
            }
            continue
        }
        let name = key ?? "\(block.document):\(block.firstLine - 1)"
        if let key { named[key] = result.count }
        var preludes: [String] = []
        for prelude in block.preludes where !preludes.contains(prelude) { preludes.append(prelude) }
        result.append(Program(name: name, blocks: [block], preludes: preludes, parseOnly: block.parseOnly))
    }
    return result
}

/// The block's non-blank lines, stripped of surrounding whitespace, must appear in the mirrored
/// file in the same order (other lines may come between them: the source may wrap the example in
/// a function and assert on it). So the text says nothing the source does not run.
func checkMirror(_ block: CodeBlock, path: String, root: String) -> String? {
    guard let source = try? String(contentsOfFile: "\(root)/\(path)", encoding: .utf8) else {
        return "\(block.document):\(block.firstLine - 1): error: mirrored source \(path) cannot be read"
    }
    let sourceLines = source.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    var cursor = 0
    for (offset, line) in block.code.components(separatedBy: "\n").enumerated() {
        let wanted = line.trimmingCharacters(in: .whitespaces)
        if wanted.isEmpty { continue }
        guard let found = sourceLines[cursor...].firstIndex(of: wanted) else {
            return "\(block.document):\(block.firstLine + offset): error: this line is not in \(path) (in this order); the block claims to mirror it: \(wanted)"
        }
        cursor = found + 1
    }
    return nil
}

final class Failures: @unchecked Sendable {
    // @unchecked: `messages` is only touched under `lock`.
    private let lock = NSLock()
    private var messages: [String] = []

    func add(_ message: String) {
        lock.lock()
        messages.append(message)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return messages
    }
}

func checkBlocks(modules: String, root: String, documents: [String]) -> Int32 {
    var blocks: [CodeBlock] = []
    var problems: [String] = []
    for document in documents {
        guard let text = try? String(contentsOfFile: "\(root)/\(document)", encoding: .utf8) else {
            problems.append("\(document): error: cannot read")
            continue
        }
        let found = swiftBlocks(in: text, document: document)
        blocks += found.blocks
        problems += found.problems
    }
    for block in blocks {
        for path in block.mirrors {
            if let problem = checkMirror(block, path: path, root: root) { problems.append(problem) }
        }
    }
    let allPrograms = programs(from: blocks)
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("vow-docs-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.removeItem(at: work)
    defer { try? FileManager.default.removeItem(at: work) }
    let swiftc = executable("swiftc")
    let failures = Failures()
    let moduleCache = work.appendingPathComponent("module-cache").path
    // Two compiler runs at a time: the machines this runs on have two cores.
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 2
    for (number, program) in allPrograms.enumerated() {
        queue.addOperation {
            let directory = work.appendingPathComponent("\(number)")
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                var files: [String] = []
                for prelude in program.preludes {
                    let path = "\(root)/docs/preludes/\(prelude).swift"
                    guard FileManager.default.fileExists(atPath: path) else {
                        failures.add("\(program.name): error: no prelude docs/preludes/\(prelude).swift")
                        return
                    }
                    files.append(path)
                }
                // `main.swift`, so that top-level statements are allowed; `#sourceLocation` makes the
                // compiler's messages point at the Markdown file's own lines. `import Vow` is implied.
                var main = program.parseOnly ? "" : "import Vow\n"
                for block in program.blocks {
                    main += "#sourceLocation(file: \"\(root)/\(block.document)\", line: \(block.firstLine))\n"
                    main += block.code + "\n"
                    main += "#sourceLocation()\n"
                }
                let mainPath = directory.appendingPathComponent("main.swift").path
                try main.write(toFile: mainPath, atomically: true, encoding: .utf8)
                let arguments = program.parseOnly
                    ? ["-parse", mainPath]
                    : ["-typecheck", "-swift-version", "6", "-I", modules, "-module-cache-path", moduleCache] + files + [mainPath]
                let result = try run(swiftc, arguments)
                if result.status != 0 {
                    let what = program.parseOnly ? "does not parse" : "does not typecheck against Vow"
                    failures.add("\(program.name): error: this code block \(what):\n\(result.output)")
                }
            } catch {
                failures.add("\(program.name): error: \(error)")
            }
        }
    }
    queue.waitUntilAllOperationsAreFinished()
    problems += failures.all.sorted()
    for problem in problems { report(problem) }
    let typechecked = allPrograms.filter { !$0.parseOnly }.reduce(0) { $0 + $1.blocks.count }
    let parsed = allPrograms.filter(\.parseOnly).count
    let mirrored = blocks.filter { !$0.mirrors.isEmpty }.count
    let summary = "\(blocks.count) swift blocks in \(documents.count) files: \(typechecked) typechecked (\(allPrograms.count - parsed) compiler runs), \(parsed) parse-only, \(mirrored) mirrored"
    if problems.isEmpty {
        print("docs: \(summary), all good")
        return 0
    }
    report("docs: \(summary); \(problems.count) problems")
    return 1
}

// MARK: - Command line

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "symbols" where arguments.count == 2:
    exit(checkSymbols(graphDirectory: arguments[1]))
case "blocks":
    var modules = "", root = FileManager.default.currentDirectoryPath
    var documents: [String] = []
    var rest = arguments.dropFirst()
    while let argument = rest.popFirst() {
        switch argument {
        case "--modules": modules = rest.popFirst() ?? ""
        case "--root": root = rest.popFirst() ?? root
        default: documents.append(argument)
        }
    }
    guard !modules.isEmpty, !documents.isEmpty else {
        report("usage: DocsCheck blocks --modules DIR [--root REPO] FILE.md...")
        exit(64)
    }
    exit(checkBlocks(modules: modules, root: root, documents: documents))
default:
    report("usage: DocsCheck symbols GRAPH_DIR | DocsCheck blocks --modules DIR [--root REPO] FILE.md...")
    exit(64)
}
