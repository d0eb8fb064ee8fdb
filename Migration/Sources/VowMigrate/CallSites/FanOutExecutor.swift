import Foundation

/// The serial executor the async form of a fan-out prefers (see ``FanOutAsyncWriter``), added
/// once to each file that gets a converted fan-out, at its end.
enum FanOutExecutor {
    static let name = "FanOutExecutor"

    /// The declaration, with a leading blank line.
    static let declaration = """

    /// Runs the jobs of the tasks that prefer it one at a time, in the order they arrive, added by
    /// vow-migrate: the children of a fan-out's task group make their calls in loop order, and
    /// finish in the order the calls answered, as the callbacks they replace ran.
    fileprivate final class \(name): TaskExecutor, @unchecked Sendable {
        private let queue = DispatchQueue(label: "\(name)")
        // Both are read and written on `queue` only.
        private var jobsRun = 0
        private var movedBack: UnsafeContinuation<Void, Never>?

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            queue.async {
                self.jobsRun += 1
                job.runSynchronously(on: self.asUnownedTaskExecutor())
                if let movedBack = self.movedBack {
                    self.movedBack = nil
                    movedBack.resume()
                }
            }
        }

        /// Makes a child's call. A call answered before the child suspended returns in the job
        /// that made it, ahead of children answered earlier whose jobs wait in the queue: that
        /// child goes to the back of the queue first.
        func answer<T>(_ call: () async -> T) async -> T {
            let job = jobsRun
            let value = await call()
            if jobsRun == job {
                await withUnsafeContinuation { movedBack = $0 }
            }
            return value
        }
    }

    """

    /// What earlier versions declared: a file that has it gets the declaration in its place.
    static let earlierDeclaration = """

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

    /// The declaration appended to the file, or put in place of an earlier version's, unless the
    /// file already declares it (an earlier run).
    static func edit(in bytes: [UInt8]) -> TextEdit? {
        let source = String(decoding: bytes, as: UTF8.self)
        if source.contains("final class \(name): TaskExecutor, @unchecked Sendable") { return nil }
        if let earlier = source.range(of: earlierDeclaration) {
            let offset = source.utf8.distance(from: source.startIndex, to: earlier.lowerBound)
            return TextEdit(offset: offset, removing: earlierDeclaration.utf8.count, text: declaration)
        }
        let endsWithNewline = bytes.last == UInt8(ascii: "\n")
        return TextEdit(offset: bytes.count, removing: 0, text: (endsWithNewline ? "" : "\n") + declaration)
    }
}
