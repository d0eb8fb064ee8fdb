/// The serial executor the async form of a fan-out prefers (see ``FanOutAsyncWriter``), added
/// once to each file that gets a converted fan-out, at its end.
enum FanOutExecutor {
    static let name = "FanOutExecutor"

    /// The declaration, with a leading blank line.
    static let declaration = """

    /// Runs the jobs of the tasks that prefer it one at a time, in the order they arrive: the
    /// children of a fan-out's task group, added by vow-migrate, make their calls in loop order
    /// and finish in the order the calls answered, as the callbacks they replace ran.
    fileprivate final class \(name): TaskExecutor {
        private let queue = DispatchQueue(label: "\(name)")

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        }
    }

    """

    /// The declaration appended to the file, unless the file already declares it (an earlier run).
    static func edit(in bytes: [UInt8]) -> TextEdit? {
        let source = String(decoding: bytes, as: UTF8.self)
        if source.contains("final class \(name): TaskExecutor") { return nil }
        let endsWithNewline = bytes.last == UInt8(ascii: "\n")
        return TextEdit(offset: bytes.count, removing: 0, text: (endsWithNewline ? "" : "\n") + declaration)
    }
}
