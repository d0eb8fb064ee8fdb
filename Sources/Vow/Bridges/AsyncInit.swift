// `Promise { try await ... }` and `Guarantee { await ... }`: the way from async code into promises.
//
// The body runs in a `Task` that the promise owns: the task keeps the promise alive until the body
// returns, and the promise's token cancels the task. Because the body is `@isolated(any)`, it runs
// where it says it runs: `Promise { @MainActor in ... }` on the main actor, an unannotated body on
// the global concurrent executor, even when written inside actor-isolated code (unlike `Task { }`,
// which inherits the caller's actor).

// MARK: - Promise

extension Promise {
    /// Creates a promise that runs `body` in a new `Task` and settles with its outcome.
    ///
    /// ```swift
    /// func fetchUser(id: Int) -> Promise<User> {
    ///     Promise { try await api.user(id: id) }
    /// }
    /// ```
    ///
    /// - Success: the promise is fulfilled with what `body` returns.
    /// - Failure: the promise is rejected with what `body` throws. A `CancellationError` thrown by
    ///   the body (for example because its task was cancelled) rejects with that same error, which
    ///   answers `isCancelled == true`, so `catch` skips it by default.
    /// - Cancellation: when `cancellation` is cancelled before `body` finishes, the promise is
    ///   rejected at once with `VowError.cancelled` (also `isCancelled`), then the task is
    ///   cancelled; whatever the body returns or throws afterwards is ignored. If the token is
    ///   already cancelled, the body never runs.
    ///
    /// `init` returns at once, without running any of `body`. The body runs on its own isolation:
    /// the main actor for `Promise { @MainActor in ... }`, otherwise the global concurrent executor
    /// (an unannotated body does not inherit the caller's actor, unlike `Task { }`). The promise
    /// settles on whichever thread the body finishes on, so handlers attached with `on: nil` run
    /// there; no queue has to be drained. The promise is settled where the body finished, before
    /// any hop: a main-actor body's promise on the main actor, right after the body returns.
    ///
    /// In the Swift 6 language mode, Swift 6.3 rejects a `@MainActor` body that awaits
    /// ("pattern that the region-based isolation checker does not understand how to check");
    /// write it `@MainActor @Sendable in` (what it captures must then be `Sendable`).
    ///
    /// - Parameters:
    ///   - priority: The task's priority; `nil` inherits the current one, as `Task` does.
    ///   - cancellation: A token that cancels the work (`nil`: none). The registration on it is
    ///     removed when the body finishes.
    ///   - body: The async work.
    ///   - file: Where the promise is created, named in Vow's reports in debug builds; leave the default.
    ///   - line: The line of that place; leave the default.
    @inlinable
    public convenience init(
        priority: TaskPriority? = nil,
        cancellation: CancellationToken? = nil,
        _ body: sending @escaping @isolated(any) () async throws -> T,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.init(pendingAt: CreationSite(file: file, line: line))
        // Inlined so that callers specialize the common, token-free path for their `T`.
        if let cancellation, cancellation.canBeCancelled {
            startCancellableTask(running: body, priority: priority, cancellation: cancellation)
            return
        }
        nonisolated(unsafe) let body = body
        guard let isolation = actorIsolation(of: body) else {
            // A nonisolated body finishes where the task runs: the task seals it there, with no
            // isolated call in between (the common case, kept as cheap as it was).
            startTask(priority: priority) { [self] () async throws -> Void in
                do {
                    seal(.fulfilled(try await body()))
                } catch {
                    seal(.rejected(error))
                }
            }
            return
        }
        startSettlingTask(priority: priority, isolation: isolation) { [self] isolation in
            await settle(on: isolation, running: body)
        }
    }

    /// Runs `body` and seals the promise with its outcome where the body finished: on the body's
    /// own actor (`isolation`), with no hop back to the task's executor first. A main-actor body's
    /// promise is settled on the main actor right after it returns, so handlers on the main queue
    /// are queued then, as when a main-queue handler settles a promise.
    @usableFromInline
    func settle(on isolation: isolated (any Actor)?, running body: sending @escaping @isolated(any) () async throws -> T) async {
        do {
            seal(.fulfilled(try await body()))
        } catch {
            seal(.rejected(error))
        }
    }

    /// The body of `init(priority:cancellation:_:)` when a token can cancel it.
    @usableFromInline
    func startCancellableTask(
        running body: sending @escaping @isolated(any) () async throws -> T,
        priority: TaskPriority?,
        cancellation: CancellationToken
    ) {
        guard !cancellation.isCancellationRequested else {
            seal(.rejected(VowError.cancelled))
            return
        }
        let registrationSlot = TokenRegistrationSlot(token: cancellation)
        nonisolated(unsafe) let body = body
        let task = startSettlingTask(priority: priority, isolation: actorIsolation(of: body)) { [self] isolation in
            await settle(on: isolation, running: body)
            registrationSlot.release()
        }
        registrationSlot.hold(cancellation.register { [self] in
            // Settle first, so awaiters are released even if the body ignores cancellation.
            seal(.rejected(VowError.cancelled))
            task.cancel()
        })
    }
}

// MARK: - Guarantee

