import Dispatch

/// Cancels its ``token``: the object that owns the decision to stop some work.
///
/// Hand ``token`` to the work; call ``cancel()`` to stop it. Cancellation happens once: later
/// calls do nothing. Deallocating the source without cancelling means its token can never be
/// cancelled, and the handlers registered on it are released without running (unless a
/// ``cancel(after:)-(Double)`` is pending: that still cancels the token when it fires).
///
/// Unlike Bolts' `BFCancellationTokenSource`, a handler registered after cancellation still runs,
/// at once, on the registering thread.
public final class CancellationTokenSource: Sendable {
    private let storage: CancellationTokenStorage
    /// This source's handlers on its parents' tokens, removed when it is deallocated so that a
    /// long-lived parent does not accumulate dead children.
    private let parentRegistrations: [CancellationHandlerKey]

    /// Creates a source that is not cancelled.
    public init() {
        storage = CancellationTokenStorage()
        parentRegistrations = []
    }

    /// Creates a source that is cancelled when any of `tokens` is (and by its own ``cancel()``).
    ///
    /// If one of `tokens` is already cancelled, the new source is cancelled before `init`
    /// returns. Otherwise its handlers run on the thread that cancels the parent, right where the
    /// parent runs its own handler for this source. Cancelling the new source does not cancel the
    /// parents; deallocating it removes its handlers from them. ``CancellationToken/none`` in
    /// `tokens` is ignored.
    public convenience init(linkedTo tokens: [CancellationToken]) {
        self.init(storage: CancellationTokenStorage(), linkedTo: tokens)
    }

    private init(storage: CancellationTokenStorage, linkedTo tokens: [CancellationToken]) {
        self.storage = storage
        // Weak: the parent must not keep this source's tokens' storage alive.
        parentRegistrations = tokens.map { parent in
            parent.addHandler { [weak storage] in storage?.cancel() }
        }
    }

    deinit {
        for registration in parentRegistrations {
            registration.removeHandler()
        }
        storage.abandon()
    }

    /// The token this source cancels. Every call returns an equal token.
    public var token: CancellationToken {
        CancellationToken(storage: storage)
    }

    /// True once ``cancel()`` has begun (also while its handlers are still running). Thread-safe.
    public var isCancellationRequested: Bool {
        storage.isCancellationRequested
    }

    /// Cancels the token, and with it every source linked to it.
    ///
    /// The first call runs every registered handler exactly once, in registration order, on the
    /// calling thread, with no lock held, and returns when they have all run. Later calls, from any
    /// thread, including from inside a handler, return at once (without waiting for handlers still
    /// running on another thread). Thread-safe. Cancels any pending ``cancel(after:)-(Double)``.
    public func cancel() {
        storage.cancel()
    }

    /// Cancels after `seconds`, on a global-queue thread (where the handlers then run), unless
    /// ``cancel()`` happens first.
    ///
    /// A later call replaces the pending one (as .NET's `CancelAfter` does); an infinite or NaN
    /// delay only removes the pending one. Zero or negative cancels as soon as the queue runs. A
    /// pending delayed cancel outlives the source, so `source.cancel(after: 5)` on a source that
    /// is then dropped still cancels its token after 5 seconds. Does nothing if cancellation
    /// has begun.
    public func cancel(after seconds: Double) {
        guard !seconds.isNaN, seconds < .infinity else {
            storage.disarmDelay()
            return
        }
        scheduleCancel(at: DispatchTime.now() + max(seconds, 0))
    }

    /// Cancels after `interval`, on a global-queue thread (where the handlers then run), unless
    /// ``cancel()`` happens first. `.never` only removes the pending delayed cancel. Otherwise as
    /// ``cancel(after:)-(Double)``.
    public func cancel(after interval: DispatchTimeInterval) {
        guard interval != .never else {
            storage.disarmDelay()
            return
        }
        scheduleCancel(at: DispatchTime.now() + interval)
    }

    private func scheduleCancel(at deadline: DispatchTime) {
        guard deadline != .distantFuture else {
            storage.disarmDelay()
            return
        }
        guard let delayID = storage.armDelay() else { return }
        // Holding the storage, not the source: when the delay ends the source may be gone, and the
        // delayed cancel must still reach its tokens (`abandon()` spares a storage with one pending).
        DispatchQueue.global().asyncAfter(deadline: deadline) { [storage] in
            storage.delayElapsed(delayID: delayID)
        }
    }
}
