import Foundation

/// What an example says as it runs: each line is printed (when `echo` is on) and kept, so the
/// programs narrate to a reader and the tests can check the very same narration.
///
/// Lines arrive from many threads at once (legacy queues, tasks, promise handlers), hence the lock.
/// `@unchecked Sendable` because `NSLock` guards `recorded`; `Synchronization.Mutex` would say so
/// to the compiler but needs macOS 15.
public final class Transcript: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    private let echo: Bool

    /// - Parameter echo: Print every line as it is recorded (the programs); `false` in tests.
    public init(echo: Bool) {
        self.echo = echo
    }

    /// Records `line`, printing it if this transcript echoes.
    public func say(_ line: String) {
        lock.lock()
        recorded.append(line)
        // Printed under the lock so the printed order is the recorded order.
        if echo {
            print(line)
        }
        lock.unlock()
    }

    /// Every line so far, in the order they were said.
    public var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    /// The lines that start with `prefix`, in order: one voice of the conversation.
    public func lines(startingWith prefix: String) -> [String] {
        lines.filter { $0.hasPrefix(prefix) }
    }

    /// Waits until some line starts with `prefix`, checking every few milliseconds, for at most
    /// `timeout`. The examples use it to act at a known point of work that runs elsewhere (cancel
    /// once a legacy computation has begun) and to keep their printout in a readable order.
    ///
    /// - Returns: `true` if the line was said, `false` on timeout or if the Task was cancelled.
    @discardableResult
    public func waitUntilSaid(startingWith prefix: String, timeout: Duration = .seconds(5)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if lines.contains(where: { $0.hasPrefix(prefix) }) {
                return true
            }
            do {
                try await Task.sleep(for: .milliseconds(2))
            } catch {
                return false
            }
        }
        return false
    }
}
