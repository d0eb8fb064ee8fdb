import Dispatch

// Chain links that a `CancellationToken` can stop (Bolts' continuations with a token).
//
// One rule for every link: the link rejects with `VowError.cancelled` as soon as the token fires
// while the link is pending, and its handler never starts once the token has fired. So:
//   - token fires before the parent settles: the link rejects at once; the handler never runs;
//   - token fires after the parent settled but before the handler started (it was queued on
//     `on:`): the link has rejected already; the handler is skipped;
//   - token fires while the handler runs, or while the link waits for the promise `then`'s
//     handler returned: the link rejects at once; what the handler produces is ignored;
//   - token already cancelled when the link is made: the link rejects at once.
//
// The overloads take `cancellation:` without a default, so calls that leave it out resolve to the
// PromiseKit methods unchanged, and a `nil` token makes a link behave exactly like those. On a
// `Guarantee` they return a `Promise`, since a cancelled link rejects.

// MARK: - Continuations

extension Thenable {
    /// `then` whose handler `token` can skip: runs `body` with the value on `on`, then settles as
    /// the promise it returns.
    ///
    /// ```swift
    /// fetchUser(id).then(cancellation: screenToken) { user in fetchAvatar(user) }
    /// ```
    ///
    /// - Success: as ``then(on:flags:_:)``.
    /// - Failure: a rejection passes through without running `body`; a throw from `body` rejects.
    /// - Cancellation: if `token` fires while the returned promise is pending, it is rejected with
    ///   `VowError.cancelled` at once, on the thread that cancels the token (`body` never starts
    ///   after that; if it is running, or the promise it returned is pending, their outcome is
    ///   ignored). A token cancelled already rejects the returned promise before this returns.
    ///
    /// `body` runs on `on` (by default `conf.Q.map`, the main queue); `nil` runs it on the thread
    /// that settles this promise. The registration on `token` is removed when the returned promise
    /// settles.
    @inlinable
    public func then<U: Thenable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        cancellation token: CancellationToken?,
        _ body: @escaping @Sendable (T) throws -> U
    ) -> Promise<U.T> {
        guard let token, token.canBeCancelled else {
            return then(on: on, flags: flags, body)
        }
        let next = Promise<U.T>(pendingAt: chainCreationSite, cancelledBy: token)
        pipeValue(into: next, on: Dispatcher(on, flags), cancelledBy: token) { value in
            next.adopt { try body(value) }
        }
        return next
    }

    /// `map` whose transform `token` can skip: transforms the value on `on`.
    ///
    /// - Success: the returned promise is fulfilled with what `transform` returns.
    /// - Failure: a rejection passes through without running `transform`; a throw rejects.
    /// - Cancellation: if `token` fires while the returned promise is pending, it is rejected with
    ///   `VowError.cancelled` at once, on the thread that cancels the token, and `transform` never
    ///   starts after that (a result it is computing is ignored). A token cancelled already rejects
    ///   the returned promise before this returns.
    ///
    /// `transform` runs on `on` (by default `conf.Q.map`, the main queue); `nil` runs it on the
    /// thread that settles this promise. The registration on `token` is removed when the returned
    /// promise settles.
    @inlinable
    public func map<U: Sendable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        cancellation token: CancellationToken?,
        _ transform: @escaping @Sendable (T) throws -> U
    ) -> Promise<U> {
        guard let token, token.canBeCancelled else {
            return map(on: on, flags: flags, transform)
        }
        let next = Promise<U>(pendingAt: chainCreationSite, cancelledBy: token)
        pipeValue(into: next, on: Dispatcher(on, flags), cancelledBy: token) { value in
            next.fulfill { try transform(value) }
        }
        return next
    }

    /// `compactMap` whose transform `token` can skip: transforms the value on `on`; `nil` rejects
    /// with `PMKError.compactMap`.
    ///
    /// Success, failure, cancellation and threads as ``map(on:flags:cancellation:_:)``.
    @inlinable
    public func compactMap<U: Sendable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        cancellation token: CancellationToken?,
        _ transform: @escaping @Sendable (T) throws -> U?
    ) -> Promise<U> {
        map(on: on, flags: flags, cancellation: token, Self.compactMapping(transform))
    }

    /// `done` whose handler `token` can skip: runs `body` with the value on `on`.
    ///
    /// - Success: the returned promise is fulfilled with `()` after `body` returns.
    /// - Failure: a rejection passes through without running `body`; a throw rejects.
    /// - Cancellation: as ``map(on:flags:cancellation:_:)``: the returned promise rejects with
    ///   `VowError.cancelled` as soon as `token` fires while it is pending, and `body` never
    ///   starts after that. A `catch` with the default policy skips that error.
    ///
    /// `body` runs on `on` (by default `conf.Q.return`, the main queue); `nil` runs it on the
    /// thread that settles this promise.
    @inlinable
    public func done(
        on: DispatchQueue? = conf.Q.return,
        flags: DispatchWorkItemFlags? = nil,
        cancellation token: CancellationToken?,
        _ body: @escaping @Sendable (T) throws -> Void
    ) -> Promise<Void> {
        map(on: on, flags: flags, cancellation: token, body)
    }

    /// `get` whose handler `token` can skip: runs `body` with the value on `on`, then passes the
    /// value on unchanged.
    ///
    /// Failure and cancellation as ``done(on:flags:cancellation:_:)``; `body` runs on `on` (by
    /// default `conf.Q.return`, the main queue).
    @inlinable
    public func get(
        on: DispatchQueue? = conf.Q.return,
        flags: DispatchWorkItemFlags? = nil,
        cancellation token: CancellationToken?,
        _ body: @escaping @Sendable (T) throws -> Void
    ) -> Promise<T> {
        map(on: on, flags: flags, cancellation: token) { value in
            try body(value)
            return value
        }
    }
}

