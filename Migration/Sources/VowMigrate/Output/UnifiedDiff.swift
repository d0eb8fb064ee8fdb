#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A unified diff (`diff -u` format, 3 lines of context) between two texts, by Myers' algorithm
/// on lines. Migration edits are few and local, so the O((N+M)·D) search stays cheap.
public enum UnifiedDiff {
    public static func make(old: String, new: String, oldName: String, newName: String, context: Int = 3) -> String {
        if old == new { return "" }
        var old = old, new = new
        return old.withUTF8 { oldBytes in
            new.withUTF8 { newBytes in
                let oldLines = Lines(oldBytes), newLines = Lines(newBytes)
                let script = editScript(oldLines, newLines)
                var output = "--- \(oldName)\n+++ \(newName)\n"
                // Room for every line of both texts with its mark: a large file's diff is not copied
                // each time it outgrows its storage (room it does not use is never touched).
                output.reserveCapacity(oldBytes.count + newBytes.count + 2 * (oldLines.count + newLines.count) + 256)
                for hunk in hunks(script, context: context) {
                    let steps = script[hunk]
                    let oldCount = steps.count(where: { $0.kind != .insert })
                    let newCount = steps.count(where: { $0.kind != .delete })
                    let oldStart = Int(steps.first!.oldIndex) + (oldCount == 0 ? 0 : 1)
                    let newStart = Int(steps.first!.newIndex) + (newCount == 0 ? 0 : 1)
                    output += "@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@\n"
                    for step in steps {
                        switch step.kind {
                        case .keep: oldLines.append(Int(step.oldIndex), marked: " ", to: &output)
                        case .delete: oldLines.append(Int(step.oldIndex), marked: "-", to: &output)
                        case .insert: newLines.append(Int(step.newIndex), marked: "+", to: &output)
                        }
                    }
                }
                return output
            }
        }
    }

    /// A text's lines as the offsets they start at, read in its UTF-8 bytes: 4 bytes a line where
    /// an array of `Substring`s took 16 (a large file's diff held both texts' so at its peak).
    struct Lines {
        let bytes: UnsafeBufferPointer<UInt8>
        /// Where each line starts, then where a line after the last would (one past its `\n`).
        private var starts: [Int32] = [0]

