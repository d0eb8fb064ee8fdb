/// The handlers waiting on a pending box, stored so that the common cases (none, one) allocate
/// nothing beyond the handler itself.
///
/// A handler registered with ``Box/observeRemovably(_:)`` can be taken out again while the box is
/// pending (an awaiter whose task was cancelled), so that a promise that never settles does not
/// hold every cancelled awaiter until it does. Keys: the single handler of `.one` has key 0;
/// `.many` numbers its handlers in registration order. Once every handler is gone the storage goes
/// back to `.none` and numbering starts again, which is safe because a key is only ever used by
/// the one party that registered it, once, while its handler is still stored.
@usableFromInline
enum PendingHandlers<Value: Sendable>: Sendable {
    case none
    case one(@Sendable (Value) -> Void)
    case many(HandlerList<Value>)

    /// Adds `handler` after the others; returns its key.
    @inlinable
    @discardableResult
    mutating func append(_ handler: @escaping @Sendable (Value) -> Void) -> UInt32 {
        switch self {
        case .none:
            self = .one(handler)
            return 0
        case .one(let first):
            let list = HandlerList<Value>(first)
            self = .many(list)
            return list.append(handler)
        case .many(let list):
            return list.append(handler)
        }
    }

    /// Removes the handler registered under `key`, if it is still here, and returns it (so that
    /// the caller releases it after unlocking).
    @inlinable
    mutating func remove(_ key: UInt32) -> (@Sendable (Value) -> Void)? {
        switch self {
        case .none:
            return nil
        case .one(let handler):
            guard key == 0 else { return nil }
            self = .none
            return handler
        case .many(let list):
            let (removed, isEmpty) = list.remove(key)
            if isEmpty { self = .none }
            return removed
        }
    }

    /// How many handlers are stored.
    @usableFromInline
    var count: Int {
        switch self {
        case .none: 0
        case .one: 1
        case .many(let list): list.liveCount
        }
    }

    /// How many handler slots are held, removed ones not yet reclaimed included (for tests).
    @usableFromInline
    var storedSlots: Int {
        switch self {
        case .none: 0
        case .one: 1
        case .many(let list): list.entries.count
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
        case .many(let list):
            Trampoline.run(list.entries, with: value)
        }
    }
}

/// Two or more handlers of a pending box, with their keys.
///
/// Removing a handler leaves a hole (so the keys, kept in ascending order, stay searchable); holes
/// at the end are dropped at once, the others are reclaimed when the list would otherwise grow or
/// when they outnumber the handlers, so the list holds at most about twice its live handlers.
///
/// `@unchecked Sendable`: it is only mutated by its box, under the box's lock, and only read after
/// the box has sealed, when nothing mutates it any more.
@usableFromInline
final class HandlerList<Value: Sendable>: @unchecked Sendable {
    @usableFromInline
    struct Entry {
        @usableFromInline let key: UInt32
        @usableFromInline var handler: (@Sendable (Value) -> Void)?

        @inlinable
        init(key: UInt32, handler: (@Sendable (Value) -> Void)?) {
            self.key = key
            self.handler = handler
        }
    }

    @usableFromInline var entries: [Entry]
    @usableFromInline var nextKey: UInt32 = 1
    @usableFromInline var liveCount = 1

    @inlinable
    init(_ first: @escaping @Sendable (Value) -> Void) {
        entries = []
        entries.reserveCapacity(4)
        entries.append(Entry(key: 0, handler: first))
    }

    @inlinable
    func append(_ handler: @escaping @Sendable (Value) -> Void) -> UInt32 {
        if entries.count == entries.capacity, liveCount < entries.count {
            reclaimHoles()
        }
        let key = nextKey
        nextKey &+= 1
        entries.append(Entry(key: key, handler: handler))
        liveCount += 1
        return key
    }

    /// Removes the handler with `key`; returns it, and whether no handler is left.
    @usableFromInline
    func remove(_ key: UInt32) -> (removed: (@Sendable (Value) -> Void)?, isEmpty: Bool) {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].key < key { low = middle + 1 } else { high = middle }
        }
        guard low < entries.count, entries[low].key == key, let removed = entries[low].handler else {
            return (nil, false)
        }
        entries[low].handler = nil
        liveCount -= 1
        if liveCount == 0 { return (removed, true) }
        while let last = entries.last, last.handler == nil { entries.removeLast() }
        if entries.count > 16, liveCount * 2 < entries.count { reclaimHoles() }
        return (removed, false)
    }

    @usableFromInline
    func reclaimHoles() {
        entries.removeAll { $0.handler == nil }
        if entries.capacity > 2 * entries.count + 16 {
            entries = Array(entries)
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
    #if canImport(Darwin) || VOW_FORCE_PORTABLE_LOCKS
    /// Whether the resolver went while the box was pending with nothing waiting on it, where the
    /// promise's settlement mark cannot hold that (no `Atomic`): see Promise+Abandonment.swift.
    @usableFromInline var isOrphaned = false
    #endif

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

    /// Like ``observe(countsAsHandling:_:)``, and returns the key that ``removeHandler(_:)`` takes
    /// back while the box is pending; `nil` if the box had sealed and `handler` has already run.
    @inlinable
    borrowing func observeRemovably(_ handler: @escaping @Sendable (Value) -> Void) -> UInt32? {
        let outcome: (sealed: Value?, key: UInt32) = state.withLock { state in
            state.isObserved = true
            switch state.phase {
            case .sealed(let value):
                return (value, 0)
            case .pending(var handlers):
                state.phase = .pending(.none)
                let key = handlers.append(handler)
                state.phase = .pending(handlers)
                return (nil, key)
            }
        }
        if let sealedValue = outcome.sealed {
            Trampoline.run(handler, with: sealedValue)
            return nil
        }
        return outcome.key
    }

    /// Drops the handler registered under `key` by ``observeRemovably(_:)`` if the box is still
    /// pending; once it has sealed, the handler has run (or is running) and this does nothing.
    @inlinable
    borrowing func removeHandler(_ key: UInt32) {
        // The handler is released after the lock, in case dropping it runs a deinit.
        let removed: (@Sendable (Value) -> Void)? = state.withLock { state in
            guard case .pending(var handlers) = state.phase else { return nil }
            state.phase = .pending(.none)
            let removed = handlers.remove(key)
            state.phase = .pending(handlers)
            return removed
        }
        withExtendedLifetime(removed) {}
    }

    /// How many handlers a pending box holds, 0 once sealed (diagnostics and tests).
    @usableFromInline
    var handlerCount: Int {
        state.withLock { state in
            guard case .pending(let handlers) = state.phase else { return 0 }
            return handlers.count
        }
    }

    /// How many handler slots a pending box holds (removed ones not yet reclaimed included), 0
    /// once sealed: lets tests see that removed handlers do not pile up.
    @usableFromInline
    var storedHandlerSlots: Int {
        state.withLock { state in
            guard case .pending(let handlers) = state.phase else { return 0 }
            return handlers.storedSlots
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
