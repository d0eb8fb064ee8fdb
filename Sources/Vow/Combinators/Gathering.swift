/// How one input's outcome counts toward a gathering.
@usableFromInline
enum GatheringEntry<Element> {
    /// Goes into the input's slot.
    case element(Element)
    /// Ends the gathering at once with this error (`when(fulfilled:)`'s first rejection).
    case stop(Error)
}

/// How a gathering ended: every slot filled, in input order, or stopped by one input.
@usableFromInline
enum GatheringOutcome<Element> {
    case complete([Element])
    case stopped(Error)
}

/// Gathers the outcomes of `inputs` in input order and calls `finish` exactly once: at once, on
/// this thread, if every input has already settled (or one stops the gathering), otherwise on the
/// thread that settles the last missing input.
///
/// This is the engine of `when(fulfilled:)`, `when(resolved:)` and `when(guarantees:)`. Inputs that
/// have already settled are read synchronously (reading a result counts as observing it) and
/// stored without any handler, lock or allocation of their own; only inputs still pending get a
/// handler. After a stop, the remaining inputs are still read, so each one is observed.
@inlinable
func gather<Inputs: Sequence, Element: Sendable>(
    _ inputs: Inputs,
    entry: @escaping @Sendable (Result<Inputs.Element.T>) -> GatheringEntry<Element>,
    finish: @escaping @Sendable (GatheringOutcome<Element>) -> Void
) where Inputs.Element: Thenable {
    var remaining = inputs.makeIterator()
    var elements: [Element] = []
    elements.reserveCapacity(inputs.underestimatedCount)

    // While every input so far has settled, elements go straight into the result.
    while let input = remaining.next() {
        guard let result = input.result else {
            gatherPending(first: input, after: elements, remaining: &remaining, entry: entry, finish: finish)
            return
        }
        switch entry(result) {
        case .element(let element):
            elements.append(element)
        case .stop(let error):
            observeAll(&remaining)
            finish(.stopped(error))
            return
        }
    }
    finish(.complete(elements))
}

/// The rest of `gather` once an input is found pending: slots for everything, handlers for the
/// pending inputs.
@inlinable
func gatherPending<Remaining: IteratorProtocol, Element: Sendable>(
    first firstPending: Remaining.Element,
    after settled: [Element],
    remaining: inout Remaining,
    entry: @escaping @Sendable (Result<Remaining.Element.T>) -> GatheringEntry<Element>,
    finish: @escaping @Sendable (GatheringOutcome<Element>) -> Void
) where Remaining.Element: Thenable {
    var slots: [Element?] = []
    slots.reserveCapacity(Swift.max(settled.capacity, settled.count + 1))
    for element in settled {
        slots.append(element)
    }
    var pending: [(slot: Int, input: Remaining.Element)] = [(slots.count, firstPending)]
    slots.append(nil)

    while let input = remaining.next() {
        guard let result = input.result else {
            pending.append((slots.count, input))
            slots.append(nil)
            continue
        }
        switch entry(result) {
        case .element(let element):
            slots.append(element)
        case .stop(let error):
            // The pending inputs were observed when their results were read.
            observeAll(&remaining)
            finish(.stopped(error))
            return
        }
    }

    let gathering = Gathering(slots: slots, missing: pending.count, entry: entry, finish: finish)
    for (slot, input) in pending {
        input.pipe { result in gathering.receive(result, at: slot) }
    }
}

/// Reads the result of every input left, so that a rejection among them counts as observed.
@inlinable
func observeAll<Remaining: IteratorProtocol>(_ remaining: inout Remaining) where Remaining.Element: Thenable {
    while let input = remaining.next() {
        _ = input.result
    }
}

/// The slots of a gathering that waits on pending inputs, filled in whatever order they settle.
///
/// One lock guards the slots and the count of those still missing. The handler that fills the last
/// one takes the array out and calls `finish` after releasing the lock.
@usableFromInline
final class Gathering<Value: Sendable, Element: Sendable>: Sendable {
    @usableFromInline
    struct State: Sendable {
        /// One slot per input, in input order; `nil` until that input settles.
        @usableFromInline var slots: [Element?]
        /// How many slots are still `nil`.
        @usableFromInline var missing: Int
        /// Set once `finish` has been called for.
        @usableFromInline var isOver: Bool

        @inlinable
        init(slots: [Element?], missing: Int) {
            self.slots = slots
            self.missing = missing
            self.isOver = false
        }
    }

    @usableFromInline let state: LockedState<State>
    @usableFromInline let entry: @Sendable (Result<Value>) -> GatheringEntry<Element>
    @usableFromInline let finish: @Sendable (GatheringOutcome<Element>) -> Void

    @inlinable
    init(
        slots: [Element?],
        missing: Int,
        entry: @escaping @Sendable (Result<Value>) -> GatheringEntry<Element>,
        finish: @escaping @Sendable (GatheringOutcome<Element>) -> Void
    ) {
        state = LockedState(State(slots: slots, missing: missing))
        self.entry = entry
        self.finish = finish
    }

    /// Records the outcome of the input in `slot`.
    @inlinable
    func receive(_ result: Result<Value>, at slot: Int) {
        switch entry(result) {
        case .element(let element):
            let completed: [Element?]? = state.withLock { state in
                // A slot is filled once; a thenable that reported twice is ignored the second time.
                guard !state.isOver, case .none = state.slots[slot] else { return nil }
                state.slots[slot] = element
                state.missing -= 1
                guard state.missing == 0 else { return nil }
                state.isOver = true
                return Gathering.takeSlots(from: &state)
            }
            if let completed {
                // Every slot is filled: `missing` reached zero and each slot is filled only once.
                finish(.complete(completed.map { $0.unsafelyUnwrapped }))
            }
        case .stop(let error):
            let abandoned: [Element?]? = state.withLock { state in
                guard !state.isOver else { return nil }
                state.isOver = true
                return Gathering.takeSlots(from: &state)
            }
            if abandoned != nil {
                finish(.stopped(error))
            }
        }
    }

    @inlinable
    static func takeSlots(from state: inout State) -> [Element?] {
        var slots: [Element?] = []
        swap(&slots, &state.slots)
        return slots
    }
}
