import Foundation

/// Something in flight that the caller may stop: a request, an upload, a sync pass.
public protocol Cancellable: AnyObject {
    var isCancelled: Bool { get }
    func cancel()
}

/// A thread-safe cancellation flag with handlers, shared by the layers of one request so that
/// cancelling the public handle also cancels the transport's work underneath.
public final class CancellationToken: Cancellable {
    private let lock = NSLock()
    private var cancelled = false
    private var handlers: [() -> Void] = []

    public init() {}

    public var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    /// Runs `handler` on cancellation, at once if the token is already cancelled.
    public func onCancel(_ handler: @escaping () -> Void) {
        lock.lock()
        if cancelled {
            lock.unlock()
            handler()
            return
        }
        handlers.append(handler)
        lock.unlock()
    }

    public func cancel() {
        lock.lock()
        guard !cancelled else {
            lock.unlock()
            return
        }
        cancelled = true
        let pending = handlers
        handlers = []
        lock.unlock()
        // Outside the lock: a handler may cancel another token that shares this lock's callers.
        pending.forEach { $0() }
    }
}

/// A handle for work that completed before it could be cancelled (a cache hit).
final class CompletedCancellable: Cancellable {
    var isCancelled: Bool { false }
    func cancel() {}
}
