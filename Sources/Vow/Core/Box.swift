#if !canImport(Darwin) && !VOW_FORCE_PORTABLE_LOCKS
import Synchronization
#endif

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

// MARK: - Storage

/// What a box holds, in a form whose type does not depend on the promise's value type: a kind
/// (with two flags) and two words that own whatever the kind says they hold.
///
/// A generic class is freed by unspecialized code that destroys each field from its type's
/// metadata, and looking up the metadata of a generic type (`Mutex<State<Result<T>>>` and the
/// types inside it) costs hundreds of instructions per type on every free. A slot's fields have
/// fixed types, so freeing a promise needs no lookup: its `deinit` destroys the contents by hand
/// from the kind, with the metadata of `T` alone (which the object carries).
///
/// The words hold, by kind: one handler (a closure, both words); a ``HandlerList`` (first word);
/// one awaiter's `UnsafeContinuation` (first word, not owned: its task is suspended on it);
/// the fulfilled value itself when it fits in two words and moves bit by bit, otherwise a
/// ``SealedValueBox`` holding it (first word); the rejection's error (first word).
@usableFromInline
struct BoxSlot: Sendable {
    @usableFromInline var flags: UInt8
    @usableFromInline var words: (UInt, UInt)

    @inlinable
    init() {
        flags = 0
        words = (0, 0)
    }

    @usableFromInline static var kindMask: UInt8 { 0x07 }
    @usableFromInline static var pendingNone: UInt8 { 0 }
    @usableFromInline static var pendingOne: UInt8 { 1 }
    @usableFromInline static var pendingMany: UInt8 { 2 }
    /// One awaiter's continuation, resumed with the value (no closure around it).
    @usableFromInline static var pendingContinuation: UInt8 { 3 }
    /// Every sealed kind has this bit.
    @usableFromInline static var sealedBit: UInt8 { 4 }
    @usableFromInline static var fulfilledInline: UInt8 { 4 }
    @usableFromInline static var fulfilledBoxed: UInt8 { 5 }
    @usableFromInline static var rejected: UInt8 { 6 }
    /// Something looked at the outcome: a handler or a synchronous inspection. A rejected promise
    /// that nobody observed is reported when it is deallocated.
    @usableFromInline static var observedBit: UInt8 { 0x08 }
    /// The resolver went while the box was pending with nothing waiting on it, where the
    /// promise's orphan mark cannot hold that (no `Atomic`): see Promise+Abandonment.swift.
    @usableFromInline static var orphanedBit: UInt8 { 0x10 }

    @inlinable var kind: UInt8 { flags & Self.kindMask }

    @inlinable var isSealed: Bool { flags & Self.sealedBit != 0 }

    @inlinable var isObserved: Bool { flags & Self.observedBit != 0 }

    @inlinable
    mutating func setKind(_ kind: UInt8, words newWords: (UInt, UInt)) {
        flags = (flags & ~Self.kindMask) | kind
        words = newWords
    }

    @inlinable
    mutating func markObserved() {
        flags |= Self.observedBit
    }

    // MARK: Handlers

    /// Moves the pending handlers out (the slot is left pending with none).
    @inlinable
    mutating func takeHandlers<Value: Sendable>(_: Value.Type) -> PendingHandlers<Value> {
        switch kind {
        case Self.pendingOne:
            let stored = SlotWords.take(words, as: StoredHandler<Value>.self)
            setKind(Self.pendingNone, words: (0, 0))
            return .one(stored.handler)
        case Self.pendingMany:
            let list = Unmanaged<HandlerList<Value>>.fromOpaque(SlotWords.pointer(words.0)).takeRetainedValue()
            setKind(Self.pendingNone, words: (0, 0))
            return .many(list)
        case Self.pendingContinuation:
            // Another handler joins, or the awaiter leaves: the continuation becomes a handler.
            let continuation = SlotWords.take(words, as: UnsafeContinuation<Value, Never>.self)
            setKind(Self.pendingNone, words: (0, 0))
            return .one { value in continuation.resume(returning: value) }
        default:
            return .none
        }
    }

