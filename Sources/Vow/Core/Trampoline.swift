#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs promise handlers so that no chain, however deep, overflows the stack.
///
/// Sealing a box inside a handler runs the next box's handlers, which may seal another box, and
/// so on: a chain of a million `on: nil` links would recurse a million times. Up to
/// ``maximumDepth`` nested runs happen directly (so short chains keep PromiseKit's synchronous,
/// depth-first order); deeper ones are queued on the current thread and drained iteratively by the
/// outermost run, the way swift-nio drains its callback lists.
@usableFromInline
final class Trampoline {
    /// How many handler runs may nest on one thread before further runs are queued.
    @usableFromInline static let maximumDepth = 64

    // Only ever touched by its own thread: dynamic exclusivity checks would cost more than the
    // handler runs they guard.
    @exclusivity(unchecked) @usableFromInline var depth = 0
    @exclusivity(unchecked) @usableFromInline var deferred: [() -> Void] = []
    @exclusivity(unchecked) @usableFromInline var nextDeferred = 0

    @usableFromInline init() {}

    /// The current thread's trampoline.
    @inlinable
    static var current: Trampoline {
        if let existing = pthread_getspecific(threadKey) {
            return Unmanaged<Trampoline>.fromOpaque(existing).takeUnretainedValue()
        }
        return makeCurrent()
    }

    @usableFromInline
    static func makeCurrent() -> Trampoline {
        let trampoline = Trampoline()
        pthread_setspecific(threadKey, Unmanaged.passRetained(trampoline).toOpaque())
        return trampoline
    }

    @usableFromInline
    static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Darwin)
        let status = pthread_key_create(&key) { Unmanaged<Trampoline>.fromOpaque($0).release() }
        #else
        let status = pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<Trampoline>.fromOpaque(pointer).release() }
        }
        #endif
        precondition(status == 0, "Vow could not create its thread-local key (pthread_key_create: \(status))")
        return key
    }()

    /// Calls `handler(value)` now, or later on this thread if runs are nested too deeply.
    @inlinable
    static func run<Value>(_ handler: @escaping @Sendable (Value) -> Void, with value: Value) {
        let trampoline = current
        guard trampoline.depth < maximumDepth else {
            trampoline.deferred.append { handler(value) }
            return
        }
        trampoline.depth += 1
        handler(value)
        trampoline.depth -= 1
        if trampoline.depth == 0, trampoline.nextDeferred < trampoline.deferred.count {
            trampoline.drain()
        }
    }

    /// Calls every handler still in `entries` (removed ones are `nil`), in order, with `value`.
    @inlinable
    static func run<Value>(_ entries: [HandlerList<Value>.Entry], with value: Value) {
        let trampoline = current
        guard trampoline.depth < maximumDepth else {
            trampoline.deferred.append { for entry in entries { entry.handler?(value) } }
            return
        }
        trampoline.depth += 1
        for entry in entries { entry.handler?(value) }
        trampoline.depth -= 1
        if trampoline.depth == 0, trampoline.nextDeferred < trampoline.deferred.count {
            trampoline.drain()
        }
    }

    /// Enters one nested run on the current thread for work done inline (a chain link on a settled
    /// promise with `on: nil`), or returns `nil` if runs are nested too deeply: then the caller
    /// must take its ordinary path, which queues the work. Pair with ``leave()``.
    @inlinable
    static func enterIfShallow() -> Trampoline? {
        let trampoline = current
        guard trampoline.depth < maximumDepth else { return nil }
        trampoline.depth += 1
        return trampoline
    }

    /// Leaves a run entered with ``enterIfShallow()``, draining queued work at the outermost one.
    @inlinable
    func leave() {
        depth -= 1
        if depth == 0, nextDeferred < deferred.count {
            drain()
        }
    }

    /// Runs queued work, first in first out, until none is left; queued work may queue more.
    @usableFromInline
    func drain() {
        while nextDeferred < deferred.count {
            let work = deferred[nextDeferred]
            nextDeferred += 1
            depth = 1
            work()
            depth = 0
        }
        deferred.removeAll(keepingCapacity: deferred.capacity <= 1024)
        nextDeferred = 0
    }
}
