import Dispatch

/// Where a handler runs: a queue with optional work-item flags, or `nil` for "right here".
///
/// `DispatchWorkItemFlags` is not `Sendable` on every platform, so the flags travel as their raw
/// value inside `@Sendable` handlers.
@usableFromInline
struct Dispatcher: Sendable {
    @usableFromInline let queue: DispatchQueue?
    @usableFromInline let flags: UInt?

    @inlinable
    init(_ queue: DispatchQueue?, _ flags: DispatchWorkItemFlags?) {
        self.queue = queue
        self.flags = flags?.rawValue
    }

    /// Runs `body` on the queue, or right here when the queue is `nil` (PromiseKit's `on: nil`).
    @inlinable
    func dispatch(_ body: @escaping @Sendable () -> Void) {
        switch queue {
        case .none:
            body()
        case .some(let queue):
            if let flags {
                queue.async(flags: DispatchWorkItemFlags(rawValue: flags), execute: body)
            } else {
                queue.async(execute: body)
            }
        }
    }
}

/// Tags `DispatchQueue.async(.promise) { ... }`, which returns a promise of the body's result.
public enum PMKNamespacer: Sendable {
    /// Selects the `async` overload that returns a promise (or a guarantee, for a body that
    /// cannot throw).
    case promise
}

extension DispatchQueue {
    /// Runs `body` on this queue and returns a promise of its result; a throw rejects it.
    ///
    /// ```swift
    /// DispatchQueue.global().async(.promise) { try decode(data) }.done { model in ... }
    /// ```
    @inlinable
    public final func async<T: Sendable>(
        _: PMKNamespacer,
        group: DispatchGroup? = nil,
        qos: DispatchQoS = .default,
        flags: DispatchWorkItemFlags = [],
        execute body: @escaping @Sendable () throws -> T
    ) -> Promise<T> {
        let promise = Promise<T>(pendingAt: nil)
        async(group: group, qos: qos, flags: flags) {
            promise.fulfill { try body() }
        }
        return promise
    }

    /// Runs `body` on this queue and returns a guarantee of its result.
    @inlinable
    public final func async<T: Sendable>(
        _: PMKNamespacer,
        group: DispatchGroup? = nil,
        qos: DispatchQoS = .default,
        flags: DispatchWorkItemFlags = [],
        execute body: @escaping @Sendable () -> T
    ) -> Guarantee<T> {
        let guarantee = Guarantee<T>(pendingAt: nil)
        async(group: group, qos: qos, flags: flags) {
            guarantee.seal(body())
        }
        return guarantee
    }
}
