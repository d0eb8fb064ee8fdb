/// Pulls promises from `promiseIterator` lazily, keeps at most `concurrently` of them pending at
/// once, and waits for all of them to fulfill.
///
/// ```swift
/// var urls = downloads.makeIterator()
/// let generator = AnyIterator { urls.next().map(download) }
/// when(fulfilled: generator, concurrently: 3).done { files in ... }   // never more than 3 downloads
/// ```
///
/// The iterator is asked for the first promises at once, on this thread, then for one more each
/// time one fulfills, on the thread that fulfilled it; never from two threads at once, and never
/// while Vow holds a lock.
///
/// - Success: once the iterator is exhausted and every promise it gave has fulfilled, the returned
///   promise is fulfilled with their values in the order the iterator gave them.
///   An empty iterator gives `[]`.
/// - Failure: the first rejection rejects the returned promise at once, and the iterator is not
///   asked for more. `concurrently` below 1 rejects with `PMKError.badInput`.
@inlinable
public func when<It: IteratorProtocol>(
    fulfilled promiseIterator: It,
    concurrently: Int
) -> Promise<[It.Element.T]> where It.Element: Thenable {
    guard concurrently > 0 else {
        return Promise(error: PMKError.badInput)
    }
    let promise = Promise<[It.Element.T]>(pendingAt: nil)
    let pull = LimitedPull(promiseIterator, limit: concurrently, stopsAtFirstRejection: true) { outcome in
        switch outcome {
        case .complete(let results):
            promise.seal(.fulfilled(results.map(valueOfFulfilledResult)))
        case .stopped(let error):
            promise.seal(.rejected(error))
        }
    }
    pull.pullWhileThereIsRoom()
    return promise
}

/// Pulls promises from `promiseIterator` lazily, keeps at most `concurrently` of them pending at
/// once, and waits for all of them to settle, whatever their outcome; see
/// `when(fulfilled:concurrently:)` for how the iterator is used.
///
/// The guarantee holds the results in the order the iterator gave the promises. `concurrently`
/// below 1 gives a single `.rejected(PMKError.badInput)`, as PromiseKit does.
@inlinable
public func when<It: IteratorProtocol>(
    resolved promiseIterator: It,
    concurrently: Int
) -> Guarantee<[Result<It.Element.T>]> where It.Element: Thenable {
    guard concurrently > 0 else {
        return .value([.rejected(PMKError.badInput)])
    }
    let guarantee = Guarantee<[Result<It.Element.T>]>(pendingAt: nil)
    let pull = LimitedPull(promiseIterator, limit: concurrently, stopsAtFirstRejection: false) { outcome in
        if case .complete(let results) = outcome {
            guarantee.seal(results)
        }
    }
    pull.pullWhileThereIsRoom()
    return guarantee
}

@inlinable
func valueOfFulfilledResult<Value>(_ result: Result<Value>) -> Value {
    guard case .fulfilled(let value) = result else {
        preconditionFailure("Vow: when(fulfilled:concurrently:) completed with a rejected input")
    }
    return value
}

