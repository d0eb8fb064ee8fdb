import Dispatch
import Foundation

// The corpus app runs against fakes, so that it behaves the same on every run: one serial queue
// answers every request, a fault plan says which operations fail (or answer `false`), and every
// effect the app has, a request sent or something shown, lands in one trace with the kind of
// thread it happened on.

/// Which operations fail in the current scenario (a Bool answer is `false` instead).
final class FaultPlan: @unchecked Sendable {
    static let shared = FaultPlan()
    private let lock = NSLock()
    private var failing: Set<String> = []

    func set(_ operations: Set<String>) {
        lock.lock(); failing = operations; lock.unlock()
    }

    func fails(_ operation: String) -> Bool {
        lock.lock(); defer { lock.unlock() }
        return failing.contains(operation)
    }
}

/// Marks the main queue: on Linux, `dispatchMain()` serves it from a thread that is not the main thread.
let mainQueueKey = DispatchSpecificKey<Bool>()

/// The effects of a scenario, in order, each with the kind of thread it ran on.
final class EffectTrace: @unchecked Sendable {
    static let shared = EffectTrace()
    private let lock = NSLock()
    private var lines: [String] = []
    private let finished = DispatchSemaphore(value: 0)

    func record(_ text: String, final: Bool) {
        let place = DispatchQueue.getSpecific(key: mainQueueKey) != nil ? "main" : "background"
        lock.lock(); lines.append("[\(place)] \(text)"); lock.unlock()
        if final { finished.signal() }
    }

    /// Waits for the scenario's final effects (every path of a flow ends with a known number).
    func waitForFinalEffects(_ count: Int) {
        for _ in 0..<count where finished.wait(timeout: .now() + 20) == .timedOut {
            record("TIMED OUT", final: false)
            return
        }
    }

    func take() -> [String] {
        lock.lock(); defer { lock.unlock() }
        let taken = lines
        lines = []
        return taken
    }
}

/// The one queue every fake service answers on, like a URLSession delegate queue.
let backendQueue = DispatchQueue(label: "backend")

/// Records that `operation` was asked for, then answers on the backend queue: `body(true)` when
/// the scenario makes it fail.
func answer(_ operation: String, _ body: @escaping @Sendable (_ failing: Bool) -> Void) {
    EffectTrace.shared.record("-> \(operation)", final: false)
    let failing = FaultPlan.shared.fails(operation)
    backendQueue.async { body(failing) }
}
