import Dispatch
import Foundation

/// A stand-in for the system's notification permission prompt: the answer comes later, on the
/// center's own queue, once the main queue has gone quiet (the user needs a moment to tap).
final class PushCenter: @unchecked Sendable {
    static let shared = PushCenter()
    private let queue = DispatchQueue(label: "push")
    private let lock = NSLock()
    private var answer = true

    /// The scenarios decide what the user taps.
    func userWillAnswer(_ granted: Bool) {
        lock.lock(); answer = granted; lock.unlock()
    }

    func requestAuthorization(completionHandler: @escaping @Sendable (Bool, Error?) -> Void) {
        Effects.shared.record("push: asking permission")
        queue.async {
            for _ in 0..<5 { DispatchQueue.main.sync {}; usleep(1_000) }
            self.lock.lock(); let granted = self.answer; self.lock.unlock()
            completionHandler(granted, nil)
        }
    }

    /// Waits until every answer asked for so far has been given.
    func flush() {
        queue.sync {}
    }
}
