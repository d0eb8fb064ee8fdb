// PromiseKit 8's spellings on `Resolver` that Vow keeps so that PromiseKit code compiles unchanged.

extension Resolver where T == Void {
    /// Fulfills the promise: PromiseKit's spelling of ``fulfill()``.
    ///
    /// PromiseKit named it with an underscore (its issue 990: `fulfill()` was ambiguous with
    /// `fulfill(_:)` on older compilers); Vow has both, and they do the same. Runs the promise's
    /// handlers at once, on this thread (or queues them on their `on:` queues). A call after the
    /// promise has settled is ignored and reported to `conf.diagnosticHandler`.
    @inlinable
    public func fulfill_() {
        fulfill()
    }
}
