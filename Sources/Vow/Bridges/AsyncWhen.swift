/// Waits for every promise that an `AsyncSequence` produces, and fulfills with their values in the
/// order the sequence produced them.
///
/// ```swift
/// let pages = when(fulfilled: pageURLs.map(download))   // pageURLs: an AsyncSequence
/// ```
///
/// The sequence is read in a task that this call starts (nonisolated, at `priority`); each promise
/// it yields is observed as soon as it arrives, with `on: nil`, so no queue has to be drained.
/// The sequence is handed over (`sending`) to that task; its type must be `VowSendableMetatype`
/// (any type is, unless its `AsyncSequence` conformance is isolated to an actor).
///
/// - Success: once the sequence has ended and every promise it produced has fulfilled, the returned
///   promise is fulfilled with their values in input order (an empty sequence gives `[]`).
/// - Failure: the first promise to reject, or the sequence itself throwing, rejects the returned
///   promise with that error at once; reading stops (the task is cancelled) and later outcomes are
///   ignored. The promises already produced are not cancelled.
/// - Cancellation: when `cancellation` fires before the returned promise settles, it is rejected
///   with `VowError.cancelled` and reading stops. A token already cancelled rejects without reading.
///
/// This is the `AsyncSequence` overload; arrays and other `Sequence`s go to the combinators'
/// `when(fulfilled:)`.
public func when<Promises: AsyncSequence>(
    fulfilled promises: sending Promises,
    priority: TaskPriority? = nil,
    cancellation: CancellationToken? = nil
) -> Promise<[Promises.Element.T]>
where Promises.Element: Thenable, Promises: VowSendableMetatype, Promises.AsyncIterator: VowSendableMetatype {
    let collector = AsyncWhenCollector<Promises.Element.T>()
    collector.combined.startFeeding(priority: priority, cancellation: cancellation ?? .none) {
        do {
            for try await promise in promises {
                guard collector.combined.isPending else { break }
                let index = collector.expectOneMore()
                promise.pipe { result in
                    switch result {
                    case .fulfilled(let value):
                        collector.fulfill(value, at: index)
                    case .rejected(let error):
                        collector.combined.seal(.rejected(error))
                    }
                }
            }
            collector.inputEnded()
        } catch {
            collector.combined.seal(.rejected(error))
        }
    }
    return collector.combined
}

/// Collects the values for `when(fulfilled:)` over an `AsyncSequence`, in input order, and
/// fulfills `combined` once the input has ended and the last value has arrived.
final class AsyncWhenCollector<Value: Sendable>: Sendable {
    private struct State: Sendable {
        var values: [Value?] = []
        var outstanding = 0
        var inputHasEnded = false

        /// Every value, once there is nothing left to wait for.
        var completeValues: [Value]? {
            guard inputHasEnded, outstanding == 0 else { return nil }
            return values.map { $0! }
        }
    }

    let combined = Promise<[Value]>(pendingAt: nil)
    private let state = LockedState(State())

    /// Makes room for one more promise's value. - Returns: Its index.
    func expectOneMore() -> Int {
        state.withLock { state in
            state.values.append(nil)
            state.outstanding += 1
            return state.values.count - 1
        }
    }

    func fulfill(_ value: Value, at index: Int) {
        let complete: [Value]? = state.withLock { state in
            state.values[index] = value
            state.outstanding -= 1
            return state.completeValues
        }
        if let complete {
            combined.seal(.fulfilled(complete))
        }
    }

    func inputEnded() {
        let complete: [Value]? = state.withLock { state in
            state.inputHasEnded = true
            return state.completeValues
        }
        if let complete {
            combined.seal(.fulfilled(complete))
        }
    }
}

/// Waits for every promise that an `AsyncSequence` produces, as ``when(fulfilled:priority:cancellation:)``,
/// and cancels `source` if one of them rejects, so the work given `source.token` stops.
///
/// - Success: as `when(fulfilled:)`; `source` is not cancelled.
/// - Failure: rejected with the first error, then `source.cancel()` runs on the thread that
///   delivered it (the same contract as the combinators' `when(fulfilled:cancelling:)` for arrays).
/// - `source` is kept alive until the returned promise settles.
public func when<Promises: AsyncSequence>(
    fulfilled promises: sending Promises,
    priority: TaskPriority? = nil,
    cancelling source: CancellationTokenSource
) -> Promise<[Promises.Element.T]>
where Promises.Element: Thenable, Promises: VowSendableMetatype, Promises.AsyncIterator: VowSendableMetatype {
    let all = when(fulfilled: promises, priority: priority)
    all.whenSettled { result in
        if case .rejected = result {
            source.cancel()
        }
    }
    return all
}
