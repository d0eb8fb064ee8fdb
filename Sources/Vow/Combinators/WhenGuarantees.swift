/// Waits for every `Void` guarantee.
///
/// The guarantee settles on the thread that settles the last input, or at once, on this thread,
/// if all have already settled. No arguments give a settled guarantee.
@inlinable
public func when(_ guarantees: Guarantee<Void>...) -> Guarantee<Void> {
    when(guarantees: guarantees)
}

/// Waits for every guarantee and gives their values in input order.
@inlinable
public func when<T>(_ guarantees: Guarantee<T>...) -> Guarantee<[T]> {
    when(guarantees: guarantees)
}

/// Waits for every `Void` guarantee of an array; an empty array gives a settled guarantee.
@inlinable
public func when(guarantees: [Guarantee<Void>]) -> Guarantee<Void> {
    let joined = Guarantee<Void>(pendingAt: nil)
    gather(guarantees, entry: fulfilledValueOrStop) { _ in
        joined.seal(())
    }
    return joined
}

/// Waits for every guarantee of an array and gives their values in input order, whatever order
/// they settled in; an empty array gives `[]`.
///
/// The guarantee settles on the thread that settles the last input, or at once, on this thread,
/// if all have already settled.
@inlinable
public func when<T>(guarantees: [Guarantee<T>]) -> Guarantee<[T]> {
    let joined = Guarantee<[T]>(pendingAt: nil)
    gather(guarantees, entry: fulfilledValueOrStop) { outcome in
        if case .complete(let values) = outcome {
            joined.seal(values)
        }
    }
    return joined
}
