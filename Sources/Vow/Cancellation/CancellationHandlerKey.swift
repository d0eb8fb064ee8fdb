// The engine-facing side of the cancellation layer: what `then(cancellation:)` and the other chain
// links use. Registering through a key costs one dictionary insertion and no object of its own,
// and removing costs one dictionary removal, both under the storage's lock.

/// Identifies a handler stored on a token, for the engine: cheaper than a
/// ``CancellationTokenRegistration`` (no allocation) and never blocking.
///
/// It holds only the token's storage and an id; the handler keeps alive exactly what its closure
/// captures, until it runs, is removed, or the source is deallocated.
@usableFromInline
internal struct CancellationHandlerKey: Sendable {
    /// Nil when nothing was stored (the handler ran at once, or can never run).
    @usableFromInline
    internal let storage: CancellationTokenStorage?
    @usableFromInline
    internal let id: UInt64

    @usableFromInline
    internal static let inert = CancellationHandlerKey(storage: nil, id: 0)

    @usableFromInline
    internal init(storage: CancellationTokenStorage?, id: UInt64) {
        self.storage = storage
        self.id = id
    }

    /// Unregisters the handler, in O(1), on the calling thread, without waiting.
    ///
    /// - Returns: True if this call removed the handler before it started: it will never run, and
    ///   it has been released. False if it has run, is running (possibly on another thread: this
    ///   does not wait for it), was removed already, or was never stored. After `false`, decide
    ///   from the token's `isCancellationRequested`, not from the return value.
    @usableFromInline
    @discardableResult
    internal func removeHandler() -> Bool {
        removeHandler(waitingIfRunning: false)
    }

    @discardableResult
    internal func removeHandler(waitingIfRunning: Bool) -> Bool {
        guard let storage else { return false }
        return storage.removeHandler(id: id, waitIfRunning: waitingIfRunning)
    }
}

extension CancellationToken {
    /// Registers `handler` for the engine, in O(1): the semantics of ``register(_:)`` (stored
    /// until cancellation and then run on the cancelling thread in registration order; run at once
    /// on the calling thread if cancellation has begun; released unrun if the token can never be
    /// cancelled) without allocating a registration object.
    ///
    /// - Returns: The key that removes the handler; ``CancellationHandlerKey/inert`` if nothing
    ///   was stored.
    @usableFromInline
    internal func addHandler(_ handler: @escaping @Sendable () -> Void) -> CancellationHandlerKey {
        guard let storage, let id = storage.addHandler(handler) else { return .inert }
        return CancellationHandlerKey(storage: storage, id: id)
    }
}
