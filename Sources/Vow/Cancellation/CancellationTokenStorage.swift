/// What a source, its tokens and their registrations share: the lock and the state machine.
///
/// Tokens and registrations hold this, never the ``CancellationTokenSource``, so that dropping the
/// source is observable (its `deinit` calls ``abandon()``) while tokens live on.
@usableFromInline
final class CancellationTokenStorage: Sendable {
    private let lock = LockedState(CancellationStateMachine())

    init() {}

    var isCancellationRequested: Bool {
        lock.withLock { $0.isCancellationRequested }
    }

    var canBeCancelled: Bool {
        lock.withLock { $0.canBeCancelled }
    }

    /// Handlers stored and not yet run (diagnostics and tests).
    var storedHandlerCount: Int {
        lock.withLock { $0.storedHandlerCount }
    }

    // MARK: - Handlers

    /// Stores `handler` and returns its id; or, if cancellation has begun, runs it at once on the
    /// calling thread and returns nil; or, if the token can never be cancelled, drops it and
    /// returns nil.
    func addHandler(_ handler: @escaping @Sendable () -> Void) -> UInt64? {
        let action = lock.withLock { $0.register(handler) }
        switch action {
        case .stored(let id):
            return id
        case .runNow:
            handler()
            return nil
        case .discard:
            return nil
        }
    }

    /// Removes the handler with `id`. Returns true if it was removed before it started (it will
    /// never run). With `waitIfRunning`, if the handler is running on another thread, returns only
    /// after it ends; the removed handler is released after the lock is.
    @discardableResult
    func removeHandler(id: UInt64, waitIfRunning: Bool) -> Bool {
        let thread = ThreadIdentity.current
        let action = lock.withLock { $0.unregister(id: id, on: thread, waitIfRunning: waitIfRunning) }
        switch action {
        case .removed:
            return true
        case .waitForRunningHandler(let semaphore):
            semaphore.wait()
            return false
        case .none:
            return false
        }
    }

    // MARK: - Cancelling

    /// Cancels and runs every stored handler once, in registration order, on the calling thread,
    /// without holding the lock. Returns at once if cancellation has begun already (on this
    /// thread from inside a handler, or on another thread).
    func cancel() {
        cancel(delayID: nil)
    }

    /// Called when a `cancel(after:)` fires: cancels only if it is still the pending one.
    func delayElapsed(delayID: UInt64) {
        cancel(delayID: delayID)
    }

    private func cancel(delayID: UInt64?) {
        let thread = ThreadIdentity.current
        let action = lock.withLock { $0.cancel(on: thread, delayID: delayID) }
        guard case .runHandlers = action else { return }
        while true {
            switch lock.withLock({ $0.nextHandler() }) {
            case .run(let handler, let resumingDisposers):
                resumingDisposers.forEach { $0.signal() }
                handler()
            case .finished(let resumingDisposers):
                resumingDisposers.forEach { $0.signal() }
                return
            }
        }
    }

    /// See ``CancellationStateMachine/armDelay()``.
    func armDelay() -> UInt64? {
        lock.withLock { $0.armDelay() }
    }

    func disarmDelay() {
        lock.withLock { $0.disarmDelay() }
    }

    // MARK: - Source deallocated

    /// The source is gone: unless a delayed cancel is pending, the token can never be cancelled
    /// and its handlers are released (here, after unlocking, since releasing a closure can run
    /// arbitrary `deinit`s).
    func abandon() {
        let action = lock.withLock { $0.abandon() }
        // `.release(handlers)` needs nothing more: `action` holds the handlers until this
        // function returns, so they are released outside the lock.
        _ = action
    }
}
