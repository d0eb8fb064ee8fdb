import Foundation

/// Where every layer of the service says what it does, one line at a time.
///
/// Each line starts with who said it: `http` (the request log), `repo` (the promise repository),
/// `legacy` (the callback backend) or `async` (the new async reviews service). The program prints
/// the lines; the tests collect them to check that what the README tells you to look for is said.
///
/// Lines arrive from many threads at once (the backend's queue, request Tasks, token handlers).
public struct ServiceLog: Sendable {
    private let write: @Sendable (String) -> Void

    /// A log that hands every line to `write`, which may be called from any thread.
    public init(_ write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    /// Prints each line to standard output at once, even when the output is a pipe or a file.
    public static let standardOutput: ServiceLog = {
        let lock = NSLock()
        return ServiceLog { line in
            // One line at a time, flushed, so that lines from different threads never interleave
            // and `swift run ... | grep cancel` shows them as they happen.
            lock.withLock {
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
            }
        }
    }()

    /// A log that drops every line.
    public static let silent = ServiceLog { _ in }

    /// Says `line`.
    public func callAsFunction(_ line: String) {
        write(line)
    }
}
