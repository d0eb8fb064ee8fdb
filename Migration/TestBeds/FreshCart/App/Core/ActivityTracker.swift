import Foundation

/// The network activity indicator: on while any tracked chain is pending.
final class ActivityTracker: @unchecked Sendable {
    static let shared = ActivityTracker()
    private let lock = NSLock()
    private var count = 0

    func begin() {
        lock.lock()
        count += 1
        let first = count == 1
        lock.unlock()
        if first { Effects.shared.record("activity on") }
    }

    func end() {
        lock.lock()
        count -= 1
        let last = count == 0
        lock.unlock()
        if last { Effects.shared.record("activity off") }
    }

    func reset() {
        lock.lock(); count = 0; lock.unlock()
    }
}
