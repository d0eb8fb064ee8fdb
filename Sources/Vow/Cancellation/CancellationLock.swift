// The one lock of the cancellation layer: a value that can only be reached while the lock is held
// (the shape of swift-nio's `NIOLockedValueBox`). Callers compute an action inside `withLock` and
// perform it after `withLock` returns, so no handler ever runs under this lock.
//
// Why not `Synchronization.Mutex`: on Apple platforms it needs macOS 15 / iOS 18, above Vow's
// floor; on Linux (Swift 6.3.1) its futex-based lock is invisible to ThreadSanitizer, so every
// access it guards is reported as a race under `swift test --sanitize=thread`. `pthread_mutex_t`
// is intercepted by ThreadSanitizer, and `os_unfair_lock` is understood by it on Apple platforms.

#if canImport(Darwin)
import Darwin
#elseif os(Windows)
import WinSDK
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Bionic)
import Bionic
#else
#error("CancellationLock has no lock for this platform")
#endif

/// A value guarded by a platform lock, reachable only inside ``withLock(_:)``.
///
/// The lock lives in its own heap allocation because an `os_unfair_lock` or `pthread_mutex_t`
/// must keep one address while in use, which a stored property of a Swift class does not promise.
///
/// `@unchecked Sendable` because the compiler cannot see the lock: `value` is read and written
/// only inside `withLock`, between acquiring and releasing `platformLock`, and `Value: Sendable`
/// keeps non-thread-safe values from being shared through it.
final class CancellationLock<Value: Sendable>: @unchecked Sendable {
    #if canImport(Darwin)
    private typealias Primitive = os_unfair_lock
    #elseif os(Windows)
    private typealias Primitive = SRWLOCK
    #else
    private typealias Primitive = pthread_mutex_t
    #endif

    private let platformLock: UnsafeMutablePointer<Primitive>
    private var value: Value

    init(_ initialValue: Value) {
        platformLock = UnsafeMutablePointer<Primitive>.allocate(capacity: 1)
        #if canImport(Darwin)
        platformLock.initialize(to: os_unfair_lock())
        #elseif os(Windows)
        InitializeSRWLock(platformLock)
        #else
        platformLock.initialize(to: pthread_mutex_t())
        let error = pthread_mutex_init(platformLock, nil)
        precondition(error == 0, "pthread_mutex_init failed with error \(error)")
        #endif
        value = initialValue
    }

    deinit {
        #if !canImport(Darwin) && !os(Windows)
        let error = pthread_mutex_destroy(platformLock)
        precondition(error == 0, "pthread_mutex_destroy failed with error \(error)")
        #endif
        platformLock.deinitialize(count: 1)
        platformLock.deallocate()
    }

    /// Runs `body` with exclusive access to the value, on the calling thread. Not reentrant:
    /// `body` must not call `withLock` on the same lock.
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock()
        defer { unlock() }
        return body(&value)
    }

    private func lock() {
        #if canImport(Darwin)
        os_unfair_lock_lock(platformLock)
        #elseif os(Windows)
        AcquireSRWLockExclusive(platformLock)
        #else
        let error = pthread_mutex_lock(platformLock)
        precondition(error == 0, "pthread_mutex_lock failed with error \(error)")
        #endif
    }

    private func unlock() {
        #if canImport(Darwin)
        os_unfair_lock_unlock(platformLock)
        #elseif os(Windows)
        ReleaseSRWLockExclusive(platformLock)
        #else
        let error = pthread_mutex_unlock(platformLock)
        precondition(error == 0, "pthread_mutex_unlock failed with error \(error)")
        #endif
    }
}
