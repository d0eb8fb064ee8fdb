import Dispatch
import Foundation

// What the `--replace` behaviour test's services share: the scenario's failing steps, the trace
// of effects, and the one serial queue every service answers on.

enum ShopError: Error {
    case failed(String)
    case empty
}

struct Order: Sendable {
    let id: Int
    let total: Int
}

struct Receipt: Sendable {
    let order: Order
    let note: String
}

/// Which steps fail in the current scenario.
final class Script: @unchecked Sendable {
    static let shared = Script()
    private let lock = NSLock()
    private var failing: Set<String> = []

    func set(_ steps: Set<String>) {
        lock.lock(); failing = steps; lock.unlock()
    }

    func fails(_ step: String) -> Bool {
        lock.lock(); defer { lock.unlock() }
        return failing.contains(step)
    }
}

/// The effects of a scenario, in order, with the kind of thread each ran on.
final class Trace: @unchecked Sendable {
    static let shared = Trace()
    private let lock = NSLock()
    private var lines: [String] = []
    private let finished = DispatchSemaphore(value: 0)

    func record(_ text: String, final: Bool = false) {
        let place = DispatchQueue.getSpecific(key: serviceQueueKey) != nil ? "service" : "other"
        lock.lock(); lines.append("[\(place)] \(text)"); lock.unlock()
        if final { finished.signal() }
    }

    func waitForFinalEffect() {
        if finished.wait(timeout: .now() + 20) == .timedOut { record("TIMED OUT") }
    }

    func take() -> [String] {
        lock.lock(); defer { lock.unlock() }
        let taken = lines
        lines = []
        return taken
    }
}

let serviceQueue = DispatchQueue(label: "services")
let serviceQueueKey = DispatchSpecificKey<Bool>()
