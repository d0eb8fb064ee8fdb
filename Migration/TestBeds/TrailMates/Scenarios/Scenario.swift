import Dispatch
import Foundation

/// One user action, and the effect that shows the app is done reacting to it.
struct Step {
    let until: String
    let action: @MainActor () -> Void
}

/// A scenario: how the server answers, what state the app starts in, and what the user does.
struct Scenario: @unchecked Sendable {
    let name: String
    var answers: [String: [ServerAnswer]] = [:]
    var hooks: [String: @Sendable () -> Void] = [:]
    var signedIn = true
    var sessionInMemory = true
    var cachedAvatars: [Int] = []
    var pending: [PendingChange] = []
    let steps: @MainActor () -> [Step]
}

/// Screens the hooks reach while a request is in flight.
@MainActor
enum Stage {
    static var sync: SyncViewController?
    static var trails: TrailListViewController?
}

/// Runs `body` on the main queue and waits for it: the user's taps happen there.
func onMain<T: Sendable>(_ body: @MainActor () -> T) -> T {
    DispatchQueue.main.sync { MainActor.assumeIsolated { body() } }
}

let serverError: [ServerAnswer] = [.status(500, body: "")]
let notFound: [ServerAnswer] = [.status(404, body: "")]
let conflict: [ServerAnswer] = [.status(409, body: "")]
let offline: [ServerAnswer] = [.transportFailure(.notConnectedToInternet)]

extension Scenario {
    /// A fresh app: no session unless asked, empty caches, no observers, no offline changes.
    func prepare() {
        NotificationHub.default.removeAll()
        KeyValueStore.standard.removeAll()
        ImageCache.shared.removeAll()
        WeatherService.shared.forget()
        WeatherService.shared.onForecast = nil
        OfflineQueue.shared.discardAll()
        let session = Session(token: "tok-ada", userID: 1, expiresIn: sessionInMemory ? 3600 : 0)
        APIClient.shared.use(token: signedIn ? session.token : nil)
        APIClient.shared.onSessionExpired = nil
        SessionStore.shared.set(signedIn ? session : nil)
        for id in cachedAvatars { ImageCache.shared.store("cached-\(id)", for: id) }
        for change in pending { OfflineQueue.shared.enqueue(change) }
        FakeBackend.shared.configure(answers, hooks: hooks)
    }

    /// Runs the steps one by one; each ends when its effect has happened and every queue the
    /// app uses has gone quiet. Returns the effects in order.
    func run() -> [String] {
        prepare()
        // The server answers only once the tap's synchronous part is over, as a real round
        // trip would: no race with the code after a call. Opening the screens counts as part
        // of the first step.
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
        onMain {
            Stage.sync = nil
            Stage.trails = nil
        }
        return Effects.shared.take()
    }

    /// Anything the app does after a step's effect shows in that step, not the next one: the
    /// network and main queues are flushed until a few rounds in a row add no effect. (Work
    /// handed from queue to queue takes as many rounds as it has hops; code moved into a task
    /// has a hop or two more than the callbacks it replaced, some of them through Swift's own
    /// thread pool, which no queue flush waits for: a round also gives that pool a moment.)
    private func settle() {
        var quiet = 0
        var seen = Effects.shared.mark()
        for _ in 0..<200 where quiet < 3 {
            NetworkSession.shared.queue.sync {}
            DispatchQueue.main.sync {}
            usleep(2_000)
            let now = Effects.shared.mark()
            quiet = now == seen ? quiet + 1 : 0
            seen = now
        }
    }
}
