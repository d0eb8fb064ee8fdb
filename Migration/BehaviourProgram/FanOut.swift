import Dispatch
import Foundation

/// Services a fan-out calls once per name: each answers on the service queue, and fails for the
/// names the scenario lists (`score-bob`), so one call of several can fail. `avatar` answers
/// the shortest name first, so its callbacks run in another order than the loop made the calls.
final class Scores: Sendable {
    func score(_ name: String, completion: @escaping @Sendable (Result<Int, Error>) -> Void) {
        Trace.shared.record("score(\(name)) called", final: false)
        serviceQueue.async {
            completion(Script.shared.fails("score-\(name)") ? .failure(ServiceError.failed("score-\(name)")) : .success(name.count))
        }
    }

    func avatar(_ name: String, completion: @escaping @Sendable (String?, Error?) -> Void) {
        Trace.shared.record("avatar(\(name)) called", final: false)
        // Longer names take longer: the answers come in another order than the calls.
        serviceQueue.asyncAfter(deadline: .now() + .milliseconds(30 * name.count)) {
            if Script.shared.fails("avatar-\(name)") {
                completion(nil, ServiceError.failed("avatar-\(name)"))
            } else {
                completion("https://example.com/\(name).png", nil)
            }
        }
    }

    func ping(_ name: String, completion: @escaping @Sendable (Error?) -> Void) {
        Trace.shared.record("ping(\(name)) called", final: false)
        serviceQueue.async { completion(Script.shared.fails("ping-\(name)") ? ServiceError.failed("ping-\(name)") : nil) }
    }
}

let scores = Scores()

/// A view model whose screens start several calls at once: loops counted by a `DispatchGroup`,
/// and a plain loop. The callbacks run on the service queue, the notify blocks on main.
final class FanOuts: @unchecked Sendable {
    private var total = 0
    private var failed: [String] = []
    private var remaining = 0

    func log(_ text: String) { Trace.shared.record("log: \(text)", final: false) }
    func show(_ text: String) { Trace.shared.record("show: \(text)", final: true) }

    /// The plain loop's last callback is the scenario's final effect.
    func settle(_ text: String) {
        remaining -= 1
        Trace.shared.record("settle: \(text)", final: remaining == 0)
    }

    // Result callbacks, `leave()` last, results collected in properties
    func scoreAll(_ names: [String]) {
        total = 0
        failed = []
        let group = DispatchGroup()
        for name in names {
            group.enter()
            scores.score(name) { result in
                switch result {
                case .success(let score):
                    self.log("\(name) scored \(score)")
                    self.total += score
                case .failure(let error):
                    self.log("\(name) failed: \(error)")
                    self.failed.append(name)
                }
                group.leave()
            }
        }
        group.notify(queue: .main) {
            self.show("total \(self.total), failed \(self.failed)")
        }
    }

    // (T?, Error?) callbacks, `leave()` closing each branch, `[weak self]`
    func fetchAvatars(_ names: [String]) {
        let group = DispatchGroup()
        for name in names {
            group.enter()
            scores.avatar(name) { [weak self] url, error in
                if let error {
                    self?.log("no avatar for \(name): \(error)")
                    group.leave()
                    return
                }
                self?.log("avatar \(url!)")
                group.leave()
            }
        }
        group.notify(queue: .main) { [weak self] in
            self?.show("avatars done")
        }
    }

    // (Error?) callbacks with `defer { group.leave() }`
    func pingAll(_ names: [String]) {
        let group = DispatchGroup()
        for name in names {
            group.enter()
            scores.ping(name) { error in
                defer { group.leave() }
                if let error {
                    self.log("ping \(name) failed: \(error)")
                    return
                }
                self.log("pong \(name)")
            }
        }
        group.notify(queue: .main) {
            self.show("pinged \(names.count)")
        }
    }

    // Callbacks ignoring how their call ended, the notify block on a global queue
    func warmUp(_ names: [String]) {
        let group = DispatchGroup()
        for name in names {
            group.enter()
            scores.ping(name) { _ in
                self.log("warmed \(name)")
                group.leave()
            }
        }
        group.notify(queue: .global()) {
            self.show("warm")
        }
    }

    // A plain loop of calls, no group
    func scoreEach(_ names: [String]) {
        remaining = names.count
        for name in names {
            scores.score(name) { result in
                switch result {
                case .success(let score): self.settle("\(name): \(score)")
                case .failure(let error): self.settle("\(name): \(error)")
                }
            }
        }
    }
}
