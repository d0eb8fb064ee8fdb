// `await promise.value` and `await guarantee.value`: the way from promises into async code.
//
// A settled promise answers with one lock read: no continuation, no allocation. A pending one
// registers a single handler (run synchronously, `on: nil`, on the thread that settles it), so the
// bridge never needs the main queue, or any queue, to be drained.
//
// With Swift 6.2 and later the getters are `nonisolated(nonsending)`: they run on the caller's
// actor, so `await promise.value` from `@MainActor` code does not hop off the main actor and back.

#if !canImport(Darwin) && !VOW_FORCE_PORTABLE_LOCKS
import Synchronization
#endif

// MARK: - Promise

extension Promise {
    #if compiler(>=6.2)
    /// The promise's value, waiting for it if the promise is still pending.
    ///
    /// ```swift
    /// let user = try await fetchUser(id: 42).value
    /// ```
    ///
    /// - Fulfilled: returns the value. Rejected: throws the rejection's error. Reading `value`
    ///   counts as handling a rejection.
    /// - Already settled: returns (or throws) at once, even if the current task is cancelled.
    /// - Pending: suspends until the promise settles. If the awaiting task is cancelled meanwhile,
    ///   this awaiter throws `CancellationError` at once; the promise itself is shared, is not
    ///   cancelled and goes on settling for its other observers.
    /// - A promise whose resolver is deallocated while pending rejects with `VowError.abandoned`,
    ///   which releases its awaiters.
    ///
    /// Runs on the caller's actor (or executor); no queue, not even `conf.Q`'s main queue, has to
    /// be drained for the awaiter to resume. This is PromiseKit's synchronous `value` turned async;
    /// the synchronous look is ``Thenable/valueIfFulfilled``. `Promise.value(_:)`, the static
    /// function that makes a fulfilled promise, is unaffected.
    @inlinable
    public nonisolated(nonsending) var value: T {
        get async throws {
            if box.core.mightBeSealed, let result = box.inspect() {
                return try result.get()
            }
            return try await valueWhenSettled()
        }
    }
    #else
    /// The promise's value, waiting for it if the promise is still pending.
    ///
    /// ```swift
    /// let user = try await fetchUser(id: 42).value
    /// ```
    ///
    /// - Fulfilled: returns the value. Rejected: throws the rejection's error. Reading `value`
    ///   counts as handling a rejection.
    /// - Already settled: returns (or throws) at once, even if the current task is cancelled.
    /// - Pending: suspends until the promise settles. If the awaiting task is cancelled meanwhile,
    ///   this awaiter throws `CancellationError` at once; the promise itself is shared, is not
    ///   cancelled and goes on settling for its other observers.
    /// - A promise whose resolver is deallocated while pending rejects with `VowError.abandoned`,
    ///   which releases its awaiters.
    ///
    /// No queue, not even `conf.Q`'s main queue, has to be drained for the awaiter to resume. This
    /// is PromiseKit's synchronous `value` turned async; the synchronous look is
    /// ``Thenable/valueIfFulfilled``. `Promise.value(_:)`, the static function that makes a
    /// fulfilled promise, is unaffected.
    @inlinable
    public var value: T {
        get async throws {
            if box.core.mightBeSealed, let result = box.inspect() {
                return try result.get()
            }
            return try await valueWhenSettled()
        }
    }
    #endif

