// The library's one lock. It sits below every other layer (Cancellation, Core, Combinators,
// Bridges all use it) and knows nothing of tokens or promises.
//
// Two implementations of one shape:
// - Linux (default): `Synchronization.Mutex`, stored inline, so a promise is one allocation with
//   its lock inside it. Debug builds tell ThreadSanitizer about it (see `ThreadSanitizer`).
// - Apple platforms: `Mutex` needs macOS 15 / iOS 18, above Vow's deployment floor, so the state
//   and an `os_unfair_lock` live together in one `ManagedBuffer`.
// Building with `-Xswiftc -DVOW_FORCE_PORTABLE_LOCKS` selects the Apple-platform structure on
// Linux too, with a `pthread_mutex_t` standing in for `os_unfair_lock` (which only Darwin has),
// so that CI compiles and tests that path (`scripts/test --portable-locks`).

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
#if !canImport(Darwin) && !VOW_FORCE_PORTABLE_LOCKS
import Synchronization
#endif

/// State guarded by a lock that lives in the same allocation as its owner (Linux) or in one
/// allocation of its own beside it (Apple platforms).
///
/// Only `withLock` reaches the state, so nothing can forget to take the lock. Callers compute an
/// action under the lock and perform it afterwards: no user code ever runs while it is held. Not
/// reentrant: `body` must not take the same lock again.
@usableFromInline
struct LockedState<State: Sendable>: ~Copyable {
    #if canImport(Darwin) || VOW_FORCE_PORTABLE_LOCKS
    @usableFromInline let storage: PortableLockStorage<State>

    @inlinable
    init(_ initialState: State) {
        storage = PortableLockStorage.make(initialState)
    }

    @inlinable
    borrowing func withLock<Outcome>(_ body: (inout State) -> Outcome) -> Outcome {
        storage.withLock(body)
    }
    #else
    @usableFromInline let mutex: Mutex<State>

    @inlinable
    init(_ initialState: State) {
        mutex = Mutex(initialState)
    }

    @inlinable
    borrowing func withLock<Outcome>(_ body: (inout State) -> Outcome) -> Outcome {
        // `Mutex.withLock` wants `sending` in and out; the state is `Sendable` and the outcome is
        // returned through a local, which keeps this usable with non-Sendable outcomes too.
        var outcome: Outcome?
        #if DEBUG
        let lockAddress = ThreadSanitizer.isActive ? withUnsafePointer(to: mutex) { UnsafeRawPointer($0) } : nil
        #endif
        mutex.withLock { state in
            #if DEBUG
            ThreadSanitizer.acquire(lockAddress)
            defer { ThreadSanitizer.release(lockAddress) }
            #endif
            outcome = body(&state)
        }
        return outcome.unsafelyUnwrapped
    }
    #endif
}

#if canImport(Darwin) || VOW_FORCE_PORTABLE_LOCKS
// @unchecked: `ManagedBuffer` is not `Sendable`; the storage is only reached through `withLock`.
extension LockedState: @unchecked Sendable {}
#else
extension LockedState: Sendable {}
#endif

#if !canImport(Darwin) && !VOW_FORCE_PORTABLE_LOCKS
/// Tells ThreadSanitizer about `Mutex`, in debug builds run under `--sanitize=thread`.
///
/// On Linux, `Synchronization.Mutex` waits on a futex inside the standard library, which the
/// sanitizer does not instrument: under contention it sees two threads touch the guarded state
/// with no ordering between them and reports a race that cannot happen. Announcing each critical
/// section (acquire after locking, release before unlocking) gives it the ordering the lock
/// really provides. The annotations are looked up at run time, so they cost one branch in a debug
/// build without the sanitizer, and release builds do not contain them at all.
@usableFromInline
enum ThreadSanitizer {
    @usableFromInline typealias Annotation = @convention(c) (UnsafeRawPointer?) -> Void

    @usableFromInline static let acquireAnnotation: Annotation? = lookUp("__tsan_acquire")
    @usableFromInline static let releaseAnnotation: Annotation? = lookUp("__tsan_release")

    @inlinable static var isActive: Bool { acquireAnnotation != nil }

    @inlinable
    static func acquire(_ address: UnsafeRawPointer?) {
        if let address { acquireAnnotation?(address) }
    }

    @inlinable
    static func release(_ address: UnsafeRawPointer?) {
        if let address { releaseAnnotation?(address) }
    }

    static func lookUp(_ symbol: String) -> Annotation? {
        guard let function = dlsym(UnsafeMutableRawPointer(bitPattern: 0), symbol) else { return nil }
        return unsafeBitCast(function, to: Annotation.self)
    }
}
#else
/// The platform lock of the portable structure: `os_unfair_lock` on Apple platforms; elsewhere
/// (only when forced, for testing) a `pthread_mutex_t`, which ThreadSanitizer understands as it
/// understands `os_unfair_lock`.
#if canImport(Darwin)
@usableFromInline typealias PlatformLock = os_unfair_lock
#else
@usableFromInline typealias PlatformLock = pthread_mutex_t
#endif

/// The state and its platform lock in one allocation. A platform lock must keep one address while
/// in use, which the buffer's element storage gives it (a struct's stored property would not).
@usableFromInline
final class PortableLockStorage<State>: ManagedBuffer<State, PlatformLock> {
    // Not `Sendable` (`ManagedBuffer` is not): `LockedState`, its only owner, vouches for it.

    @inlinable
    static func make(_ initialState: State) -> PortableLockStorage<State> {
        let buffer = create(minimumCapacity: 1) { _ in initialState }
        buffer.withUnsafeMutablePointerToElements { lock in
            #if canImport(Darwin)
            lock.initialize(to: os_unfair_lock())
            #else
            lock.initialize(to: pthread_mutex_t())
            let status = pthread_mutex_init(lock, nil)
            precondition(status == 0, "Vow: pthread_mutex_init failed (\(status))")
            #endif
        }
        return unsafeDowncast(buffer, to: PortableLockStorage<State>.self)
    }

    deinit {
        withUnsafeMutablePointerToElements { lock in
            #if !canImport(Darwin)
            pthread_mutex_destroy(lock)
            #endif
            _ = lock.deinitialize(count: 1)
        }
    }

    @inlinable
    func withLock<Outcome>(_ body: (inout State) -> Outcome) -> Outcome {
        withUnsafeMutablePointers { state, lock in
            #if canImport(Darwin)
            os_unfair_lock_lock(lock)
            defer { os_unfair_lock_unlock(lock) }
            #else
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            #endif
            return body(&state.pointee)
        }
    }
}
#endif
