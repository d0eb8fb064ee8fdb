#if canImport(Darwin)
import Darwin
#else
import Synchronization
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
        mutex.withLock { state in
            outcome = body(&state)
        }
        return outcome.unsafelyUnwrapped
    }
    #endif
}

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