    /// Waits for a pending promise with one continuation and no state object of its own.
    ///
    /// The handler registered on the promise owns the continuation: whoever runs it resumes the
    /// awaiter, exactly once. The promise runs it with its result when it settles; a cancelled
    /// awaiter takes it back out of the promise (so a promise that never settles does not hold
    /// cancelled awaiters) and, if it got it, runs it with `CancellationError` itself. The box's
    /// lock decides which of the two gets the handler. What is left to share between the awaiting
    /// code and the cancellation handler is the handler's key, in a word on this frame:
    /// `0` (nothing yet), `key + 1` (registered), or ``AwaitRegistration/cancelled``; whichever of
    /// the two comes second removes the handler.
    #if compiler(>=6.2)
    @inlinable
    nonisolated(nonsending) func valueWhenSettled() async throws -> T {
        let registration = AwaitRegistration()
        let result: Result<T>
        let isolation = #isolation
        if let isolation {
            result = await settlement(registeredIn: registration, isolation: isolation)
        } else {
            // No actor: `withTaskCancellationHandler`'s `isolated` parameter would switch
            // executors (to the one the caller is on) on the way in, into the operation, and out
            // again, each switch an atomic read of the task's status. This form inherits the
            // caller's executor; its operation, like the caller, runs where nonisolated code
            // runs (the generic executor, or the task's preferred one).
            result = await _unsafeInheritExecutor_withTaskCancellationHandler {
                await _unsafeInheritExecutor_withUnsafeContinuation { (continuation: UnsafeContinuation<Result<T>, Never>) in
                    awaitSettlement(resuming: continuation, registration: registration)
                }
            } onCancel: {
                leave(registration)
            }
        }
        return try result.get()
    }
    #else
    @inlinable
    func valueWhenSettled(isolation: isolated (any Actor)? = #isolation) async throws -> T {
        let registration = AwaitRegistration()
        return try await settlement(registeredIn: registration, isolation: isolation).get()
    }
    #endif

    /// Waits for the settlement on `isolation`'s executor, where the caller is: the continuation
    /// resumes the awaiter there directly.
    @inlinable
    func settlement(registeredIn registration: borrowing AwaitRegistration, isolation: isolated (any Actor)?) async -> Result<T> {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Result<T>, Never>) in
                awaitSettlement(resuming: continuation, registration: registration)
            }
        } onCancel: {
            leave(registration)
        }
    }

    /// The awaiter's task was cancelled: takes its handler back out of the box and resumes it
    /// with `CancellationError`, if it was registered and the promise has not run it; otherwise
    /// marks the registration so that the awaiting code does that itself once it registers.
    @inlinable
    func leave(_ registration: borrowing AwaitRegistration) {
        if let key = registration.cancel() {
            box.removeHandlerReturning(key)?(.rejected(CancellationError()))
        }
    }

    /// Registers an awaiter's continuation on the box: `valueWhenSettled`'s work before it suspends.
    @inlinable
    func awaitSettlement(resuming continuation: UnsafeContinuation<Result<T>, Never>, registration: borrowing AwaitRegistration) {
        // Resumed at once, here, if the promise settled since `value` looked (no key then).
        // A task cancelled before it got here has run `onCancel` already: `record` fails.
        if let key = box.observeRemovably(continuation: continuation),
           !registration.record(key) {
            // Cancelled meanwhile: take the handler back, unless the promise has run it.
            box.removeHandlerReturning(key)?(.rejected(CancellationError()))
        }
        abandonIfOrphaned()
    }
}

/// The key of an awaiter's handler, shared by the awaiting code and its cancellation handler
/// (see `Promise.valueWhenSettled`), in a word on the awaiter's frame: an atomic on Linux, a
/// lock elsewhere (no `Atomic` below Vow's Apple deployment floor).
@usableFromInline
struct AwaitRegistration: ~Copyable, Sendable {
    /// `0`: nothing happened yet; `key + 1`: the handler is registered under `key`; `cancelled`.
    @usableFromInline static var cancelled: UInt64 { .max }

    #if canImport(Darwin) || VOW_FORCE_PORTABLE_LOCKS
    @usableFromInline let state: LockedState<UInt64>

    @inlinable
    init() {
        state = LockedState(0)
    }

    /// Records the key of the registered handler.
    /// - Returns: `false` if the awaiter was cancelled first: the caller takes the handler back.
    @inlinable
    borrowing func record(_ key: UInt32) -> Bool {
        state.withLock { state in
            guard state != Self.cancelled else { return false }
            state = UInt64(key) + 1
            return true
        }
    }

