/// The handlers waiting on a pending box, stored so that the common cases (none, one) allocate
/// nothing beyond the handler itself.
@usableFromInline
enum PendingHandlers<Value: Sendable>: Sendable {
    case none
    case one(@Sendable (Value) -> Void)
    case many([@Sendable (Value) -> Void])

    @inlinable
    mutating func append(_ handler: @escaping @Sendable (Value) -> Void) {
        switch self {
        case .none:
            self = .one(handler)
        case .one(let first):
            self = .many([first, handler])
        case .many(var handlers):
            // Drop our own reference first so the array is uniquely referenced and grows in place.
            self = .none
            handlers.append(handler)
            self = .many(handlers)
        }
    }

    /// Runs every handler, in registration order, through the thread's trampoline.
    @inlinable
    func run(with value: Value) {
        switch self {
        case .none:
            break
        case .one(let handler):
            Trampoline.run(handler, with: value)
        case .many(let handlers):
            Trampoline.run(handlers, with: value)
        }
    }
}

/// What a box holds: handlers while pending, then its value forever.
@usableFromInline
enum BoxPhase<Value: Sendable>: Sendable {
    case pending(PendingHandlers<Value>)
    case sealed(Value)
}

@usableFromInline
struct BoxState<Value: Sendable>: Sendable {
    @usableFromInline var phase: BoxPhase<Value>
    /// Whether anything ever looked at the outcome: a handler or a synchronous inspection.
    /// A rejected promise that nobody observed is reported when it is deallocated.
    @usableFromInline var isObserved: Bool

    @inlinable
    init(phase: BoxPhase<Value>) {
        self.phase = phase
        self.isObserved = false
    }
}

/// The engine's one piece of shared state: pending with handlers, or sealed with a value.
///
/// A box seals once; a later seal is ignored and reported by the caller. Handlers run in
/// registration order, never while the lock is held. `Promise` stores a `Box<Result<T>>`,
/// `Guarantee` a `Box<T>`, each inline, so a promise is a single allocation.
@usableFromInline
struct Box<Value: Sendable>: ~Copyable, Sendable {
    @usableFromInline let state: LockedState<BoxState<Value>>

    @inlinable
    init() {
        state = LockedState(BoxState(phase: .pending(.none)))
    }

    @inlinable
    init(sealed value: Value) {
        state = LockedState(BoxState(phase: .sealed(value)))
    }

    /// Seals the box with `value` and runs the waiting handlers.
    /// - Returns: `false` if the box was already sealed (nothing happens then).
    @inlinable
    @discardableResult
    borrowing func seal(_ value: Value) -> Bool {
        let handlers: PendingHandlers<Value>? = state.withLock { state in
            guard case .pending(let handlers) = state.phase else { return nil }
            state.phase = .sealed(value)
            return handlers
        }
        guard let handlers else { return false }
        handlers.run(with: value)
        return true
    }

    /// Runs `handler` with the value once sealed: now (on this thread) if already sealed.
    ///
    /// - Parameter countsAsHandling: `false` for the library's own bookkeeping (removing a
    ///   cancellation registration when the promise settles), which must not hide an unhandled
    ///   rejection from the report.
    @inlinable
    borrowing func observe(countsAsHandling: Bool = true, _ handler: @escaping @Sendable (Value) -> Void) {
        let sealedValue: Value? = state.withLock { state in
            if countsAsHandling { state.isObserved = true }
            switch state.phase {
            case .sealed(let value):
                return value
            case .pending(var handlers):
                state.phase = .pending(.none)
                handlers.append(handler)
                state.phase = .pending(handlers)
                return nil
            }
        }
        if let sealedValue {
            Trampoline.run(handler, with: sealedValue)
        }
    }

    /// The sealed value, or `nil` while pending. Counts as observing the outcome.
    @inlinable
    borrowing func inspect() -> Value? {
        state.withLock { state in
            state.isObserved = true
            guard case .sealed(let value) = state.phase else { return nil }
            return value
        }
    }

    /// The sealed value, or `nil` while pending, without counting as observing it.
    @inlinable
    borrowing func inspectWithoutObserving() -> Value? {
        state.withLock { state in
            guard case .sealed(let value) = state.phase else { return nil }
            return value
        }
    }

    /// Whether the box is still pending; does not count as observing it.
    @inlinable
    var isPending: Bool {
        state.withLock { state in
            if case .pending = state.phase { return true }
            return false
        }
    }

    /// The sealed value if nobody ever observed it; used to report unhandled rejections.
    @inlinable
    borrowing func unobservedValue() -> Value? {
        state.withLock { state in
            guard !state.isObserved, case .sealed(let value) = state.phase else { return nil }
            return value
        }
    }
}
