// `promise.async()` and `guarantee.async()`: PromiseKit 8's spelling of awaiting, kept so that
// PromiseKit code compiles unchanged. Each is exactly the `value` getter (AsyncValue.swift): same
// fast path when settled, same handling of the awaiting task's cancellation.
//
// The name does not clash with `DispatchQueue.async(_:execute:)` or its `.promise` overloads: those
// are members of `DispatchQueue`, these of `Promise` and `Guarantee`.

extension Promise {
    #if compiler(>=6.2)
    /// Waits for the promise and returns its value: PromiseKit 8's spelling of `try await value`.
    ///
    /// ```swift
    /// let user = try await fetchUser(id: 42).async()
    /// ```
    ///
    /// - Fulfilled: returns the value. Rejected: throws the rejection's error. Counts as handling a
    ///   rejection.
    /// - Already settled: returns (or throws) at once, even if the current task is cancelled.
    /// - Pending: suspends until the promise settles. If the awaiting task is cancelled meanwhile,
    ///   this call throws `CancellationError` at once; the promise itself goes on for its other
    ///   observers.
    ///
    /// Runs on the caller's actor (or executor); no queue has to be drained for it to resume.
    @inlinable
    public nonisolated(nonsending) func async() async throws -> T {
        try await value
    }
    #else
    /// Waits for the promise and returns its value: PromiseKit 8's spelling of `try await value`.
    ///
    /// ```swift
    /// let user = try await fetchUser(id: 42).async()
    /// ```
    ///
    /// - Fulfilled: returns the value. Rejected: throws the rejection's error. Counts as handling a
    ///   rejection.
    /// - Already settled: returns (or throws) at once, even if the current task is cancelled.
    /// - Pending: suspends until the promise settles. If the awaiting task is cancelled meanwhile,
    ///   this call throws `CancellationError` at once; the promise itself goes on for its other
    ///   observers.
    ///
    /// No queue has to be drained for it to resume.
    @inlinable
    public func async() async throws -> T {
        try await value
    }
    #endif
}

extension Guarantee {
    #if compiler(>=6.2)
    /// Waits for the guarantee and returns its value: PromiseKit 8's spelling of `await value`.
    ///
    /// Returns at once if the guarantee has settled. Otherwise suspends until it does; a guarantee
    /// cannot fail, so this waits even if the awaiting task is cancelled. Runs on the caller's actor
    /// (or executor); no queue has to be drained for it to resume.
    @inlinable
    public nonisolated(nonsending) func async() async -> T {
        await value
    }
    #else
    /// Waits for the guarantee and returns its value: PromiseKit 8's spelling of `await value`.
    ///
    /// Returns at once if the guarantee has settled. Otherwise suspends until it does; a guarantee
    /// cannot fail, so this waits even if the awaiting task is cancelled. No queue has to be
    /// drained for it to resume.
    @inlinable
    public func async() async -> T {
        await value
    }
    #endif
}