    /// Stores `handlers` in a slot left pending with none by ``takeHandlers(_:)``.
    @inlinable
    mutating func putHandlers<Value: Sendable>(_ handlers: PendingHandlers<Value>) {
        switch handlers {
        case .none:
            setKind(Self.pendingNone, words: (0, 0))
        case .one(let handler):
            setKind(Self.pendingOne, words: SlotWords.make(StoredHandler(handler), as: StoredHandler<Value>.self))
        case .many(let list):
            setKind(Self.pendingMany, words: (UInt(bitPattern: Unmanaged.passRetained(list).toOpaque()), 0))
        }
    }

    /// Reads the pending handlers without moving them (the slot keeps its own).
    @inlinable
    func withHandlerList<Value: Sendable, Outcome>(_: Value.Type, _ body: (HandlerList<Value>) -> Outcome) -> Outcome? {
        guard kind == Self.pendingMany else { return nil }
        return body(Unmanaged<HandlerList<Value>>.fromOpaque(SlotWords.pointer(words.0)).takeUnretainedValue())
    }

    /// How many handlers are stored, and how many slots they take (removed ones included).
    @inlinable
    func handlerCounts<Value: Sendable>(_: Value.Type) -> (live: Int, stored: Int) {
        switch kind {
        case Self.pendingOne, Self.pendingContinuation: return (1, 1)
        case Self.pendingMany: return withHandlerList(Value.self) { ($0.liveCount, $0.entries.count) }!
        default: return (0, 0)
        }
    }

    // MARK: Values

    /// Seals the slot (which holds no handlers any more) with a fulfilled value.
    @inlinable
    mutating func storeFulfilled<Success: Sendable>(_ value: Success) {
        if SlotWords.fits(Success.self) {
            setKind(Self.fulfilledInline, words: SlotWords.make(value, as: Success.self))
        } else {
            let box = Unmanaged.passRetained(SealedValueBox(value)).toOpaque()
            setKind(Self.fulfilledBoxed, words: (UInt(bitPattern: box), 0))
        }
    }

    /// Seals the slot (which holds no handlers any more) with a rejection.
    @inlinable
    mutating func storeRejected(_ error: any Error) {
        setKind(Self.rejected, words: SlotWords.make(error, as: (any Error).self))
    }

    /// A copy of the fulfilled value of a slot sealed by ``storeFulfilled(_:)``.
    @inlinable
    func fulfilledValue<Success: Sendable>(_: Success.Type) -> Success {
        if kind == Self.fulfilledInline {
            return SlotWords.copy(words, as: Success.self)
        }
        return Unmanaged<SealedValueBox<Success>>.fromOpaque(SlotWords.pointer(words.0)).takeUnretainedValue().value
    }

    /// A copy of the error of a slot sealed by ``storeRejected(_:)``.
    @inlinable
    func rejection() -> any Error {
        SlotWords.copy(words, as: (any Error).self)
    }

    /// Destroys what the slot holds; its owner is being deallocated. Needs no metadata but that of
    /// `Success`: handlers and boxes are released as the objects they are.
    @inlinable
    func destroyContents<Success>(fulfilled _: Success.Type) {
        switch kind {
        case Self.pendingNone, Self.pendingContinuation:
            // A continuation is not owned (and cannot be here: its awaiter holds the owner).
            break
        case Self.pendingOne:
            // A closure is a function pointer and its context (an object, or null).
            if let context = UnsafeRawPointer(bitPattern: words.1) {
                Unmanaged<AnyObject>.fromOpaque(context).release()
            }
        case Self.fulfilledInline:
            if !_isPOD(Success.self) {
                _ = SlotWords.take(words, as: Success.self)
            }
        case Self.rejected:
            _ = SlotWords.take(words, as: (any Error).self)
        default:
            // `pendingMany`, `fulfilledBoxed`: one object.
            Unmanaged<AnyObject>.fromOpaque(SlotWords.pointer(words.0)).release()
        }
    }
}

/// A handler as a slot's words hold it. Stored as a closure of generic type, a closure would be
/// wrapped in a reabstraction thunk (an allocation) on the way in and on the way out; as this
/// struct's field it keeps the layout `PendingHandlers` and `HandlerList` give it.
@usableFromInline
struct StoredHandler<Value: Sendable> {
    @usableFromInline let handler: @Sendable (Value) -> Void

    @inlinable
    init(_ handler: @escaping @Sendable (Value) -> Void) {
        self.handler = handler
    }
}

