/// Waits for every thenable to fulfill.
///
/// ```swift
/// when(fulfilled: userIDs.map(fetchUser)).done { users in
///     show(users)
/// }.catch { error in
///     // the first of them to reject
/// }
/// ```
///
/// - Success: once all have fulfilled, the returned promise is fulfilled with their values in
///   input order, whatever order they settled in. An empty array gives `[]`.
/// - Failure: the returned promise is rejected with the first error, as soon as it happens; the
///   other thenables go on and their outcomes are ignored (use `when(resolved:)` to wait for all).
/// - Threads: the returned promise settles on the thread that settles the last input (or the
///   rejecting one), or at once, on this thread, if the inputs have already settled.
@inlinable
public func when<U: Thenable>(fulfilled thenables: [U]) -> Promise<[U.T]> {
    whenFulfilled(thenables)
}

/// Waits for every thenable of a sequence to fulfill; see `when(fulfilled:)` for arrays.
///
/// The sequence is read once, at once, on this thread.
@inlinable
public func when<Thenables: Sequence>(
    fulfilled thenables: Thenables
) -> Promise<[Thenables.Element.T]> where Thenables.Element: Thenable {
    whenFulfilled(thenables)
}

/// Waits for every `Void` thenable to fulfill; rejected with the first error as soon as it happens.
@inlinable
@_disfavoredOverload
public func when<U: Thenable>(fulfilled promises: U...) -> Promise<Void> where U.T == Void {
    whenAllFulfilled(promises)
}

/// Waits for every `Void` thenable to fulfill; rejected with the first error as soon as it happens.
/// An empty array gives a fulfilled promise.
@inlinable
public func when<U: Thenable>(fulfilled promises: [U]) -> Promise<Void> where U.T == Void {
    whenAllFulfilled(promises)
}

@inlinable
func whenFulfilled<Thenables: Sequence>(
    _ thenables: Thenables
) -> Promise<[Thenables.Element.T]> where Thenables.Element: Thenable {
    let promise = Promise<[Thenables.Element.T]>(pendingAt: nil)
    gather(thenables, entry: fulfilledValueOrStop) { outcome in
        switch outcome {
        case .complete(let values):
            promise.seal(.fulfilled(values))
        case .stopped(let error):
            promise.seal(.rejected(error))
        }
    }
    return promise
}

@inlinable
func whenAllFulfilled<Thenables: Sequence>(
    _ thenables: Thenables
) -> Promise<Void> where Thenables.Element: Thenable, Thenables.Element.T == Void {
    let promise = Promise<Void>(pendingAt: nil)
    gather(thenables, entry: fulfilledValueOrStop) { outcome in
        switch outcome {
        case .complete:
            promise.seal(.fulfilled(()))
        case .stopped(let error):
            promise.seal(.rejected(error))
        }
    }
    return promise
}

/// `when(fulfilled:)`'s rule: keep a value, stop at the first error (a guarantee never has one).
@inlinable
func fulfilledValueOrStop<Value>(_ result: Result<Value>) -> GatheringEntry<Value> {
    switch result {
    case .fulfilled(let value):
        return .element(value)
    case .rejected(let error):
        return .stop(error)
    }
}
