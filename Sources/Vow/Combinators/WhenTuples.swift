// `when` over two to five thenables or guarantees of different types, fulfilled with a tuple.
// Each waits for the inputs as `Void` (through the array engine) and then reads their values, all
// of which are fulfilled by then.

/// Waits for both thenables to fulfill and gives their values as a tuple; rejected with the first
/// error as soon as it happens.
@inlinable
public func when<U: Thenable, V: Thenable>(fulfilled pu: U, _ pv: V) -> Promise<(U.T, V.T)> {
    whenAllFulfilled([pu.asVoid(), pv.asVoid()]).map(on: nil) {
        (valueOfFulfilled(pu), valueOfFulfilled(pv))
    }
}

/// Waits for all three thenables to fulfill; see `when(fulfilled:_:)`.
@inlinable
public func when<U: Thenable, V: Thenable, W: Thenable>(
    fulfilled pu: U, _ pv: V, _ pw: W
) -> Promise<(U.T, V.T, W.T)> {
    whenAllFulfilled([pu.asVoid(), pv.asVoid(), pw.asVoid()]).map(on: nil) {
        (valueOfFulfilled(pu), valueOfFulfilled(pv), valueOfFulfilled(pw))
    }
}

/// Waits for all four thenables to fulfill; see `when(fulfilled:_:)`.
@inlinable
public func when<U: Thenable, V: Thenable, W: Thenable, X: Thenable>(
    fulfilled pu: U, _ pv: V, _ pw: W, _ px: X
) -> Promise<(U.T, V.T, W.T, X.T)> {
    whenAllFulfilled([pu.asVoid(), pv.asVoid(), pw.asVoid(), px.asVoid()]).map(on: nil) {
        (valueOfFulfilled(pu), valueOfFulfilled(pv), valueOfFulfilled(pw), valueOfFulfilled(px))
    }
}

/// Waits for all five thenables to fulfill; see `when(fulfilled:_:)`.
@inlinable
public func when<U: Thenable, V: Thenable, W: Thenable, X: Thenable, Y: Thenable>(
    fulfilled pu: U, _ pv: V, _ pw: W, _ px: X, _ py: Y
) -> Promise<(U.T, V.T, W.T, X.T, Y.T)> {
    whenAllFulfilled([pu.asVoid(), pv.asVoid(), pw.asVoid(), px.asVoid(), py.asVoid()]).map(on: nil) {
        (valueOfFulfilled(pu), valueOfFulfilled(pv), valueOfFulfilled(pw), valueOfFulfilled(px),
         valueOfFulfilled(py))
    }
}

/// Waits for both guarantees and gives their values as a tuple.
@inlinable
public func when<U, V>(guarantees gu: Guarantee<U>, _ gv: Guarantee<V>) -> Guarantee<(U, V)> {
    when(guarantees: [gu.asVoid(), gv.asVoid()]).map(on: nil) {
        (valueOfFulfilled(gu), valueOfFulfilled(gv))
    }
}

/// Waits for all three guarantees and gives their values as a tuple.
@inlinable
public func when<U, V, W>(
    guarantees gu: Guarantee<U>, _ gv: Guarantee<V>, _ gw: Guarantee<W>
) -> Guarantee<(U, V, W)> {
    when(guarantees: [gu.asVoid(), gv.asVoid(), gw.asVoid()]).map(on: nil) {
        (valueOfFulfilled(gu), valueOfFulfilled(gv), valueOfFulfilled(gw))
    }
}

/// Waits for all four guarantees and gives their values as a tuple.
@inlinable
public func when<U, V, W, X>(
    guarantees gu: Guarantee<U>, _ gv: Guarantee<V>, _ gw: Guarantee<W>, _ gx: Guarantee<X>
) -> Guarantee<(U, V, W, X)> {
    when(guarantees: [gu.asVoid(), gv.asVoid(), gw.asVoid(), gx.asVoid()]).map(on: nil) {
        (valueOfFulfilled(gu), valueOfFulfilled(gv), valueOfFulfilled(gw), valueOfFulfilled(gx))
    }
}

/// Waits for all five guarantees and gives their values as a tuple.
@inlinable
public func when<U, V, W, X, Y>(
    guarantees gu: Guarantee<U>, _ gv: Guarantee<V>, _ gw: Guarantee<W>, _ gx: Guarantee<X>, _ gy: Guarantee<Y>
) -> Guarantee<(U, V, W, X, Y)> {
    when(guarantees: [gu.asVoid(), gv.asVoid(), gw.asVoid(), gx.asVoid(), gy.asVoid()]).map(on: nil) {
        (valueOfFulfilled(gu), valueOfFulfilled(gv), valueOfFulfilled(gw), valueOfFulfilled(gx),
         valueOfFulfilled(gy))
    }
}

/// The value of an input that a completed `when` has seen fulfilled.
@inlinable
func valueOfFulfilled<U: Thenable>(_ thenable: U) -> U.T {
    guard case .fulfilled(let value)? = thenable.result else {
        preconditionFailure("Vow: `when` completed before all of its inputs were fulfilled")
    }
    return value
}
