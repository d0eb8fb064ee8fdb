/// Settles as the first of the thenables to settle, fulfilled or rejected.
///
/// ```swift
/// race(fetch(from: primary), fetch(from: mirror)).done { response in ... }
/// ```
///
/// - Success and failure: the first settlement wins; later ones are ignored. If several have
///   already settled, the first of them in argument order wins.
/// - No thenables: rejected with `PMKError.badInput`.
/// - Threads: settles on the thread that settles the winner, or at once if one already has.
@inlinable
public func race<U: Thenable>(_ thenables: U...) -> Promise<U.T> {
    race(thenables)
}

/// Settles as the first thenable of the array to settle; an empty array rejects with
/// `PMKError.badInput`. See `race(_:)`.
@inlinable
public func race<U: Thenable>(_ thenables: [U]) -> Promise<U.T> {
    guard !thenables.isEmpty else {
        return Promise(error: PMKError.badInput)
    }
    let winner = Promise<U.T>(pendingAt: nil)
    // One handler shared by every input: nothing is allocated per input.
    let settle: @Sendable (Result<U.T>) -> Void = { result in winner.seal(result) }
    for thenable in thenables {
        thenable.pipe(to: settle)
    }
    return winner
}

/// Settles as the first of the guarantees to settle (the first in argument order if several
/// already have).
@inlinable
public func race<T>(_ guarantees: Guarantee<T>...) -> Guarantee<T> {
    let winner = Guarantee<T>(pendingAt: nil)
    let settle: @Sendable (T) -> Void = { value in winner.seal(value) }
    for guarantee in guarantees {
        guarantee.observe(settle)
    }
    return winner
}

/// Fulfills with the first thenable to fulfill, skipping rejections.
///
/// ```swift
/// race(fulfilled: mirrors.map(fetch)).done { response in ... }
/// ```
///
/// - Success: the first fulfillment wins (the first in array order if several already have).
/// - Failure: if every thenable is rejected, the returned promise is rejected with
///   `PMKError.noWinner`; an empty array rejects with `PMKError.badInput`. Every rejection counts
///   as handled.
/// - Threads: settles on the thread that fulfills the winner (or rejects the last input).
@inlinable
public func race<U: Thenable>(fulfilled thenables: [U]) -> Promise<U.T> {
    guard !thenables.isEmpty else {
        return Promise(error: PMKError.badInput)
    }
    let race = FulfillmentRace<U.T>(entrants: thenables.count)
    let settle: @Sendable (Result<U.T>) -> Void = { result in race.receive(result) }
    for thenable in thenables {
        thenable.pipe(to: settle)
    }
    return race.winner
}

/// Counts the rejections of `race(fulfilled:)`: the first fulfillment wins, and the last of all
/// rejections ends the race with `PMKError.noWinner`.
@usableFromInline
final class FulfillmentRace<Value: Sendable>: Sendable {
    @usableFromInline let winner = Promise<Value>(pendingAt: nil)
    /// Entrants that have not been rejected yet.
    @usableFromInline let standing: LockedState<Int>

    @inlinable
    init(entrants: Int) {
        standing = LockedState(entrants)
    }

    @inlinable
    func receive(_ result: Result<Value>) {
        switch result {
        case .fulfilled:
            winner.seal(result)
        case .rejected:
            let allRejected: Bool = standing.withLock { standing in
                standing -= 1
                return standing == 0
            }
            if allRejected {
                winner.seal(.rejected(PMKError.noWinner))
            }
        }
    }
}
