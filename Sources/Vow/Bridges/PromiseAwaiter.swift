/// One `await promise.value` on a pending promise: resumes its continuation exactly once, with the
/// promise's result or with `CancellationError` if the awaiting task is cancelled first.
///
/// Three parties race: the awaiting task installing its continuation, the promise settling (its
/// handler may run on any thread) and the task being cancelled (its handler may run on any thread,
/// before or after the continuation exists). Each transition happens under the lock and returns
/// the continuation to resume, if any; the caller resumes it after the lock is released.
///
/// ```
/// idle ──install──▶ waiting ──settle──▶ finished
///   │                  │
///   └──cancel──▶ cancelled ◀──cancel──┘   (a later install resumes with CancellationError)
/// ```
@usableFromInline
final class PromiseAwaiter<Success: Sendable>: Sendable {
    @usableFromInline
    enum Phase: Sendable {
        /// The continuation is not installed yet, and nothing has happened.
        case idle
        /// The continuation is installed and the promise's handler is (or is about to be) registered.
        case waiting(CheckedContinuation<Success, any Error>)
        /// The awaiting task was cancelled; the continuation was (or will be) resumed with
        /// `CancellationError`, and a later settlement is ignored.
        case cancelled
        /// The continuation was resumed with the promise's result.
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
    func install(_ continuation: CheckedContinuation<Success, any Error>) -> Bool {
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
            continuation.resume(throwing: CancellationError())
            return false
        }
        return true
    }

    /// Resumes with the promise's result, unless the awaiter was cancelled first.
    @inlinable
    func settle(_ result: Result<Success>) {
        let continuation: CheckedContinuation<Success, any Error>? = phase.withLock { phase in
            guard case .waiting(let continuation) = phase else { return nil }
            phase = .finished
            return continuation
        }
        guard let continuation else { return }
        switch result {
        case .fulfilled(let value):
            continuation.resume(returning: value)
        case .rejected(let error):
            continuation.resume(throwing: error)
        }
    }

    /// Releases the awaiter with `CancellationError`: now if it is waiting, or as soon as it
    /// installs its continuation. Does nothing once the result was delivered.
    @inlinable
    func cancel() {
        let continuation: CheckedContinuation<Success, any Error>? = phase.withLock { phase in
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
        continuation?.resume(throwing: CancellationError())
    }
}
