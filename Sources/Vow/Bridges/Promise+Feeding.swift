// The task that reads an `AsyncSequence` of promises for `when` or `race` over async sequences.

extension Promise {
    /// Runs `feed` (which reads the input and settles this promise) in a task of its own, and
    /// cancels that task once this promise settles, so an endless or slow input is not read for
    /// nothing. A token cancels this promise (rejecting it with `VowError.cancelled`) and with it
    /// the task; a token already cancelled rejects without starting `feed`.
    func startFeeding(
        priority: TaskPriority?,
        cancellation: CancellationToken,
        _ feed: sending @escaping () async -> Void
    ) {
        guard !cancellation.isCancellationRequested else {
            seal(.rejected(VowError.cancelled))
            return
        }
        let feedingTask = Task(priority: priority, operation: feed)
        // Runs at once if `feed` already settled this promise.
        whenSettled { _ in feedingTask.cancel() }
        guard cancellation.canBeCancelled, isPending else { return }
        let registrationSlot = TokenRegistrationSlot(token: cancellation)
        registrationSlot.hold(cancellation.register { [self] in
            seal(.rejected(VowError.cancelled))
        })
        whenSettled { _ in registrationSlot.release() }
    }
}
