import Dispatch
import Foundation

/// Marks the main queue: on Linux, `dispatchMain()` serves it from a thread that is not the main
/// thread, so `Thread.isMainThread` cannot tell.
let mainQueueKey = DispatchSpecificKey<Bool>()

/// Every effect the app has on the world (what the stand-in UI shows, what the server is asked),
/// in order, with the kind of queue each happened on. The scenarios print it; the test bed's test
/// compares it before and after migration.
final class Effects: @unchecked Sendable {
    static let shared = Effects()
    private let condition = NSCondition()
    private var lines: [String] = []

    func record(_ text: String) {
        let place = DispatchQueue.getSpecific(key: mainQueueKey) != nil ? "main" : "background"
        condition.lock()
        lines.append("[\(place)] \(text)")
        condition.broadcast()
        condition.unlock()
    }

    /// How many effects have happened so far: a step waits only for effects after its mark.
    func mark() -> Int {
        condition.lock()
        defer { condition.unlock() }
        return lines.count
    }

    /// Waits until an effect containing `fragment` has happened after `mark`; false after 10
    /// seconds, so a migration that loses an effect fails the comparison instead of hanging.
    func waitFor(_ fragment: String, after mark: Int) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        condition.lock()
        defer { condition.unlock() }
        while !lines.dropFirst(mark).contains(where: { $0.contains(fragment) }) {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }

    func take() -> [String] {
        condition.lock()
        defer { condition.unlock() }
        let taken = lines
        lines = []
        return taken
    }
}
