// How promises and guarantees print: PromiseKit's strings, exactly. None of these count as
// observing a rejection, so printing a promise never hides it from the unhandled-rejection report.

extension Promise: CustomStringConvertible, CustomDebugStringConvertible {
    /// `Promise(…Int)` while pending, then `Promise(3)` or `Promise(error)`, as in PromiseKit.
    public var description: String {
        switch box.inspectWithoutObserving() {
        case nil:
            return "Promise(…\(T.self))"
        case .fulfilled(let value)?:
            return "Promise(\(value))"
        case .rejected(let error)?:
            return "Promise(\(error))"
        }
    }

    /// The type and state, as in PromiseKit: `Promise<Int>.pending(handlers: 0)` (how many
    /// handlers wait on it), `Promise<Int>.fulfilled(3)`, or `Promise<Int>.rejected(Error.dummy)`
    /// (the error's type, then the error).
    public var debugDescription: String {
        switch box.phaseForDescription {
        case .pending(let handlerCount):
            return "Promise<\(T.self)>.pending(handlers: \(handlerCount))"
        case .sealed(.fulfilled(let value)):
            return "Promise<\(T.self)>.fulfilled(\(value))"
        case .sealed(.rejected(let error)):
            return "Promise<\(T.self)>.rejected(\(type(of: error)).\(error))"
        }
    }
}

extension Guarantee: CustomStringConvertible, CustomDebugStringConvertible {
    /// `Guarantee(…Int)` while pending, then `Guarantee(3)`, in the pattern of PromiseKit's
    /// `Promise` (PromiseKit gives guarantees no description of their own).
    public var description: String {
        if let value = box.inspectWithoutObserving() { return "Guarantee(\(value))" }
        return "Guarantee(…\(T.self))"
    }

    /// The type and state, in the pattern of PromiseKit's `Promise`:
    /// `Guarantee<Int>.pending(handlers: 0)` or `Guarantee<Int>.fulfilled(3)`.
    public var debugDescription: String {
        switch box.phaseForDescription {
        case .pending(let handlerCount):
            return "Guarantee<\(T.self)>.pending(handlers: \(handlerCount))"
        case .sealed(let value):
            return "Guarantee<\(T.self)>.fulfilled(\(value))"
        }
    }
}

/// A box's phase as a description shows it: how many handlers wait, or the sealed value.
enum DescribedPhase<Value> {
    case pending(handlerCount: Int)
    case sealed(Value)
}

extension Box {
    /// Whether handlers wait on the box (a pending box with at least one).
    var hasHandlers: Bool {
        handlerCount > 0
    }

    /// The phase for a description; does not count as observing the outcome.
    var phaseForDescription: DescribedPhase<Value> {
        core.withSlot { slot in
            if slot.isSealed { return .sealed(Flavor.value(of: slot)) }
            return .pending(handlerCount: slot.handlerCounts(Value.self).live)
        }
    }
}
