import Dispatch

/// The life of one cancellation, as a value: which handlers wait, whether cancellation has begun,
/// and who waits for a running handler.
///
/// It is only ever used inside ``LockedState/withLock(_:)``. Every transition returns an
/// action; ``CancellationTokenStorage`` performs it after releasing the lock, so handlers run, and
/// disposed handlers are released, with no lock held (the design of swift-async-algorithms'
/// `MergeStateMachine`).
///
/// ```
///            cancel()                     last handler ran
/// active ──────────────────▶ cancelling ─────────────────▶ cancelled
///    │
///    │ source deallocated (no delayed cancel pending)
///    ▼
/// abandoned
/// ```
struct CancellationStateMachine: Sendable {
    typealias Handler = @Sendable () -> Void

    private enum State: Sendable {
        /// Not cancelled. Handlers wait keyed by an id that only grows, so sorting the ids gives
        /// registration order; register and dispose stay O(1).
        case active(Active)
        /// `cancel()` has begun: the cancelling thread runs the handlers one at a time, in order.
        /// A handler registered now runs at once on its registering thread.
        case cancelling(Cancelling)
        /// Every handler has run or was disposed. Final.
        case cancelled
        /// The source was deallocated without cancelling: nothing can cancel the token any more,
        /// and its handlers have been released. Final.
        case abandoned
        /// Placeholder while a payload is mutated, so its dictionary is not copied on write.
        case modifying
    }

    private struct Active: Sendable {
        var handlers: [UInt64: Handler] = [:]
        var nextID: UInt64 = 0
        /// The id of the `cancel(after:)` that may still fire; an earlier one finds a newer id
        /// here and does nothing.
        var pendingDelayID: UInt64?
    }

    private struct Cancelling: Sendable {
        var pendingHandlers: [UInt64: Handler]
        var runOrder: [UInt64]
        var nextRunIndex = 0
        var runningHandlerID: UInt64?
        /// Disposers of the running handler, each blocked until its semaphore is signalled.
        var waitingDisposers: [DispatchSemaphore] = []
        let cancellingThread: ThreadIdentity
    }

    private var state: State = .active(Active())

    // MARK: - Queries

    var isCancellationRequested: Bool {
        switch state {
        case .cancelling, .cancelled: true
        case .active, .abandoned: false
        case .modifying: preconditionFailure("CancellationStateMachine read while modifying")
        }
    }

    var canBeCancelled: Bool {
        switch state {
        case .active, .cancelling, .cancelled: true
        case .abandoned: false
        case .modifying: preconditionFailure("CancellationStateMachine read while modifying")
        }
    }

    /// Handlers stored and not yet run (diagnostics and tests).
    var storedHandlerCount: Int {
        switch state {
        case .active(let active): active.handlers.count
        case .cancelling(let cancelling): cancelling.pendingHandlers.count
        case .cancelled, .abandoned: 0
        case .modifying: preconditionFailure("CancellationStateMachine read while modifying")
        }
    }

    // MARK: - Registering

    enum RegisterAction: Sendable {
        /// Stored; `id` unregisters it.
        case stored(id: UInt64)
        /// Cancellation has begun: the caller runs the handler at once, on its own thread.
        case runNow
        /// The token can never be cancelled: the caller drops the handler.
        case discard
    }

    mutating func register(_ handler: @escaping Handler) -> RegisterAction {
        switch state {
        case .active(var active):
            state = .modifying
            let id = active.nextID
            active.nextID += 1
            active.handlers[id] = handler
            state = .active(active)
            return .stored(id: id)
        case .cancelling, .cancelled:
            return .runNow
        case .abandoned:
            return .discard
        case .modifying:
            preconditionFailure("CancellationStateMachine.register while modifying")
        }
    }

    enum UnregisterAction: Sendable {
        /// Removed before it ran; the caller releases it after unlocking.
        case removed(Handler)
        /// It is running on another thread; the caller waits on the semaphore, which the
        /// cancelling thread signals when the handler returns.
        case waitForRunningHandler(DispatchSemaphore)
        /// It has run, is running on this thread, or was removed already.
        case none
    }

