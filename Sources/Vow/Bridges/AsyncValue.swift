// `await promise.value` and `await guarantee.value`: the way from promises into async code.
//
// A settled promise answers with one lock read: no continuation, no allocation. A pending one
// registers a single handler (run synchronously, `on: nil`, on the thread that settles it), so the
// bridge never needs the main queue, or any queue, to be drained.
//
// With Swift 6.2 and later the getters are `nonisolated(nonsending)`: they run on the caller's
// actor, so `await promise.value` from `@MainActor` code does not hop off the main actor and back.

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
            if let result = box.inspect() {
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
            if let result = box.inspect() {
                return try result.get()
            }
            return try await valueWhenSettled()
        }
    }
    #endif

    /// Waits for a pending promise with one checked continuation and one small state object.
    /// A cancelled awaiter removes its handler from the promise at once, so awaiters of a promise
    /// that never settles do not accumulate.
    @inlinable
    func valueWhenSettled(isolation: isolated (any Actor)? = #isolation) async throws -> T {
        let awaiter = PromiseAwaiter()
        let settled = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard awaiter.install(continuation) else { return }
                // Runs at once, here, if the promise settled since `value` looked (no key then).
                if let key = box.observeRemovably({ _ in awaiter.settle() }),
                   !awaiter.record(handlerKey: key) {
                    box.removeHandler(key)
                }
                abandonIfOrphaned()
            }
        } onCancel: {
            if let key = awaiter.cancel() {
                box.removeHandler(key)
            }
        }
        guard settled, let result = box.inspect() else {
            throw CancellationError()
        }
        return try result.get()
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
            if let value = box.inspect() {
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
            if let value = box.inspect() {
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
        await withCheckedContinuation { continuation in
            box.observe { value in continuation.resume(returning: value) }
        }
    }
}