    /// Marks the awaiter cancelled.
    /// - Returns: the key of the handler to take back, if it was registered.
    @inlinable
    borrowing func cancel() -> UInt32? {
        let previous: UInt64 = state.withLock { state in
            defer { state = Self.cancelled }
            return state
        }
        return Self.key(from: previous)
    }
    #else
    @usableFromInline let state: Atomic<UInt64>

    @inlinable
    init() {
        state = Atomic(0)
    }

    /// Records the key of the registered handler.
    /// - Returns: `false` if the awaiter was cancelled first: the caller takes the handler back.
    @inlinable
    borrowing func record(_ key: UInt32) -> Bool {
        // Acquire-release: the key is published to, or the cancellation seen from, the other side.
        state.compareExchange(expected: 0, desired: UInt64(key) + 1, ordering: .acquiringAndReleasing).exchanged
    }

    /// Marks the awaiter cancelled.
    /// - Returns: the key of the handler to take back, if it was registered.
    @inlinable
    borrowing func cancel() -> UInt32? {
        Self.key(from: state.exchange(Self.cancelled, ordering: .acquiringAndReleasing))
    }
    #endif

    @inlinable
    static func key(from state: UInt64) -> UInt32? {
        guard state != 0, state != cancelled else { return nil }
        return UInt32(truncatingIfNeeded: state - 1)
    }
}

// MARK: - Guarantee

extension Guarantee {
    #if compiler(>=6.2)
    /// The guarantee's value, waiting for it if the guarantee is still pending.
    ///
    /// ```swift
    /// let image = await thumbnail(for: photo).value
    /// ```
    ///
    /// - Already settled: returns at once, without suspending.
    /// - Pending: suspends until the guarantee settles. A guarantee cannot fail, so this waits even
    ///   if the awaiting task is cancelled (cancellation is up to whatever settles the guarantee).
    ///   A guarantee that is never settled keeps its awaiters waiting; Vow logs
    ///   `.pendingGuaranteeDeallocated` when its resolve function is dropped.
    ///
    /// Runs on the caller's actor (or executor); no queue, not even `conf.Q`'s main queue, has to
    /// be drained for the awaiter to resume. `Guarantee.value(_:)`, the static function that makes
    /// a settled guarantee, is unaffected.
    @inlinable
    public nonisolated(nonsending) var value: T {
        get async {
            if box.core.mightBeSealed, let value = box.inspect() {
                return value
            }
            return await valueWhenSettled()
        }
    }
    #else
    /// The guarantee's value, waiting for it if the guarantee is still pending.
    ///
    /// ```swift
    /// let image = await thumbnail(for: photo).value
    /// ```
    ///
    /// - Already settled: returns at once, without suspending.
    /// - Pending: suspends until the guarantee settles. A guarantee cannot fail, so this waits even
    ///   if the awaiting task is cancelled (cancellation is up to whatever settles the guarantee).
    ///   A guarantee that is never settled keeps its awaiters waiting; Vow logs
    ///   `.pendingGuaranteeDeallocated` when its resolve function is dropped.
    ///
    /// No queue, not even `conf.Q`'s main queue, has to be drained for the awaiter to resume.
    /// `Guarantee.value(_:)`, the static function that makes a settled guarantee, is unaffected.
    @inlinable
    public var value: T {
        get async {
            if box.core.mightBeSealed, let value = box.inspect() {
                return value
            }
            return await valueWhenSettled()
        }
    }
    #endif

    /// Waits for a pending guarantee. Its handler runs exactly once, so it can own the
    /// continuation outright: no state object is needed.
    @inlinable
    func valueWhenSettled(isolation: isolated (any Actor)? = #isolation) async -> T {
        // Unchecked: the box runs each handler exactly once.
        await withUnsafeContinuation { continuation in
            _ = box.observeRemovably(continuation: continuation)
        }
    }
}