/// Moves values in and out of a slot's two words, which own them in between.
@usableFromInline
enum SlotWords {
    /// Whether a `Value` can live in the words themselves.
    @inlinable
    static func fits<Value>(_: Value.Type) -> Bool {
        MemoryLayout<Value>.size <= 2 * MemoryLayout<UInt>.size
            && MemoryLayout<Value>.alignment <= MemoryLayout<UInt>.alignment
            && _isBitwiseTakable(Value.self)
    }

    /// Words that own a copy of `value` (which must fit). The type is spelled out so that an
    /// existential (`any Error`) is stored as itself, not opened to its dynamic type.
    @inlinable
    static func make<Value>(_ value: Value, as _: Value.Type) -> (UInt, UInt) {
        withUnsafeTemporaryAllocation(byteCount: 2 * MemoryLayout<UInt>.size, alignment: MemoryLayout<UInt>.alignment) { raw in
            raw.storeBytes(of: 0, toByteOffset: 0, as: UInt.self)
            raw.storeBytes(of: 0, toByteOffset: MemoryLayout<UInt>.size, as: UInt.self)
            _ = raw.baseAddress.unsafelyUnwrapped.initializeMemory(as: Value.self, to: value)
            return (raw.load(fromByteOffset: 0, as: UInt.self),
                    raw.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self))
        }
    }

    /// The value the words own, moved out: the words own nothing any more.
    @inlinable
    static func take<Value>(_ words: (UInt, UInt), as _: Value.Type) -> Value {
        withUnsafeTemporaryAllocation(byteCount: 2 * MemoryLayout<UInt>.size, alignment: MemoryLayout<UInt>.alignment) { raw in
            raw.storeBytes(of: words.0, toByteOffset: 0, as: UInt.self)
            raw.storeBytes(of: words.1, toByteOffset: MemoryLayout<UInt>.size, as: UInt.self)
            return raw.baseAddress.unsafelyUnwrapped.bindMemory(to: Value.self, capacity: 1).move()
        }
    }

    /// A copy of the value the words own; they keep theirs.
    @inlinable
    static func copy<Value>(_ words: (UInt, UInt), as _: Value.Type) -> Value {
        withUnsafeTemporaryAllocation(byteCount: 2 * MemoryLayout<UInt>.size, alignment: MemoryLayout<UInt>.alignment) { raw in
            raw.storeBytes(of: words.0, toByteOffset: 0, as: UInt.self)
            raw.storeBytes(of: words.1, toByteOffset: MemoryLayout<UInt>.size, as: UInt.self)
            return raw.baseAddress.unsafelyUnwrapped.bindMemory(to: Value.self, capacity: 1).pointee
        }
    }

    @inlinable
    static func pointer(_ word: UInt) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(bitPattern: word).unsafelyUnwrapped
    }
}

/// A fulfilled value too large (or too particular) to live in a slot's words.
@usableFromInline
final class SealedValueBox<Value: Sendable>: Sendable {
    @usableFromInline let value: Value

    @inlinable
    init(_ value: Value) {
        self.value = value
    }
}

/// How a box's value is seen by its owner: `Result<T>` for a promise, `T` for a guarantee. The
/// slot stores either as a fulfilled `Success` or an error.
@usableFromInline
protocol BoxFlavor {
    associatedtype Success: Sendable
    associatedtype Value: Sendable

    /// Seals `slot` with `value`; returns whether it is a rejection.
    static func store(_ value: Value, in slot: inout BoxSlot) -> Bool

    /// A copy of the value of a sealed slot.
    static func value(of slot: BoxSlot) -> Value
}

/// A promise's box: handlers and values are `Result<T>`.
@usableFromInline
enum PromiseBoxFlavor<Success: Sendable>: BoxFlavor {
    @inlinable
    static func store(_ value: Result<Success>, in slot: inout BoxSlot) -> Bool {
        switch value {
        case .fulfilled(let success):
            slot.storeFulfilled(success)
            return false
        case .rejected(let error):
            slot.storeRejected(error)
            return true
        }
    }

    @inlinable
    static func value(of slot: BoxSlot) -> Result<Success> {
        slot.kind == BoxSlot.rejected ? .rejected(slot.rejection()) : .fulfilled(slot.fulfilledValue(Success.self))
    }
}