/// The state machine behind `when(_:concurrently:)`.
///
/// One thread at a time holds the *pulling* role and calls the iterator; the role is taken and
/// handed back under the lock, so the iterator needs no lock of its own and user code never runs
/// under Vow's. A promise that settles while another thread pulls just updates the counts; the
/// puller sees the room it made before giving the role back, so no pull is ever lost. Promises that
/// have already settled are handled inside the puller's loop, never by recursion.
@usableFromInline
final class LimitedPull<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `pullNext`, and the iterator it holds, is only called by the thread that holds
    // the pulling role (`State.isPulling`), taken and released under `state`'s lock; everything
    // else is in `state` or immutable.

    /// Registers a handler on one pulled promise.
    @usableFromInline typealias Observe = (@escaping @Sendable (Result<Value>) -> Void) -> Void

    @usableFromInline
    struct State: Sendable {
        /// One slot per promise pulled so far, in pull order.
        @usableFromInline var results: [Result<Value>?] = []
        /// Pulled (or being pulled) and not yet settled.
        @usableFromInline var inFlight = 0
        @usableFromInline var isPulling = false
        @usableFromInline var isExhausted = false
        @usableFromInline var isOver = false

        @inlinable
        init() {}
    }

    /// What a settled promise leads to, decided under the lock.
    @usableFromInline
    enum Reaction {
        case nothing
        case pullMore
        case complete([Result<Value>?])
        case stop(Error)
    }

    /// The iterator, type-erased so that handlers capture nothing of its type.
    @usableFromInline let pullNext: () -> Observe?
    @usableFromInline let limit: Int
    @usableFromInline let stopsAtFirstRejection: Bool
    @usableFromInline let state = LockedState(State())
    @usableFromInline let finish: @Sendable (GatheringOutcome<Result<Value>>) -> Void

    @inlinable
    convenience init<Iterator: IteratorProtocol>(
        _ iterator: Iterator,
        limit: Int,
        stopsAtFirstRejection: Bool,
        finish: @escaping @Sendable (GatheringOutcome<Result<Value>>) -> Void
    ) where Iterator.Element: Thenable, Iterator.Element.T == Value {
        var iterator = iterator
        self.init(
            pullNext: {
                guard let next = iterator.next() else { return nil }
                return { handler in next.pipe(to: handler) }
            },
            limit: limit,
            stopsAtFirstRejection: stopsAtFirstRejection,
            finish: finish
        )
    }

    @inlinable
    init(
        pullNext: @escaping () -> Observe?,
        limit: Int,
        stopsAtFirstRejection: Bool,
        finish: @escaping @Sendable (GatheringOutcome<Result<Value>>) -> Void
    ) {
        self.pullNext = pullNext
        self.limit = limit
        self.stopsAtFirstRejection = stopsAtFirstRejection
        self.finish = finish
    }

    /// Takes the pulling role unless another thread has it, and pulls until the limit is reached,
    /// the iterator is exhausted or the gathering is over.
    @inlinable
    func pullWhileThereIsRoom() {
        let tookRole: Bool = state.withLock { state in
            guard !state.isPulling else { return false }
            state.isPulling = true
            return true
        }
        guard tookRole else { return }

        while true {
            let mayPull: Bool = state.withLock { state in
                guard !state.isOver, !state.isExhausted, state.inFlight < limit else {
                    state.isPulling = false
                    return false
                }
                // Reserve the room before pulling, so the limit holds while `next()` runs.
                state.inFlight += 1
                return true
            }
            guard mayPull else { return }

            guard let observe = pullNext() else {
                let completed: [Result<Value>?]? = state.withLock { state in
                    state.isExhausted = true
                    state.inFlight -= 1
                    return LimitedPull.completeIfDone(&state)
                }
                if let completed {
                    finish(.complete(completed.map { $0.unsafelyUnwrapped }))
                }
                continue
            }
            let slot: Int = state.withLock { state in
                state.results.append(nil)
                return state.results.count - 1
            }
            // Observed even if the gathering is already over, so a rejection counts as handled.
            observe { result in self.receive(result, at: slot) }
        }
    }

    @inlinable
    func receive(_ result: Result<Value>, at slot: Int) {
        let reaction: Reaction = state.withLock { state in
            state.inFlight -= 1
            guard !state.isOver else { return .nothing }
            if stopsAtFirstRejection, case .rejected(let error) = result {
                state.isOver = true
                state.results = []
                return .stop(error)
            }
            state.results[slot] = result
            if let completed = LimitedPull.completeIfDone(&state) {
                return .complete(completed)
            }
            return .pullMore
        }
        switch reaction {
        case .nothing:
            break
        case .pullMore:
            pullWhileThereIsRoom()
        case .complete(let results):
            finish(.complete(results.map { $0.unsafelyUnwrapped }))
        case .stop(let error):
            finish(.stopped(error))
        }
    }

    /// Ends the gathering if the iterator is exhausted and nothing is in flight.
    /// - Returns: The results to finish with, if it ended now.
    @inlinable
    static func completeIfDone(_ state: inout State) -> [Result<Value>?]? {
        guard !state.isOver, state.isExhausted, state.inFlight == 0 else { return nil }
        state.isOver = true
        var results: [Result<Value>?] = []
        swap(&results, &state.results)
        return results
    }
}