    mutating func unregister(id: UInt64, on thread: ThreadIdentity, waitIfRunning: Bool) -> UnregisterAction {
        switch state {
        case .active(var active):
            state = .modifying
            let handler = active.handlers.removeValue(forKey: id)
            state = .active(active)
            return handler.map(UnregisterAction.removed) ?? .none
        case .cancelling(var cancelling):
            state = .modifying
            defer { state = .cancelling(cancelling) }
            if let handler = cancelling.pendingHandlers.removeValue(forKey: id) {
                return .removed(handler)
            }
            guard waitIfRunning, cancelling.runningHandlerID == id, cancelling.cancellingThread != thread else {
                return .none
            }
            let semaphore = DispatchSemaphore(value: 0)
            cancelling.waitingDisposers.append(semaphore)
            return .waitForRunningHandler(semaphore)
        case .cancelled, .abandoned:
            return .none
        case .modifying:
            preconditionFailure("CancellationStateMachine.unregister while modifying")
        }
    }

    // MARK: - Cancelling

    enum CancelAction: Sendable {
        /// The caller runs handlers, asking ``nextHandler()`` for each until it says finished.
        case runHandlers
        case none
    }

    /// Begins cancellation. With `delayID`, only if that `cancel(after:)` is still the pending one.
    mutating func cancel(on thread: ThreadIdentity, delayID: UInt64? = nil) -> CancelAction {
        switch state {
        case .active(let active):
            if let delayID, delayID != active.pendingDelayID {
                return .none
            }
            if active.handlers.isEmpty {
                state = .cancelled
                return .none
            }
            state = .modifying
            state = .cancelling(Cancelling(
                pendingHandlers: active.handlers,
                runOrder: active.handlers.keys.sorted(),
                cancellingThread: thread
            ))
            return .runHandlers
        case .cancelling, .cancelled, .abandoned:
            return .none
        case .modifying:
            preconditionFailure("CancellationStateMachine.cancel while modifying")
        }
    }

    enum NextHandlerAction: Sendable {
        /// Signal the disposers that waited for the previous handler, then run `handler`.
        case run(Handler, resumingDisposers: [DispatchSemaphore])
        /// Signal the disposers that waited for the last handler; cancellation is complete.
        case finished(resumingDisposers: [DispatchSemaphore])
    }

    /// Called by the cancelling thread after ``cancel(on:delayID:)`` said `.runHandlers` and after
    /// each handler returns.
    mutating func nextHandler() -> NextHandlerAction {
        guard case .cancelling(var cancelling) = state else {
            preconditionFailure("CancellationStateMachine.nextHandler outside cancelling")
        }
        state = .modifying
        let resumingDisposers = cancelling.waitingDisposers
        cancelling.waitingDisposers = []
        cancelling.runningHandlerID = nil
        while cancelling.nextRunIndex < cancelling.runOrder.count {
            let id = cancelling.runOrder[cancelling.nextRunIndex]
            cancelling.nextRunIndex += 1
            if let handler = cancelling.pendingHandlers.removeValue(forKey: id) {
                cancelling.runningHandlerID = id
                state = .cancelling(cancelling)
                return .run(handler, resumingDisposers: resumingDisposers)
            }
        }
        state = .cancelled
        return .finished(resumingDisposers: resumingDisposers)
    }

    // MARK: - Delayed cancel

    /// Makes a new `cancel(after:)` the pending one and returns its id, or nil if cancellation has
    /// begun already (nothing to schedule).
    mutating func armDelay() -> UInt64? {
        guard case .active(var active) = state else { return nil }
        state = .modifying
        let id = active.nextID
        active.nextID += 1
        active.pendingDelayID = id
        state = .active(active)
        return id
    }

    /// Forgets the pending `cancel(after:)`, so it does nothing when it fires.
    mutating func disarmDelay() {
        guard case .active(var active) = state else { return }
        state = .modifying
        active.pendingDelayID = nil
        state = .active(active)
    }

    // MARK: - Source deallocated

    enum AbandonAction: Sendable {
        /// The caller releases these handlers after unlocking; they will never run.
        case release([UInt64: Handler])
        case none
    }

    /// The source is gone. Unless a `cancel(after:)` is still pending (it keeps the cancellation
    /// alive, as .NET's timer does), the token can never be cancelled.
    mutating func abandon() -> AbandonAction {
        guard case .active(let active) = state, active.pendingDelayID == nil else { return .none }
        state = .abandoned
        return .release(active.handlers)
    }
}
