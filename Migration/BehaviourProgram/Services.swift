import Dispatch
import Foundation

/// Deterministic fake services for the call-site behaviour test: each step answers on its own
/// serial queue, fails when the scenario says so, and Bool flags are false when declined.
enum ServiceError: Error {
    case failed(String)
}

struct Profile: Sendable {
    var name: String
}

/// Which steps fail (or decline) in the current scenario.
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

/// The effects a scenario performed, with the thread each ran on.
final class Trace: @unchecked Sendable {
    static let shared = Trace()
    private let lock = NSLock()
    private var lines: [String] = []
    private let finished = DispatchSemaphore(value: 0)

    func record(_ text: String, final: Bool) {
        let place = DispatchQueue.getSpecific(key: mainQueueKey) != nil ? "main" : "background"
        lock.lock(); lines.append("[\(place)] \(text)"); lock.unlock()
        if final { finished.signal() }
    }

    /// Waits for the scenario's final effect (every path ends with exactly one).
    func waitForFinalEffect() {
        if finished.wait(timeout: .now() + 20) == .timedOut { record("TIMED OUT", final: false) }
    }

    func take() -> [String] {
        lock.lock(); defer { lock.unlock() }
        let taken = lines
        lines = []
        return taken
    }
}

let serviceQueue = DispatchQueue(label: "services")

/// Marks the main queue: on Linux, `dispatchMain()` serves it from a thread that is not the main thread.
let mainQueueKey = DispatchSpecificKey<Bool>()

func fetchNetworkData(completion: @escaping @Sendable (Bool) -> Void) {
    Trace.shared.record("fetchNetworkData called", final: false)
    serviceQueue.async { completion(!Script.shared.fails("network")) }
}

func fetchSystemData(completion: @escaping @Sendable (Bool) -> Void) {
    Trace.shared.record("fetchSystemData called", final: false)
    serviceQueue.async { completion(!Script.shared.fails("system")) }
}

final class Api: Sendable {
    func login(_ user: String, completion: @escaping @Sendable (String?, Error?) -> Void) {
        Trace.shared.record("login(\(user)) called", final: false)
        serviceQueue.async {
            if Script.shared.fails("login") {
                completion(nil, ServiceError.failed("login"))
            } else {
                completion("token-\(user)", nil)
            }
        }
    }

    func profile(_ token: String, completion: @escaping @Sendable (Result<Profile, Error>) -> Void) {
        Trace.shared.record("profile(\(token)) called", final: false)
        serviceQueue.async {
            completion(Script.shared.fails("profile") ? .failure(ServiceError.failed("profile")) : .success(Profile(name: "name-\(token)")))
        }
    }
}

final class Store: Sendable {
    func save(_ profile: Profile, completion: @escaping @Sendable (Error?) -> Void) {
        Trace.shared.record("save(\(profile.name)) called", final: false)
        serviceQueue.async { completion(Script.shared.fails("save") ? ServiceError.failed("save") : nil) }
    }

    func count(completion: @escaping @Sendable (Int) -> Void) {
        Trace.shared.record("count called", final: false)
        serviceQueue.async { completion(3) }
    }
}

let api = Api()
let store = Store()