// MARK: - Recovery

extension CatchMixin {
    /// `recover` whose handler `token` can skip: runs `body` with an error the `policy` handles on
    /// `on`, and settles as the promise it returns.
    ///
    /// - Success: a fulfilled value passes straight through.
    /// - Failure: errors the `policy` does not handle (cancellations, by default) pass through
    ///   unchanged; a throw from `body` rejects.
    /// - Cancellation: if `token` fires while the returned promise is pending (before this promise
    ///   settles, too), it is rejected with `VowError.cancelled` at once, on the thread that
    ///   cancels the token, and `body` never starts after that.
    ///
    /// `body` runs on `on` (by default `conf.Q.map`, the main queue); `nil` runs it on the thread
    /// that settles this promise. The registration on `token` is removed when the returned promise
    /// settles.
    @inlinable
    public func recover<U: Thenable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        policy: CatchPolicy = conf.catchPolicy,
        cancellation token: CancellationToken?,
        _ body: @escaping @Sendable (Error) throws -> U
    ) -> Promise<T> where U.T == T {
        guard let token, token.canBeCancelled else {
            return recover(on: on, flags: flags, policy: policy, body)
        }
        let dispatcher = Dispatcher(on, flags)
        let next = Promise<T>(pendingAt: chainCreationSite, cancelledBy: token)
        pipe { result in
            switch result {
            case .rejected(let error) where policy.handles(error):
                // Cancelled already: not even a hop to the handler's queue.
                guard next.isPending else { return }
                dispatcher.dispatch {
                    guard next.mayStartHandler(cancelledBy: token) else { return }
                    next.adopt { try body(error) }
                }
            case .rejected, .fulfilled:
                next.seal(result)
            }
        }
        return next
    }
}

extension CatchMixin where T == Void {
    /// `recover` whose handler `token` can skip, for `Promise<Void>`: runs `body` with an error the
    /// `policy` handles on `on`; the chain goes on fulfilled unless `body` throws.
    ///
    /// Success, failure, cancellation and threads as
    /// ``CatchMixin/recover(on:flags:policy:cancellation:_:)->Promise<Self.T>``.
    @inlinable
    public func recover(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        policy: CatchPolicy = conf.catchPolicy,
        cancellation token: CancellationToken?,
        _ body: @escaping @Sendable (Error) throws -> Void
    ) -> Promise<Void> {
        recover(on: on, flags: flags, policy: policy, cancellation: token) { error -> Promise<Void> in
            try body(error)
            return Promise()
        }
    }
}