/// A guarantee's box: handlers and values are `T`.
@usableFromInline
enum GuaranteeBoxFlavor<Success: Sendable>: BoxFlavor {
    @inlinable
    static func store(_ value: Success, in slot: inout BoxSlot) -> Bool {
        slot.storeFulfilled(value)
        return false
    }

    @inlinable
    static func value(of slot: BoxSlot) -> Success {
        slot.fulfilledValue(Success.self)
    }
}

/// A box's slot under its lock, with the promise's orphan mark beside it.
///
/// On Linux: a `Mutex<UInt8>`, the mark, and the slot's flags and words as relaxed atomics that are
/// only written under the lock (atomics only so that `deinit` can read them without it): 24 bytes
/// inline, so a pending `Promise<Int>` is one 40-byte object. Elsewhere (and with
/// `VOW_FORCE_PORTABLE_LOCKS`): the slot inside the portable lock's own allocation.
@usableFromInline
struct BoxCore: ~Copyable, Sendable {
    #if canImport(Darwin) || VOW_FORCE_PORTABLE_LOCKS
    @usableFromInline let storage: LockedState<BoxSlot>
    @usableFromInline let orphanMark: OrphanMark

    @inlinable
    init(_ slot: BoxSlot) {
        storage = LockedState(slot)
        orphanMark = OrphanMark()
    }

    @inlinable
    borrowing func withSlot<Outcome>(_ body: (inout BoxSlot) -> Outcome) -> Outcome {
        storage.withLock(body)
    }

    /// The slot, read by its owner's `deinit` (no other reference exists).
    @inlinable
    borrowing func slotAtDeinit() -> BoxSlot {
        storage.withLock { $0 }
    }

    /// `true` if the box has certainly sealed; `false` means "ask the box" (always, here).
    @inlinable
    var isSealedHint: Bool { false }

    /// `false` if the box was very likely pending a moment ago, read without the lock (see the
    /// other branch); `true` means "ask the box" (always, here).
    @inlinable
    var mightBeSealed: Bool { true }

    /// `false` if the box has certainly not been rejected; `true` means "ask the box" (always,
    /// here).
    @inlinable
    var wasRejectedHint: Bool { true }
    #else
    /// Guards nothing itself (the slot is the fields below): a byte rather than `Void`, because a
    /// zero-sized value would sit at the address of the next field, and ThreadSanitizer counts
    /// each critical section's access to it as a write there.
    @usableFromInline let lock: LockedState<UInt8>
    @usableFromInline let orphanMark: OrphanMark
    @usableFromInline let flags: Atomic<UInt8>
    @usableFromInline let word0: Atomic<UInt>
    @usableFromInline let word1: Atomic<UInt>

    @inlinable
    init(_ slot: BoxSlot) {
        lock = LockedState(0)
        orphanMark = OrphanMark()
        flags = Atomic(slot.flags)
        word0 = Atomic(slot.words.0)
        word1 = Atomic(slot.words.1)
    }

    @inlinable
    borrowing func withSlot<Outcome>(_ body: (inout BoxSlot) -> Outcome) -> Outcome {
        lock.withLock { _ in
            var slot = slotAtDeinit()
            let outcome = body(&slot)
            flags.store(slot.flags, ordering: .relaxed)
            word0.store(slot.words.0, ordering: .relaxed)
            word1.store(slot.words.1, ordering: .relaxed)
            return outcome
        }
    }

    /// `true` if the box has certainly sealed, read without the lock: a sealed box never unseals,
    /// so `Promise.seal` can refuse a second seal and a resolver's `deinit` can skip the box at
    /// once. `false` means "ask the box".
    @inlinable
    var isSealedHint: Bool {
        flags.load(ordering: .relaxed) & BoxSlot.sealedBit != 0
    }

    /// `false` if the box was very likely pending a moment ago, read without the lock: a seal on
    /// another thread may not be visible yet, so callers that see `false` must take a path that
    /// is correct for a sealed box too (registering a handler, which runs at once if it has).
    /// Lets a caller about to register on a pending box skip a separate locked look first.
    @inlinable
    var mightBeSealed: Bool {
        isSealedHint
    }

    /// `false` if the box has certainly not been rejected, read without the lock (by `deinit`,
    /// after the last release ordered every earlier write before it), so that the slow generic
    /// unhandled-rejection check is skipped for every other promise.
    @inlinable
    var wasRejectedHint: Bool {
        flags.load(ordering: .relaxed) & BoxSlot.kindMask == BoxSlot.rejected
    }

