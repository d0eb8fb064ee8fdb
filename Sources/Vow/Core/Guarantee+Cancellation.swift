// A guarantee that a `CancellationToken` can stop. A guarantee cannot reject, so cancelling one
// settles it with a value chosen up front instead of `VowError.cancelled`.

extension Guarantee {
    /// Creates a pending guarantee that `token` can settle early with `valueIfCancelled`, and runs
    /// `body` at once, on this thread, with the function that settles it.
    ///
    /// ```swift
    /// let thumbnail = Guarantee(cancellation: token, valueIfCancelled: .placeholder) { resolve in
    ///     renderer.render(photo) { image in resolve(image) }
    /// }
    /// ```
    ///
    /// - Success: the first value given to `resolve` settles the guarantee, as in
    ///   ``init(resolver:)``.
    /// - Cancellation: a guarantee cannot fail, so if `token` fires while it is pending it settles
    ///   with `valueIfCancelled` at once, on the thread that cancels the token; what the body
    ///   resolves afterwards is ignored, without a "resolved twice" diagnostic. Code that must
    ///   tell a cancellation from a result should use ``Promise/init(cancellation:ifAbandoned:resolver:file:line:)``,
    ///   which rejects with `VowError.cancelled` and lets the body register cleanup with
    ///   ``Resolver/onCancel(_:)``.
    /// - Already cancelled: `body` never runs, and the guarantee is settled with
    ///   `valueIfCancelled` before `init` returns.
    ///
    /// The registration on `token` holds the guarantee, not `resolve`, and is removed when the
    /// guarantee settles. `nil`, or a token that can never be cancelled, makes this exactly
    /// `Guarantee { resolve in ... }`.
    public convenience init(
        cancellation token: CancellationToken?,
        valueIfCancelled: T,
        resolver body: (@escaping @Sendable (T) -> Void) -> Void
    ) {
        self.init(pendingAt: nil)
        let token = token ?? .none
        if token.canBeCancelled {
            let key = token.addHandler { [self] in
                seal(valueIfCancelled)
            }
            if key.storage != nil {
                observe { _ in key.removeHandler() }
            }
            // The token had fired already: its handler ran at once and the work must not start.
            guard isPending else { return }
        }
        // Kept for its deinit, which reports a resolve function dropped uncalled.
        let resolver = GuaranteeResolver(self)
        body { value in
            if !resolver.guarantee.seal(value), !token.isCancellationRequested {
                conf.diagnosticHandler(.resolvedTwice(nil))
            }
        }
    }
}