        /// Split at `\n`; a final `\n` ends the last line rather than starting an empty one.
        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            guard !bytes.isEmpty else { return }
            for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(Int32(offset + 1)) }
            if bytes.last != UInt8(ascii: "\n") { starts.append(Int32(bytes.count + 1)) }
        }

        var count: Int { starts.count - 1 }

        func line(_ index: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: bytes[Int(starts[index])..<Int(starts[index + 1]) - 1])
        }

        func same(_ index: Int, as other: Lines, _ otherIndex: Int) -> Bool {
            let a = line(index), b = other.line(otherIndex)
            guard a.count == b.count else { return false }
            guard let left = a.baseAddress, let right = b.baseAddress else { return true }
            return memcmp(left, right, a.count) == 0
        }

        func append(_ index: Int, marked mark: String, to output: inout String) {
            output += mark
            output += String(decoding: line(index), as: UTF8.self)
            output += "\n"
        }
    }

    /// One line of the script; 12 bytes (a large file's script has a step per line of both texts).
    struct Step {
        enum Kind: UInt8 { case keep, delete, insert }
        var kind: Kind
        var oldIndex: Int32
        var newIndex: Int32

        init(kind: Kind, oldIndex: Int, newIndex: Int) {
            self.kind = kind
            self.oldIndex = Int32(oldIndex)
            self.newIndex = Int32(newIndex)
        }
    }

    /// Past this many differing lines the search would keep O(D²) memory; a greedy scan takes over.
    static let exactSearchLimit = 1_000

    static func editScript(_ a: Lines, _ b: Lines) -> [Step] {
        let n = a.count, m = b.count
        let maxD = min(n + m, exactSearchLimit)
        let offset = maxD + 1
        var v = [Int](repeating: 0, count: 2 * maxD + 3)
        var trace: [[Int]] = []
        var found = false
        for d in 0...maxD {
            trace.append(Array(v[(offset - d - 1)...(offset + d + 1)]))
            for k in stride(from: -d, through: d, by: 2) {
                var x: Int
                if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                    x = v[offset + k + 1]
                } else {
                    x = v[offset + k - 1] + 1
                }
                var y = x - k
                while x < n && y < m && a.same(x, as: b, y) { x += 1; y += 1 }
                v[offset + k] = x
                if x >= n && y >= m { found = true; break }
            }
            if found { break }
        }
        guard found else { return greedyScript(a, b) }
        // Walk the trace backwards to recover the path.
        var steps: [Step] = []
        var x = n, y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let saved = trace[d]
            func value(_ k: Int) -> Int { saved[k + d + 1] }
            let k = x - y
            let previousK: Int
            if k == -d || (k != d && value(k - 1) < value(k + 1)) {
                previousK = k + 1
            } else {
                previousK = k - 1
            }
            let previousX = d == 0 ? 0 : value(previousK)
            let previousY = previousX - previousK
            while x > previousX && y > previousY {
                x -= 1; y -= 1
                steps.append(Step(kind: .keep, oldIndex: x, newIndex: y))
            }
            if d > 0 {
                if x == previousX {
                    y -= 1
                    steps.append(Step(kind: .insert, oldIndex: x, newIndex: y))
                } else {
                    x -= 1
                    steps.append(Step(kind: .delete, oldIndex: x, newIndex: y))
                }
            }
        }
        return steps.reversed()
    }

    /// A valid, not always minimal, script in linear memory for files with very many changes:
    /// where lines differ, the nearer of "old line reappears later in new" (insertions) and "new
    /// line reappears later in old" (deletions) wins; otherwise the line is replaced.
    static func greedyScript(_ a: Lines, _ b: Lines, window: Int = 400) -> [Step] {
        var steps: [Step] = []
        // At most a step per line of each: never copied as it grows.
        steps.reserveCapacity(a.count + b.count)
        var x = 0, y = 0
        while x < a.count || y < b.count {
            if x < a.count && y < b.count && a.same(x, as: b, y) {
                steps.append(Step(kind: .keep, oldIndex: x, newIndex: y))
                x += 1; y += 1
                continue
            }
            let insertions = x < a.count ? (y..<min(b.count, y + window)).first(where: { b.same($0, as: a, x) }).map { $0 - y } : nil
            let deletions = y < b.count ? (x..<min(a.count, x + window)).first(where: { a.same($0, as: b, y) }).map { $0 - x } : nil
            if y < b.count, let insertions, insertions <= (deletions ?? .max) {
                for _ in 0..<insertions { steps.append(Step(kind: .insert, oldIndex: x, newIndex: y)); y += 1 }
            } else if x < a.count, let deletions {
                for _ in 0..<deletions { steps.append(Step(kind: .delete, oldIndex: x, newIndex: y)); x += 1 }
            } else {
                if x < a.count { steps.append(Step(kind: .delete, oldIndex: x, newIndex: y)); x += 1 }
                if y < b.count { steps.append(Step(kind: .insert, oldIndex: x, newIndex: y)); y += 1 }
            }
        }
        return steps
    }

    /// The script's hunks as ranges of it (not copies: a large file's hunks hold most of it).
    private static func hunks(_ script: [Step], context: Int) -> [ClosedRange<Int>] {
        var result: [ClosedRange<Int>] = []
        var current: ClosedRange<Int>?
        for index in script.indices where script[index].kind != .keep {
            if let open = current, index - context <= open.upperBound + 1 {
                current = open.lowerBound...min(script.count - 1, index + context)
            } else {
                if let open = current { result.append(open) }
                current = max(0, index - context)...min(script.count - 1, index + context)
            }
        }
        if let open = current { result.append(open) }
        return result
    }
}
