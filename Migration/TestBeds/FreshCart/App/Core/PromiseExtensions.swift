import Foundation
import PromiseKit

// The app's own links. Every team using PromiseKit grows a file like this one.

extension Thenable {
    /// Fails with `APIError.timedOut` unless this settles within `seconds`.
    func timeout(seconds: Double) -> Promise<T> {
        let timer = Promise<T> { seal in
            after(seconds: seconds).done {
                seal.reject(APIError.timedOut)
            }
        }
        return race(map { $0 }, timer)
    }

    /// Shows the network activity indicator while this is pending.
    func trackActivity(_ tracker: ActivityTracker) -> Promise<T> {
        tracker.begin()
        return map { $0 }.ensure {
            tracker.end()
        }
    }

    /// Records what the chain produced or why it failed, in debug builds.
    func log(_ label: String) -> Promise<T> {
        tap { result in
            #if DEBUG
            switch result {
            case .fulfilled: Effects.shared.record("log: \(label) ok")
            case .rejected(let error): Effects.shared.record("log: \(label) failed: \(describe(error))")
            }
            #endif
        }
    }
}

extension Promise {
    /// Runs `body` again, after `delay`, when it fails with a transient error, up to `times`
    /// attempts in all.
    static func retry(times: Int, delay: Double = 0.01, _ body: @escaping @Sendable () -> Promise<T>) -> Promise<T> {
        @Sendable func attempt(_ number: Int) -> Promise<T> {
            return body().recover { error -> Promise<T> in
                guard number < times, isTransient(error) else { throw error }
                Effects.shared.record("retrying after \(describe(error))")
                return after(seconds: delay).then { attempt(number + 1) }
            }
        }
        return attempt(1)
    }

    /// The value, or `fallback` when this fails for any reason but cancellation.
    func recoverWith(_ fallback: @escaping @Sendable () -> T?) -> Promise<T> {
        recover { error -> Promise<T> in
            guard let value = fallback() else { throw error }
            return Promise.value(value)
        }
    }
}

extension Promise where T == Void {
    /// A finished chain whose errors show in the given presenter.
    @discardableResult
    func reportErrors(to label: Label) -> PMKFinalizer {
        self.catch { error in
            label.text = describe(error)
        }
    }
}