    /// The slot, read under the lock or by its owner's `deinit` (no other reference exists then,
    /// and the last release ordered every earlier write before it).
    @inlinable
    borrowing func slotAtDeinit() -> BoxSlot {
        var slot = BoxSlot()
        slot.flags = flags.load(ordering: .relaxed)
        slot.words = (word0.load(ordering: .relaxed), word1.load(ordering: .relaxed))
        return slot
    }
    #endif
}

/// The engine's one piece of shared state: pending with handlers, or sealed with a value.
///
/// A box seals once; a later seal is ignored and reported by the caller. Handlers run in
/// registration order, never while the lock is held. `Promise` stores a
/// `Box<PromiseBoxFlavor<T>>`, `Guarantee` a `Box<GuaranteeBoxFlavor<T>>`, each inline, so a
/// promise is a single allocation. Its owner's `deinit` must call ``destroyContents(fulfilled:)``.
@usableFromInline
struct Box<Flavor: BoxFlavor>: ~Copyable, Sendable {
    @usableFromInline typealias Value = Flavor.Value
    @usableFromInline typealias Handler = @Sendable (Value) -> Void

    @usableFromInline let core: BoxCore

    @inlinable
    init() {
        core = BoxCore(BoxSlot())
    }

    @inlinable
    init(sealed value: Value) {
        var slot = BoxSlot()
        _ = Flavor.store(value, in: &slot)
        core = BoxCore(slot)
    }

    /// Destroys the handlers or value held; called once, by the owner's `deinit`.
    @inlinable
    borrowing func destroyContents(fulfilled: Flavor.Success.Type) {
        core.slotAtDeinit().destroyContents(fulfilled: fulfilled)
    }

    /// Seals the box with `value` and runs the waiting handlers.
    /// - Returns: `false` if the box was already sealed (nothing happens then).
    @inlinable
    @discardableResult
    borrowing func seal(_ value: Value) -> Bool {
        let waiting: WaitingOnSeal<Value>? = core.withSlot { slot in
            guard !slot.isSealed else { return nil }
            let waiting: WaitingOnSeal<Value>
            if slot.kind == BoxSlot.pendingContinuation {
                waiting = .continuation(SlotWords.take(slot.words, as: UnsafeContinuation<Value, Never>.self))
            } else if slot.kind == BoxSlot.pendingNone {
                waiting = .handlers(.none)
            } else {
                waiting = .handlers(slot.takeHandlers(Value.self))
            }
            _ = Flavor.store(value, in: &slot)
            return waiting
        }
        switch waiting {
        case nil:
            return false
        case .handlers(let handlers)?:
            handlers.run(with: value)
        case .continuation(let continuation)?:
            continuation.resume(returning: value)
        }
        return true
    }

    /// Runs `handler` with the value once sealed: now (on this thread) if already sealed.
    ///
    /// - Parameter countsAsHandling: `false` for the library's own bookkeeping (removing a
    ///   cancellation registration when the promise settles), which must not hide an unhandled
    ///   rejection from the report.
    @inlinable
    borrowing func observe(countsAsHandling: Bool = true, _ handler: @escaping Handler) {
        let sealedValue: Value? = core.withSlot { slot in
            if countsAsHandling { slot.markObserved() }
            if slot.isSealed { return Flavor.value(of: slot) }
            if slot.kind == BoxSlot.pendingNone {
                // The common case, a first handler: straight into the words.
                slot.putHandlers(PendingHandlers.one(handler))
                return nil
            }
            var handlers = slot.takeHandlers(Value.self)
            handlers.append(handler)
            slot.putHandlers(handlers)
            return nil
        }
        if let sealedValue {
            Trampoline.run(handler, with: sealedValue)
        }
    }

    /// Like ``observe(countsAsHandling:_:)``, and returns the key that ``removeHandler(_:)`` takes
    /// back while the box is pending; `nil` if the box had sealed and `handler` has already run.
    @inlinable
    borrowing func observeRemovably(_ handler: @escaping Handler) -> UInt32? {
        let outcome: (sealed: Value?, key: UInt32) = core.withSlot { slot in
            slot.markObserved()
            if slot.isSealed { return (Flavor.value(of: slot), 0) }
            var handlers = slot.takeHandlers(Value.self)
            let key = handlers.append(handler)
            slot.putHandlers(handlers)
            return (nil, key)
        }
        if let sealedValue = outcome.sealed {
            Trampoline.run(handler, with: sealedValue)
            return nil
        }
        return outcome.key
    }

