/// A handler registered on a ``CancellationToken``, returned by
/// ``CancellationToken/register(_:)``.
///
/// Dropping the registration does not unregister the handler (as in .NET): keep it only if you
/// may need to ``dispose()``.
public final class CancellationTokenRegistration: Sendable {
    private let key: CancellationHandlerKey

    /// Returned when nothing was stored: the handler already ran, or can never run.
    static let inert = CancellationTokenRegistration(key: .inert)

    init(key: CancellationHandlerKey) {
        self.key = key
    }

    /// Unregisters the handler. Thread-safe and idempotent.
    ///
    /// - If the handler has not started, it never runs, and it is released before `dispose`
    ///   returns.
    /// - If it is running on another thread (cancellation is under way there), `dispose` blocks
    ///   until it returns, so afterwards nothing it touches is in use. Called from inside the
    ///   handler itself (on the cancelling thread), it returns at once. As in .NET, do not
    ///   dispose while holding something the running handler waits for: that deadlocks.
    /// - If it has run, or the registration is inert, `dispose` does nothing.
    public func dispose() {
        key.removeHandler(waitingIfRunning: true)
    }
}