// MARK: - Main actor

extension Thenable {
    /// `then` with a `@MainActor` handler that `token` can skip, run on the main queue.
    /// Otherwise as ``then(on:flags:cancellation:_:)``.
    @inlinable
    public func then<U: Thenable>(
        on: MainActorQueue,
        cancellation token: CancellationToken?,
        _ body: @escaping @MainActor @Sendable (T) throws -> U
    ) -> Promise<U.T> {
        then(on: DispatchQueue.main, cancellation: token) { value in
            try MainActor.assumeIsolated { try body(value) }
        }
    }

    /// `map` with a `@MainActor` transform that `token` can skip, run on the main queue.
    /// Otherwise as ``map(on:flags:cancellation:_:)``.
    @inlinable
    public func map<U: Sendable>(
        on: MainActorQueue,
        cancellation token: CancellationToken?,
        _ transform: @escaping @MainActor @Sendable (T) throws -> U
    ) -> Promise<U> {
        map(on: DispatchQueue.main, cancellation: token) { value in
            try MainActor.assumeIsolated { try transform(value) }
        }
    }

    /// `done` with a `@MainActor` handler that `token` can skip, run on the main queue: the usual
    /// way to stop updating a screen that went away. Otherwise as
    /// ``done(on:flags:cancellation:_:)``.
    @inlinable
    public func done(
        on: MainActorQueue,
        cancellation token: CancellationToken?,
        _ body: @escaping @MainActor @Sendable (T) throws -> Void
    ) -> Promise<Void> {
        done(on: DispatchQueue.main, cancellation: token) { value in
            try MainActor.assumeIsolated { try body(value) }
        }
    }

    /// `get` with a `@MainActor` handler that `token` can skip, run on the main queue.
    /// Otherwise as ``get(on:flags:cancellation:_:)``.
    @inlinable
    public func get(
        on: MainActorQueue,
        cancellation token: CancellationToken?,
        _ body: @escaping @MainActor @Sendable (T) throws -> Void
    ) -> Promise<T> {
        get(on: DispatchQueue.main, cancellation: token) { value in
            try MainActor.assumeIsolated { try body(value) }
        }
    }
}

// MARK: - Engine support

extension Thenable {
    /// The shared half of `then` and `map` with a token: once this promise settles, a rejection
    /// passes straight to `next`, and a value goes to `handler` on `dispatcher`, which must settle
    /// `next`. The handler is skipped if `next` has settled (the token fired) before it starts.
    @inlinable
    func pipeValue<Next: Sendable>(
        into next: Promise<Next>,
        on dispatcher: Dispatcher,
        cancelledBy token: CancellationToken,
        _ handler: @escaping @Sendable (T) -> Void
    ) {
        pipe { result in
            switch result {
            case .fulfilled(let value):
                // Cancelled already: not even a hop to the handler's queue.
                guard next.isPending else { return }
                dispatcher.dispatch {
                    guard next.mayStartHandler(cancelledBy: token) else { return }
                    handler(value)
                }
            case .rejected(let error):
                next.seal(.rejected(error))
            }
        }
    }
}

extension Promise {
    /// A pending chain link that rejects with `VowError.cancelled` as soon as `token` fires (at
    /// once if it has).
    @inlinable
    convenience init(pendingAt site: CreationSite?, cancelledBy token: CancellationToken) {
        self.init(pendingAt: site)
        rejectWhenCancelled(by: token)
    }

    /// Whether a cancellable link may start its handler now: `false` if it has settled, or if
    /// `token` has fired. In that case the link is rejected as cancelled here, because the
    /// cancelling thread may not have reached the link's own token handler yet.
    @inlinable
    func mayStartHandler(cancelledBy token: CancellationToken) -> Bool {
        if token.isCancellationRequested {
            seal(.rejected(VowError.cancelled))
            return false
        }
        return isPending
    }
}
