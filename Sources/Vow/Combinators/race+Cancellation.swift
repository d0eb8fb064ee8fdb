// `race` that stops the losers once there is a winner.

/// Settles as the first promise to settle, and then cancels `source`, so the losers' work (given
/// `source.token`) stops instead of finishing for nothing.
///
/// ```swift
/// let source = CancellationTokenSource()
/// race(mirrors.map { download(from: $0, cancellation: source.token) }, cancelling: source)
///     .done { data in use(data) }
/// ```
///
/// - Success or failure: as `race(_:)`: the returned promise settles as the first of `thenables`
///   to settle, fulfilled or rejected; `PMKError.badInput` if `thenables` is empty.
/// - Then, on the thread that settled the winner and before any handler of the returned promise
///   runs, `source.cancel()` runs: every loser given `source.token` is cancelled (rejected with
///   `VowError.cancelled`, which the returned promise ignores since it has settled).
/// - Cancellation: cancelling `source` from outside cancels the work given its token; the first
///   `VowError.cancelled` wins the race, and a default `catch` skips it.
///
/// The source is kept alive until the returned promise settles. Watching the result does not count
/// as handling it: a rejection nobody handles is still reported.
public func race<U: Thenable>(
    _ thenables: [U],
    cancelling source: CancellationTokenSource
) -> Promise<U.T> {
    let winner = race(thenables)
    winner.whenSettled { _ in
        source.cancel()
    }
    return winner
}

/// Settles as the first promise to settle, and then cancels `source`.
///
/// `race(_:cancelling:)` with the thenables listed as arguments rather than in an array: success,
/// failure, cancellation and threads are the same.
public func race<U: Thenable>(
    _ thenables: U...,
    cancelling source: CancellationTokenSource
) -> Promise<U.T> {
    race(thenables, cancelling: source)
}

/// Fulfills with the first promise to fulfill, and then cancels `source`, so the others' work
/// (given `source.token`) stops.
///
/// - Success: as `race(fulfilled:)`: fulfilled with the first value; rejections before it are
///   ignored. Then, on the thread that fulfilled the winner and before any handler of the returned
///   promise runs, `source.cancel()` runs.
/// - Failure: if every promise rejects, rejected with `PMKError.noWinner` (`PMKError.badInput` if
///   `thenables` is empty); `source` is cancelled then too, which changes nothing that is left.
/// - Cancellation: cancelling `source` from outside cancels the work given its token; once all of
///   it has rejected, the returned promise rejects with `PMKError.noWinner`.
///
/// The source is kept alive until the returned promise settles. Watching the result does not count
/// as handling it.
public func race<U: Thenable>(
    fulfilled thenables: [U],
    cancelling source: CancellationTokenSource
) -> Promise<U.T> {
    let winner = race(fulfilled: thenables)
    winner.whenSettled { _ in
        source.cancel()
    }
    return winner
}
