/// Settles as the first promise that an `AsyncSequence` produces to settle, fulfilled or rejected.
///
/// ```swift
/// let fastest = race(mirrors.map { fetch(from: $0) })   // mirrors: an AsyncSequence
/// ```
///
/// The sequence is read in a task that this call starts (nonisolated, at `priority`); each promise
/// it yields is observed as soon as it arrives, with `on: nil`, so no queue has to be drained.
/// The sequence is handed over (`sending`) to that task; its type must be `VowSendableMetatype`
/// (any type is, unless its `AsyncSequence` conformance is isolated to an actor).
///
/// - Success and failure: the first promise to settle decides; reading stops at once (the task is
///   cancelled) and the other promises are ignored, not cancelled.
/// - Empty input: if the sequence ends without producing a promise, the returned promise is
///   rejected with `PMKError.badInput`, as PromiseKit's `race` does for an empty array.
/// - The sequence throwing before any promise settles rejects with that error.
/// - Cancellation: when `cancellation` fires before the returned promise settles, it is rejected
///   with `VowError.cancelled` and reading stops. A token already cancelled rejects without reading.
///
/// This is the `AsyncSequence` overload; arrays and variadic lists go to the combinators' `race`.
public func race<Promises: AsyncSequence>(
    _ promises: sending Promises,
    priority: TaskPriority? = nil,
    cancellation: CancellationToken? = nil
) -> Promise<Promises.Element.T>
where Promises.Element: Thenable, Promises: VowSendableMetatype, Promises.AsyncIterator: VowSendableMetatype {
    let winner = Promise<Promises.Element.T>(pendingAt: nil)
    winner.startFeeding(priority: priority, cancellation: cancellation ?? .none) {
        do {
            var producedAny = false
            for try await promise in promises {
                guard winner.isPending else { break }
                producedAny = true
                promise.pipe { result in winner.seal(result) }
            }
            if !producedAny {
                winner.seal(.rejected(PMKError.badInput))
            }
        } catch {
            winner.seal(.rejected(error))
        }
    }
    return winner
}

/// Settles as the first promise that an `AsyncSequence` produces to settle, as
/// ``race(_:priority:cancellation:)``, and then cancels `source`, so the losers given
/// `source.token` stop.
///
/// - Success and failure: as `race(_:)`; then `source.cancel()` runs on the thread that settled
///   the winner (the same contract as the combinators' `race(_:cancelling:)` for arrays).
/// - `source` is kept alive until the returned promise settles.
public func race<Promises: AsyncSequence>(
    _ promises: sending Promises,
    priority: TaskPriority? = nil,
    cancelling source: CancellationTokenSource
) -> Promise<Promises.Element.T>
where Promises.Element: Thenable, Promises: VowSendableMetatype, Promises.AsyncIterator: VowSendableMetatype {
    let winner = race(promises, priority: priority)
    winner.whenSettled { _ in
        source.cancel()
    }
    return winner
}
