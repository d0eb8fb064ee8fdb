// Producers that a `CancellationToken` can stop: `Promise(cancellation:resolver:)` and the cleanup
// its body registers with `seal.onCancel`.
//
// Every handler the library stores on a token holds the promise, never its resolver, so a resolver
// that is dropped still abandons the promise; and every such handler is removed when the promise
// settles, so a long-lived token does not accumulate one per promise it ever saw.

// MARK: - Producer

extension Promise {
    /// Creates a pending promise that `token` can cancel, and runs `body` at once, on this thread,
    /// with its resolver.
    ///
    /// ```swift
    /// func download(_ url: URL, cancellation token: CancellationToken?) -> Promise<Data> {
    ///     Promise(cancellation: token) { seal in
    ///         let task = session.dataTask(with: url) { data, _, error in seal.resolve(data, error) }
    ///         seal.onCancel { task.cancel() }
    ///         task.resume()
    ///     }
    /// }
    /// ```
    ///
    /// - Success and failure: as ``init(resolver:file:line:)``: the body settles the promise
    ///   through `seal`, a throw rejects it, and a resolver dropped while the promise is pending
    ///   rejects it with `VowError.abandoned`.
    /// - Cancellation: if `token` fires while the promise is pending, the promise is rejected with
    ///   `VowError.cancelled` at once, on the thread that cancels the token, and then the cleanup
    ///   the body registered with ``Resolver/onCancel(_:)`` runs there. Whatever the body settles
    ///   afterwards is ignored, without a "resolved twice" diagnostic. Cancelling after the promise
    ///   settled changes nothing.
    /// - Already cancelled: if `token` is cancelled before this call, `body` never runs and the
    ///   promise is rejected with `VowError.cancelled` before `init` returns.
    ///
    /// Whichever comes first, cancellation or abandonment, settles the promise. The registration
    /// on `token` holds the promise, not the resolver, and is removed when the promise settles.
    ///
    /// - Parameters:
    ///   - token: Cancels the work. `nil`, or a token that can never be cancelled, makes this
    ///     exactly `Promise { seal in ... }`.
    ///   - policy: What a resolver dropped while the promise is pending does: rejects it as
    ///     abandoned (``AbandonmentPolicy/report``, the default) or leaves it pending silently
    ///     (``AbandonmentPolicy/stayPending``), where cancellation can still settle it.
    ///   - body: Starts the work; called once, synchronously, unless `token` is already cancelled.
    ///   - file: Where the promise is created, named in Vow's reports in debug builds; leave the default.
    ///   - line: The line of that place; leave the default.
    public convenience init(
        cancellation token: CancellationToken?,
        ifAbandoned policy: AbandonmentPolicy = .report,
        resolver body: (Resolver<T>) throws -> Void,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.init(pendingAt: CreationSite(file: file, line: line))
        let token = token ?? .none
        if token.canBeCancelled {
            rejectWhenCancelled(by: token)
            // The token had fired already: its handler ran at once and the work must not start.
            guard isPending else { return }
        }
        let resolver = policy == .stayPending
            ? PendingCancellableResolver(self, cancellation: token)
            : CancellableResolver(self, cancellation: token)
        do {
            try body(resolver)
        } catch {
            resolver.reject(error)
        }
    }
}

// MARK: - Cleanup

extension Resolver {
    /// Registers `cleanup` to run once if the promise is cancelled by the token given to
    /// ``Promise/init(cancellation:ifAbandoned:resolver:file:line:)``: cancel the URL task, close the file.
    ///
    /// - Cancellation while pending: `cleanup` runs once, on the thread that cancels the token,
    ///   after the promise has been rejected with `VowError.cancelled`, with no lock held.
    /// - Registered after that cancellation: `cleanup` runs at once, on this thread.
    /// - Settled otherwise (fulfilled, rejected, abandoned): `cleanup` never runs; it is released
    ///   when the promise settles, so registering on a long-lived token leaves nothing behind.
    /// - A resolver without a token (from `Promise { seal in ... }`, `Promise.pending()`, or a
    ///   `nil` token): nothing can cancel the promise, so `cleanup` is released without running.
    ///
    /// `cleanup` may capture the resolver: it is released when the promise settles.
    public func onCancel(_ cleanup: @escaping @Sendable () -> Void) {
        let token = cancellation
        guard token.canBeCancelled else { return }
        let promise = self.promise
        let key = token.addHandler {
            // While another thread runs the token's handlers, a late registration runs at once,
            // possibly before the promise's own handler: settle the promise here too. Clean up only
            // if the cancellation, not the work, settled it.
            promise.seal(.rejected(VowError.cancelled))
            if promise.wasCancelled(by: token) {
                cleanup()
            }
        }
        guard key.storage != nil else { return }
        promise.whenSettled { _ in
            // Once cancellation has begun, this handler runs (or ran) and decides for itself;
            // removing it here would lose the cleanup of a promise the token itself just settled.
            guard !token.isCancellationRequested else { return }
            key.removeHandler()
        }
    }
}

// MARK: - Engine support

extension Promise {
    /// Makes this pending promise reject with `VowError.cancelled` as soon as `token` fires (at
    /// once, on this thread, if it has), and removes that registration when the promise settles
    /// either way. The handler holds the promise, never a resolver, so abandonment still works.
    @inlinable
    func rejectWhenCancelled(by token: CancellationToken) {
        let key = token.addHandler { [self] in
            seal(.rejected(VowError.cancelled))
        }
        removeWhenSettled(key)
    }

    /// Removes the token handler `key` once this promise settles, without counting as handling a
    /// rejection (so an unhandled one is still reported).
    @inlinable
    func removeWhenSettled(_ key: CancellationHandlerKey) {
        // An inert key stored nothing: the handler already ran, or the token can never fire.
        guard key.storage != nil else { return }
        whenSettled { _ in key.removeHandler() }
    }

    /// `true` if `token` has fired and this promise was rejected with `VowError.cancelled`.
    @usableFromInline
    func wasCancelled(by token: CancellationToken) -> Bool {
        guard token.isCancellationRequested,
              case .rejected(VowError.cancelled)? = box.inspectWithoutObserving()
        else { return false }
        return true
    }
}
