/// One `await promise.value` on a pending promise: resumes its continuation exactly once, with
/// `true` once the promise has settled (the awaiter then reads the result from the promise) or
/// `false` if the awaiting task is cancelled first (the awaiter then throws `CancellationError`).
///
/// It is not generic on purpose: a generic class is destroyed by unspecialized code that looks up
/// its generic metadata at run time on every deallocation, which costs more than reading the
/// result back from the promise under its lock.
///
/// Three parties race: the awaiting task installing its continuation, the promise settling (its
/// handler may run on any thread) and the task being cancelled (its handler may run on any thread,
/// before or after the continuation exists). Each transition happens under the lock and returns
/// the continuation to resume, if any; the caller resumes it after the lock is released.
///
/// A cancelled awaiter also takes its handler back out of the promise at once (the promise may
/// never settle): the handler's key is recorded once registered, and whichever of `record(_:)`
/// and `cancel()` comes second hands it to its caller for removal.
///
/// ```
/// idle ──install──▶ waiting ──settle──▶ finished
///   │                  │
///   └──cancel──▶ cancelled ◀──cancel──┘   (a later install resumes at once with `false`)
/// ```
@usableFromInline
final class PromiseAwaiter: Sendable {
    @usableFromInline
    enum Phase: Sendable {
        /// The continuation is not installed yet, and nothing has happened.
        case idle
        /// The continuation is installed and the promise's handler is (or is about to be) registered.
        case waiting(CheckedContinuation<Bool, Never>)
        /// The awaiting task was cancelled; the continuation was (or will be) resumed with `false`,
        /// and a later settlement is ignored.
        case cancelled
        /// The continuation was resumed because the promise settled.
        case finished
    }

    @usableFromInline
    struct State: Sendable {
        @usableFromInline var phase: Phase = .idle
        /// The key of the handler registered on the promise, once known.
        @usableFromInline var handlerKey: UInt32?

        @inlinable
        init() {}
    }

    @usableFromInline let state: LockedState<State>

    @inlinable
    init() {
        state = LockedState(State())
    }

    /// Installs the continuation.
    /// - Returns: `true` if the caller should now register for the promise's result; `false` if
    ///   the task was already cancelled, in which case the continuation has been resumed.
    @inlinable
    func install(_ continuation: CheckedContinuation<Bool, Never>) -> Bool {
        let alreadyCancelled: Bool = state.withLock { state in
            switch state.phase {
            case .idle:
                state.phase = .waiting(continuation)
                return false
            case .cancelled:
                return true
            case .waiting, .finished:
                preconditionFailure("Vow: a promise awaiter was installed twice")
            }
        }
        if alreadyCancelled {
            continuation.resume(returning: false)
            return false
        }
        return true
    }

    /// Records the key of the handler registered on the promise.
    /// - Returns: `false` if the awaiter was cancelled meanwhile: the caller removes the handler.
    @inlinable
    func record(handlerKey: UInt32) -> Bool {
        state.withLock { state in
            if case .cancelled = state.phase { return false }
            state.handlerKey = handlerKey
            return true
        }
    }

    /// Resumes the awaiter because the promise settled, unless it was cancelled first.
    @inlinable
    func settle() {
        let continuation: CheckedContinuation<Bool, Never>? = state.withLock { state in
            guard case .waiting(let continuation) = state.phase else { return nil }
            state.phase = .finished
            return continuation
        }
        continuation?.resume(returning: true)
    }

    /// Releases the awaiter as cancelled: now if it is waiting, or as soon as it installs its
    /// continuation. Does nothing once the promise's settlement was delivered.
    /// - Returns: the key of the handler to remove from the promise, if one was recorded.
    @inlinable
    func cancel() -> UInt32? {
        let (continuation, handlerKey): (CheckedContinuation<Bool, Never>?, UInt32?) = state.withLock { state in
            switch state.phase {
            case .idle:
                state.phase = .cancelled
                return (nil, nil)
            case .waiting(let continuation):
                state.phase = .cancelled
                let handlerKey = state.handlerKey
                state.handlerKey = nil
                return (continuation, handlerKey)
            case .cancelled, .finished:
                return (nil, nil)
            }
        }
        continuation?.resume(returning: false)
        return handlerKey
    }
}
