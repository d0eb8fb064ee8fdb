/// Waits for every promise to settle, fulfilled or rejected, and never fails.
///
/// ```swift
/// when(resolved: uploads).done { results in
///     for case .rejected(let error) in results { report(error) }
/// }
/// ```
///
/// - Success: once all have settled, the returned guarantee holds their results in input order,
///   whatever order they settled in. An empty list gives `[]`.
/// - Every rejection is lifted into the array, so each counts as handled.
/// - Threads: the guarantee settles on the thread that settles the last input, or at once, on this
///   thread, if all have already settled.
@inlinable
public func when<T>(resolved promises: Promise<T>...) -> Guarantee<[Result<T>]> {
    whenResolved(promises)
}

/// Waits for every promise of an array to settle; see `when(resolved:)`.
@inlinable
public func when<T>(resolved promises: [Promise<T>]) -> Guarantee<[Result<T>]> {
    whenResolved(promises)
}

@inlinable
func whenResolved<Thenables: Sequence>(
    _ thenables: Thenables
) -> Guarantee<[Result<Thenables.Element.T>]> where Thenables.Element: Thenable {
    let guarantee = Guarantee<[Result<Thenables.Element.T>]>(pendingAt: nil)
    gather(thenables, entry: { .element($0) }) { outcome in
        if case .complete(let results) = outcome {
            guarantee.seal(results)
        }
    }
    return guarantee
}
