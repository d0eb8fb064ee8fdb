#if canImport(Darwin)
import Darwin
#else
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
#endif

/// State guarded by a lock that lives in the same allocation as its owner.
///
/// On Linux this is `Synchronization.Mutex`, stored inline: a promise is one allocation with its
/// lock inside it. On Apple platforms `Mutex` needs macOS 15 / iOS 18, above Vow's floor, so the
/// state and an `os_unfair_lock` live together in one `ManagedBuffer` instead.
///
/// Only `withLock` reaches the state, so nothing can forget to take the lock. Callers compute an
/// action under the lock and perform it afterwards: no user code ever runs while it is held.
@usableFromInline
struct LockedState<State: Sendable>: ~Copyable, Sendable {
    #if canImport(Darwin)
    @usableFromInline let storage: UnfairLockStorage<State>

    @inlinable
    init(_ initialState: State) {
        storage = UnfairLockStorage.make(initialState)
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

#if !canImport(Darwin)
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
#endif

#if canImport(Darwin)
/// The state and its `os_unfair_lock` in one allocation (Apple platforms).
@usableFromInline
final class UnfairLockStorage<State>: ManagedBuffer<State, os_unfair_lock>, @unchecked Sendable {
    // @unchecked: every access to the header goes through `withLock`.

    @inlinable
    static func make(_ initialState: State) -> UnfairLockStorage<State> {
        let buffer = create(minimumCapacity: 1) { _ in initialState }
        buffer.withUnsafeMutablePointerToElements { $0.initialize(to: os_unfair_lock()) }
        return unsafeDowncast(buffer, to: UnfairLockStorage<State>.self)
    }

    @inlinable
    func withLock<Outcome>(_ body: (inout State) -> Outcome) -> Outcome {
        withUnsafeMutablePointers { state, lock in
            os_unfair_lock_lock(lock)
            defer { os_unfair_lock_unlock(lock) }
            return body(&state.pointee)
        }
    }
}
#endif
