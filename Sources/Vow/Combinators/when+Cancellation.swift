// `when(fulfilled:)` that stops the rest of the work once it cannot succeed.

/// Waits for every promise to fulfill, and cancels `source` as soon as one rejects, so the work
/// still running for the others (given `source.token`) stops instead of finishing for nothing.
///
/// ```swift
/// let source = CancellationTokenSource()
/// when(fulfilled: ids.map { fetchUser($0, cancellation: source.token) }, cancelling: source)
///     .done { users in show(users) }
///     .catch { error in report(error) }
/// ```
///
/// - Success: as `when(fulfilled:)`: fulfilled with every value, in the order of `thenables`,
///   once all have fulfilled; `source` is not cancelled.
/// - Failure: rejected with the first rejection's error, as `when(fulfilled:)`; then, on the
///   thread that delivered that rejection and before any handler of the returned promise runs,
///   `source.cancel()` runs, so every producer and continuation given `source.token` is cancelled
///   (their own promises reject with `VowError.cancelled`, which does not replace the first error).
/// - Cancellation: cancelling `source` from outside cancels the work given its token; the first
///   resulting `VowError.cancelled` rejects the returned promise, which a default `catch` skips.
///
/// The source is kept alive until the returned promise settles. Watching the result does not count
/// as handling it: a rejection nobody handles is still reported.
public func when<U: Thenable>(
    fulfilled thenables: [U],
    cancelling source: CancellationTokenSource
) -> Promise<[U.T]> {
    let all = when(fulfilled: thenables)
    all.whenSettled { result in
        if case .rejected = result {
            source.cancel()
        }
    }
    return all
}
