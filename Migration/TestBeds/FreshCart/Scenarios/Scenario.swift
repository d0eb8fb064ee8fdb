import Dispatch
import Foundation

/// One user action, and the effect that shows the app is done reacting to it.
struct Step {
    let until: String
    let action: () -> Void
}

/// How the app starts: who is signed in.
enum SignedIn {
    case nobody
    case fresh
    case expired
}

/// A scenario: how the server answers, what state the app starts in, and what the user does.
struct Scenario: @unchecked Sendable {
    let name: String
    var answers: [String: [ServerAnswer]] = [:]
    var hooks: [String: @Sendable () -> Void] = [:]
    var signedIn: SignedIn = .fresh
    var cachedStores = false
    var pushGranted = true
    let steps: () -> [Step]
}

/// Runs `body` on the main queue and waits for it: the user's taps happen there.
func onMain<T>(_ body: () -> T) -> T {
    // The scenarios' thread waits while the main queue runs `body`: nothing races with it.
    nonisolated(unsafe) let body = body
    nonisolated(unsafe) var result: T?
    DispatchQueue.main.sync { result = body() }
    return result!
}

let serverError: [ServerAnswer] = [.status(500, body: "")]
let notFound: [ServerAnswer] = [.status(404, body: "")]
let unauthorized: [ServerAnswer] = [.status(401, body: "")]
let offline: [ServerAnswer] = [.transportFailure(.notConnectedToInternet)]

extension Scenario {
    /// A fresh app: the session asked for, empty caches, nothing pending.
    func prepare() {
        Stage.kept = []
        Stage.checkout = nil
        KeyValueStore.standard.removeAll()
        ResponseCache.shared.removeAll()
        CartRepository.shared.forget()
        NotificationService.shared.forget()
        ActivityTracker.shared.reset()
        PushCenter.shared.userWillAnswer(pushGranted)
        switch signedIn {
        case .nobody: break
        case .fresh: KeyValueStore.standard.set("tok-ada", forKey: "token")
        case .expired: KeyValueStore.standard.set("expired-tok", forKey: "token")
        }
        if cachedStores {
            ResponseCache.shared.store([Store(id: 9, name: "Cached Market", isOpen: true, deliveryFee: 0)], for: "stores")
        }
        FakeBackend.shared.configure(answers, hooks: hooks)
    }

    /// Runs the steps one by one; each ends when its effect has happened and every queue the
    /// app uses has gone quiet. Returns the effects in order.
    func run() -> [String] {
        prepare()
        // The server answers only once the tap's synchronous part is over, as a real round
        // trip would: no race with the code after a call.
        NetworkSession.shared.queue.suspend()
        var mark = Effects.shared.mark()
        let steps = onMain { self.steps() }
        for (index, step) in steps.enumerated() {
            if index > 0 {
                NetworkSession.shared.queue.suspend()
                mark = Effects.shared.mark()
            }
            onMain { step.action() }
            NetworkSession.shared.queue.resume()
            if !Effects.shared.waitFor(step.until, after: mark) {
                Effects.shared.record("TIMED OUT waiting for \(step.until)")
            }
            settle()
        }
        return Effects.shared.take()
    }

    /// Anything the app does after a step's effect shows in that step, not the next one: the
    /// queues are flushed until a few rounds in a row add no effect (a round also gives the
    /// thread pool, where migrated code may run, a moment).
    private func settle() {
        var quiet = 0
        var seen = Effects.shared.mark()
        for _ in 0..<200 where quiet < 3 {
            NetworkSession.shared.queue.sync {}
            PushCenter.shared.flush()
            DispatchQueue.main.sync {}
            usleep(2_000)
            let now = Effects.shared.mark()
            quiet = now == seen ? quiet + 1 : 0
            seen = now
        }
    }
}