    /// Like ``observeRemovably(_:)`` for an awaiter: resumes `continuation` with the value once
    /// sealed, at once if it has (then returns `nil`). An awaiter alone on the box is stored as
    /// its continuation, without a closure around it (an allocation); ``removeHandlerReturning(_:)``
    /// takes it back under the returned key as a handler that resumes it.
    @inlinable
    borrowing func observeRemovably(continuation: UnsafeContinuation<Value, Never>) -> UInt32? {
        let outcome: (sealed: Value?, key: UInt32) = core.withSlot { slot in
            slot.markObserved()
            if slot.isSealed { return (Flavor.value(of: slot), 0) }
            if slot.kind == BoxSlot.pendingNone {
                slot.setKind(BoxSlot.pendingContinuation,
                             words: SlotWords.make(continuation, as: UnsafeContinuation<Value, Never>.self))
                return (nil, 0)
            }
            var handlers = slot.takeHandlers(Value.self)
            let key = handlers.append { value in continuation.resume(returning: value) }
            slot.putHandlers(handlers)
            return (nil, key)
        }
        if let sealedValue = outcome.sealed {
            continuation.resume(returning: sealedValue)
            return nil
        }
        return outcome.key
    }

    /// Drops the handler registered under `key` by ``observeRemovably(_:)`` if the box is still
    /// pending; once it has sealed, the handler has run (or is running) and this does nothing.
    @inlinable
    borrowing func removeHandler(_ key: UInt32) {
        // The handler is released after the lock, in case dropping it runs a deinit.
        withExtendedLifetime(removeHandlerReturning(key)) {}
    }

    /// Takes the handler registered under `key` by ``observeRemovably(_:)`` back out of a pending
    /// box and returns it, so that the caller runs it instead; `nil` once the box has sealed (the
    /// handler has run or is running) or if it was taken already.
    @inlinable
    borrowing func removeHandlerReturning(_ key: UInt32) -> Handler? {
        core.withSlot { slot in
            guard !slot.isSealed else { return nil }
            var handlers = slot.takeHandlers(Value.self)
            let removed = handlers.remove(key)
            slot.putHandlers(handlers)
            return removed
        }
    }

    /// How many handlers a pending box holds, 0 once sealed (diagnostics and tests).
    @usableFromInline
    var handlerCount: Int {
        core.withSlot { $0.handlerCounts(Value.self).live }
    }

    /// How many handler slots a pending box holds (removed ones not yet reclaimed included), 0
    /// once sealed: lets tests see that removed handlers do not pile up.
    @usableFromInline
    var storedHandlerSlots: Int {
        core.withSlot { $0.handlerCounts(Value.self).stored }
    }

    /// The sealed value, or `nil` while pending. Counts as observing the outcome.
    @inlinable
    borrowing func inspect() -> Value? {
        core.withSlot { slot in
            slot.markObserved()
            return slot.isSealed ? Flavor.value(of: slot) : nil
        }
    }

    /// The sealed value, or `nil` while pending, without counting as observing it.
    @inlinable
    borrowing func inspectWithoutObserving() -> Value? {
        core.withSlot { slot in
            slot.isSealed ? Flavor.value(of: slot) : nil
        }
    }

    /// Whether the box is still pending; does not count as observing it.
    @inlinable
    var isPending: Bool {
        core.withSlot { !$0.isSealed }
    }

    /// The sealed value if nobody ever observed it; used to report unhandled rejections.
    @inlinable
    borrowing func unobservedValue() -> Value? {
        core.withSlot { slot in
            guard !slot.isObserved, slot.isSealed else { return nil }
            return Flavor.value(of: slot)
        }
    }
}

/// What a seal found waiting: handlers to run, or one awaiter's continuation to resume.
@usableFromInline
enum WaitingOnSeal<Value: Sendable> {
    case handlers(PendingHandlers<Value>)
    case continuation(UnsafeContinuation<Value, Never>)
}
