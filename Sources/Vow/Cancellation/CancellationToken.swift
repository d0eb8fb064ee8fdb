/// Tells work whether it should stop, and runs handlers when it should.
///
/// A token comes from a ``CancellationTokenSource`` (or is ``none``) and is cancelled when its
/// source is. It is a value holding one optional reference, so copying it is cheap; copies, and
/// tokens from the same source, are equal.
///
/// ```swift
/// let source = CancellationTokenSource()
/// let registration = source.token.register { task.cancel() }
/// source.cancel()          // runs `task.cancel()` here, on this thread
/// registration.dispose()   // harmless after cancellation
/// ```
public struct CancellationToken: Sendable, Hashable {
    /// Nil for ``none``.
    @usableFromInline
    internal let storage: CancellationTokenStorage?

    internal init(storage: CancellationTokenStorage?) {
        self.storage = storage
    }

    /// A token that is never cancelled. ``register(_:)`` on it stores nothing and returns a
    /// registration whose ``CancellationTokenRegistration/dispose()`` does nothing. Use it where a
    /// token is required but the work cannot be cancelled.
    public static let none = CancellationToken(storage: nil)

    /// True once the source's ``CancellationTokenSource/cancel()`` has begun, including while its
    /// handlers are still running. Never changes back. Thread-safe; always false for ``none``.
    public var isCancellationRequested: Bool {
        storage?.isCancellationRequested ?? false
    }

    /// False if nothing can ever cancel this token: for ``none``, and for a token whose source was
    /// deallocated without being cancelled (and with no `cancel(after:)` pending). True for a
    /// token that is already cancelled. Thread-safe.
    public var canBeCancelled: Bool {
        storage?.canBeCancelled ?? false
    }

    /// Registers `handler` to run once when the token is cancelled.
    ///
    /// - If the token is not yet cancelled, `handler` is stored and later runs on the thread that
    ///   calls ``CancellationTokenSource/cancel()`` (or on a global-queue thread for
    ///   `cancel(after:)`), after the handlers registered before
    ///   it, with no lock held.
    /// - If cancellation has begun (also while other handlers are still running), `handler` runs
    ///   at once, on the calling thread, before `register` returns.
    /// - If the token can never be cancelled (``none``, or its source was deallocated), `handler`
    ///   is released without running.
    ///
    /// A handler may register further handlers, dispose registrations and call `cancel()` again
    /// without deadlocking.
    ///
    /// - Returns: A registration; call ``CancellationTokenRegistration/dispose()`` to unregister.
    ///   Dropping it keeps the handler registered.
    @discardableResult
    public func register(_ handler: @escaping @Sendable () -> Void) -> CancellationTokenRegistration {
        let key = addHandler(handler)
        guard key.storage != nil else { return CancellationTokenRegistration.inert }
        return CancellationTokenRegistration(key: key)
    }

    /// True if both tokens come from the same source, or both are ``none``.
    public static func == (lhs: CancellationToken, rhs: CancellationToken) -> Bool {
        lhs.storage === rhs.storage
    }

    /// Hashes the identity of the source's shared state, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.map(ObjectIdentifier.init))
    }
}