extension Guarantee {
    /// Creates a guarantee that runs `body` in a new `Task` and settles with what it returns.
    ///
    /// ```swift
    /// let thumbnail = Guarantee { await renderer.thumbnail(for: photo) }
    /// ```
    ///
    /// - Success: the guarantee settles with what `body` returns.
    /// - Cancellation: cancelling `cancellation` cancels the task; a guarantee cannot fail, so it
    ///   still settles with whatever the body then returns (a body that honours cancellation
    ///   returns early with a fallback value). If the token is already cancelled, the task starts
    ///   already cancelled.
    ///
    /// `init` returns at once, without running any of `body`. The body runs on its own isolation:
    /// the main actor for `Guarantee { @MainActor in ... }`, otherwise the global concurrent
    /// executor (an unannotated body does not inherit the caller's actor, unlike `Task { }`). The
    /// guarantee settles on whichever thread the body finishes on, before any hop; no queue has
    /// to be drained. In the Swift 6 language mode, write a `@MainActor` body that awaits
    /// `@MainActor @Sendable in` (see `Promise.init(priority:cancellation:_:file:line:)`).
    ///
    /// - Parameters:
    ///   - priority: The task's priority; `nil` inherits the current one, as `Task` does.
    ///   - cancellation: A token that cancels the task (`nil`: none). The registration on it is
    ///     removed when the body finishes.
    ///   - body: The async work.
    @inlinable
    public convenience init(
        priority: TaskPriority? = nil,
        cancellation: CancellationToken? = nil,
        _ body: sending @escaping @isolated(any) () async -> T
    ) {
        self.init(pendingAt: nil)
        // Inlined so that callers specialize the common, token-free path for their `T`.
        if let cancellation, cancellation.canBeCancelled {
            startCancellableTask(running: body, priority: priority, cancellation: cancellation)
            return
        }
        nonisolated(unsafe) let body = body
        guard let isolation = actorIsolation(of: body) else {
            // A nonisolated body finishes where the task runs (see `Promise.init`).
            startTask(priority: priority) { [self] () async throws -> Void in
                seal(await body())
            }
            return
        }
        startSettlingTask(priority: priority, isolation: isolation) { [self] isolation in
            await settle(on: isolation, running: body)
        }
    }

    /// Runs `body` and settles the guarantee with what it returns where the body finished, on the
    /// body's own actor (see `Promise.settle(on:running:)`).
    @usableFromInline
    func settle(on isolation: isolated (any Actor)?, running body: sending @escaping @isolated(any) () async -> T) async {
        seal(await body())
    }

    /// The body of `init(priority:cancellation:_:)` when a token can cancel it.
    @usableFromInline
    func startCancellableTask(
        running body: sending @escaping @isolated(any) () async -> T,
        priority: TaskPriority?,
        cancellation: CancellationToken
    ) {
        let registrationSlot = TokenRegistrationSlot(token: cancellation)
        nonisolated(unsafe) let body = body
        let task = startSettlingTask(priority: priority, isolation: actorIsolation(of: body)) { [self] isolation in
            // The token's handler cancels this task only once registered, which may be after the
            // body starts: a token cancelled from the outset must be seen from the body's first line.
            if cancellation.isCancellationRequested {
                withUnsafeCurrentTask { $0?.cancel() }
            }
            await settle(on: isolation, running: body)
            registrationSlot.release()
        }
        registrationSlot.hold(cancellation.register { task.cancel() })
    }
}

// MARK: - Starting the task

/// Starts the task of `Promise { }` or `Guarantee { }`, which runs `run` isolated to the body's
/// actor. A main-actor body's task is queued on the main actor at once, as `Task { @MainActor in }`
/// is, so it starts in the order it was made among the main queue's work (one started on the shared
/// pool first would reach the main actor at a time the pool decides); any other starts on the pool
/// and hops to the body's actor.
@usableFromInline
@discardableResult
func startSettlingTask(
    priority: TaskPriority?,
    isolation: (any Actor)?,
    _ run: sending @escaping (isolated (any Actor)?) async -> Void
) -> Task<Void, any Error> {
    // Used once, by the task only: the check cannot see that the capture is not shared.
    nonisolated(unsafe) let run = run
    if let isolation, isolation === MainActor.shared {
        // `@Sendable`: Swift 6.3 cannot check a `@MainActor` closure that awaits, handed to a
        // `sending @isolated(any)` parameter.
        return startTask(priority: priority) { @MainActor @Sendable () async throws -> Void in
            await run(MainActor.shared)
        }
    }
    return startTask(priority: priority) { () async throws -> Void in
        await run(isolation)
    }
}

/// The actor `body` is isolated to (nil for a nonisolated body): where its promise is settled.
///
/// A function of its own, taking `body` without `sending`: Swift 6.3 crashes reading
/// `.isolation` of a `sending` parameter directly.
@usableFromInline
func actorIsolation<Outcome>(of body: @escaping @isolated(any) () async throws -> Outcome) -> (any Actor)? {
    body.isolation
}

/// Starts `operation` in a new unstructured `Task`, as `Task(priority:operation:)` does, one
/// allocation cheaper.
///
/// `Task.init` hands the runtime a function that returns its result indirectly and may throw; a
/// specialized `Task<Void, Never>.init` must wrap its operation in a thunk to get one, and the
/// thunk's context is an allocation on every task. Here the operation's type is generic and
/// throwing, so the closure a caller passes is already in that form: the task gets it as it is.
/// The attribute keeps the optimizer from specializing this function (which would bring the thunk
/// back); the throwing signature keeps `Task.init` from wrapping a non-throwing operation.
@usableFromInline
@_semantics("optimize.sil.specialize.generic.never")
@inline(never)
@discardableResult
func startTask<Outcome: Sendable>(
    priority: TaskPriority?,
    _ operation: sending @escaping @isolated(any) () async throws -> Outcome
) -> Task<Outcome, any Error> {
    Task(priority: priority, operation: operation)
}
