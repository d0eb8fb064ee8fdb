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

    @usableFromInline let phase: LockedState<Phase>

    @inlinable
    init() {
        phase = LockedState(.idle)
    }

    /// Installs the continuation.
    /// - Returns: `true` if the caller should now register for the promise's result; `false` if
    ///   the task was already cancelled, in which case the continuation has been resumed.
    @inlinable
    func install(_ continuation: CheckedContinuation<Bool, Never>) -> Bool {
        let alreadyCancelled: Bool = phase.withLock { phase in
            switch phase {
            case .idle:
                phase = .waiting(continuation)
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

    /// Resumes the awaiter because the promise settled, unless it was cancelled first.
    @inlinable
    func settle() {
        let continuation: CheckedContinuation<Bool, Never>? = phase.withLock { phase in
            guard case .waiting(let continuation) = phase else { return nil }
            phase = .finished
            return continuation
        }
        continuation?.resume(returning: true)
    }

    /// Releases the awaiter as cancelled: now if it is waiting, or as soon as it installs its
    /// continuation. Does nothing once the promise's settlement was delivered.
    @inlinable
    func cancel() {
        let continuation: CheckedContinuation<Bool, Never>? = phase.withLock { phase in
            switch phase {
            case .idle:
                phase = .cancelled
                return nil
            case .waiting(let continuation):
                phase = .cancelled
                return continuation
            case .cancelled, .finished:
                return nil
            }
        }
        continuation?.resume(returning: false)
    }
}
