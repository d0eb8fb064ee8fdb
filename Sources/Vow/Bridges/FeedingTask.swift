/// The task that reads an `AsyncSequence` of promises for `when` or `race`, and stops it once the
/// combined promise has settled (or its token fired), so an endless or slow input is not read for
/// nothing.
///
/// The combined promise may settle before the task's handle is handed over (an input whose first
/// promise is already rejected); the task is then cancelled as soon as it arrives. Cancelling
/// happens outside the lock.
final class FeedingTask: Sendable {
    private enum Phase: Sendable {
        case starting
        case running(Task<Void, Never>)
        case stopped
    }

    private let phase = LockedState(Phase.starting)

    /// Starts `body` in a task (`priority` as `Task`'s) that ``stop()`` cancels.
    init(priority: TaskPriority?, _ body: sending @escaping () async -> Void) {
        let task = Task(priority: priority, operation: body)
        let stoppedAlready: Bool = phase.withLock { phase in
            guard case .starting = phase else { return true }
            phase = .running(task)
            return false
        }
        if stoppedAlready {
            task.cancel()
        }
    }

    /// Cancels the task (now, or as soon as it exists). Idempotent.
    func stop() {
        let task: Task<Void, Never>? = phase.withLock { phase in
            defer { phase = .stopped }
            guard case .running(let task) = phase else { return nil }
            return task
        }
        task?.cancel()
    }
}

extension Promise {
    /// Runs `feed` (which reads the input) in a ``FeedingTask`` that stops when this promise
    /// settles; a token cancels this promise (rejecting it with `VowError.cancelled`) and with it
    /// the task. A token already cancelled rejects without starting `feed`.
    func startFeeding(
        priority: TaskPriority?,
        cancellation: CancellationToken,
        _ feed: sending @escaping () async -> Void
    ) {
        guard !cancellation.isCancellationRequested else {
            seal(.rejected(VowError.cancelled))
            return
        }
        let feeder = FeedingTask(priority: priority, feed)
        whenSettled { _ in feeder.stop() }
        guard cancellation.canBeCancelled, isPending else { return }
        let registrationSlot = TokenRegistrationSlot(token: cancellation)
        registrationSlot.hold(cancellation.register { [self] in
            seal(.rejected(VowError.cancelled))
        })
        whenSettled { _ in registrationSlot.release() }
    }
}
