/// The results of a fixed set of promises, queued in the order they settle, for the consumers of
/// one iteration to take one at a time from async code.
///
/// Producers are the promises' handlers (any thread). Consumers are `next()` calls: usually one
/// loop, but the iterator is `Sendable`, so several tasks may call `next()` at once; each waiting
/// call holds one continuation, and every continuation is resumed exactly once (with a result, the
/// end, or its cancellation). Cancelling a waiting consumer's task resumes it at once.
///
/// Once the iteration stops (the iterator is dropped, it threw, or a consumer's task was cancelled)
/// the buffer empties, releases every waiting consumer with `.end` and ignores later results: the
/// handlers still registered on pending promises then hold only this small object.
final class CompletionOrderBuffer<Value: Sendable>: Sendable {
    /// What a consumer gets next.
    enum Next: Sendable {
        case element(Result<Value>)
        /// Every promise was delivered, or the iteration was stopped.
        case end
        /// The consumer's task was cancelled. Reported once; after that the buffer answers `.end`.
        case cancelled
    }

    private enum Iteration: Sendable {
        case running
        /// Stopped by a cancellation that no consumer has been told about yet.
        case cancelled
        case stopped
    }

    private struct Waiter: Sendable {
        let id: Int
        let continuation: CheckedContinuation<Next, Never>
    }

    private struct State: Sendable {
        var ready: [Result<Value>] = []
        var readIndex = 0
        /// Promises whose results have not arrived yet.
        var outstanding: Int
        var waiters: [Waiter] = []
        var nextWaiterID = 0
        var iteration = Iteration.running

        init(outstanding: Int) {
            self.outstanding = outstanding
        }

        /// The answer that needs no waiting, if there is one.
        mutating func takeReady() -> Next? {
            switch iteration {
            case .cancelled:
                iteration = .stopped
                return .cancelled
            case .stopped:
                return .end
            case .running:
                if readIndex < ready.count {
                    let result = ready[readIndex]
                    readIndex += 1
                    if readIndex == ready.count {
                        ready.removeAll(keepingCapacity: true)
                        readIndex = 0
                    }
                    return .element(result)
                }
                return outstanding == 0 ? .end : nil
            }
        }

        /// Stops the iteration. - Returns: The consumers still waiting, to be released.
        mutating func stop(_ reason: Iteration) -> [Waiter] {
            iteration = reason
            ready = []
            readIndex = 0
            defer { waiters = [] }
            return waiters
        }
    }

    private let state: LockedState<State>

    init(count: Int) {
        state = LockedState(State(outstanding: count))
    }

    /// Queues one promise's result, or hands it straight to the first waiting consumer.
    func deliver(_ result: Result<Value>) {
        let (receiver, releasedAtEnd): (Waiter?, [Waiter]) = state.withLock { state in
            guard case .running = state.iteration else { return (nil, []) }
            state.outstanding -= 1
            guard !state.waiters.isEmpty else {
                state.ready.append(result)
                return (nil, [])
            }
            let receiver = state.waiters.removeFirst()
            // That was the last result: consumers waiting beyond it will get nothing more.
            let releasedAtEnd = state.outstanding == 0 ? state.waiters : []
            if state.outstanding == 0 { state.waiters = [] }
            return (receiver, releasedAtEnd)
        }
        receiver?.continuation.resume(returning: .element(result))
        for waiter in releasedAtEnd {
            waiter.continuation.resume(returning: .end)
        }
    }

    /// The next result in completion order, waiting for one if needed.
    func next(isolation: isolated (any Actor)? = #isolation) async -> Next {
        let taskIsCancelled = Task.isCancelled
        let (ready, waiterID, released): (Next?, Int, [Waiter]) = state.withLock { state in
            var released: [Waiter] = []
            if taskIsCancelled, case .running = state.iteration {
                released = state.stop(.cancelled)
            }
            if let ready = state.takeReady() { return (ready, 0, released) }
            state.nextWaiterID += 1
            return (nil, state.nextWaiterID, released)
        }
        for waiter in released {
            waiter.continuation.resume(returning: .end)
        }
        if let ready {
            return ready
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready: Next? = state.withLock { state in
                    if let ready = state.takeReady() { return ready }
                    state.waiters.append(Waiter(id: waiterID, continuation: continuation))
                    return nil
                }
                if let ready {
                    continuation.resume(returning: ready)
                }
            }
        } onCancel: {
            cancel(waiterID: waiterID)
        }
    }

    /// Stops the iteration: drops what is queued, releases waiting consumers with `.end` and
    /// ignores what arrives later.
    func stop() {
        let released: [Waiter] = state.withLock { state in
            guard case .running = state.iteration else { return [] }
            return state.stop(.stopped)
        }
        for waiter in released {
            waiter.continuation.resume(returning: .end)
        }
    }

    /// A consumer's task was cancelled: the iteration stops; that consumer hears `.cancelled` (now
    /// if it waits, else from its next look), the other waiting consumers `.end`.
    private func cancel(waiterID: Int) {
        let (cancelled, released): (Waiter?, [Waiter]) = state.withLock { state in
            guard case .running = state.iteration else { return (nil, []) }
            var released = state.stop(.cancelled)
            guard let index = released.firstIndex(where: { $0.id == waiterID }) else {
                return (nil, released)
            }
            // This consumer hears about the cancellation now, so later calls just end.
            state.iteration = .stopped
            return (released.remove(at: index), released)
        }
        cancelled?.continuation.resume(returning: .cancelled)
        for waiter in released {
            waiter.continuation.resume(returning: .end)
        }
    }

    /// Results queued and not yet taken (for tests).
    var bufferedCount: Int {
        state.withLock { $0.ready.count - $0.readIndex }
    }

    /// Consumers waiting right now (for tests).
    var waitingCount: Int {
        state.withLock { $0.waiters.count }
    }

    /// Whether the iteration has stopped buffering (for tests).
    var hasStopped: Bool {
        state.withLock { state in
            if case .running = state.iteration { return false }
            return true
        }
    }
}

/// Stops a buffer when the iterator that reads it goes away, so ending a `for await` loop early
/// stops the buffering the adapter started.
final class CompletionOrderIteration<Value: Sendable>: Sendable {
    let buffer: CompletionOrderBuffer<Value>

    init<Promised: Thenable>(_ promises: [Promised]) where Promised.T == Value {
        let buffer = CompletionOrderBuffer<Value>(count: promises.count)
        for promise in promises {
            // `on: nil`: results are queued on whichever thread settles each promise.
            promise.pipe { result in buffer.deliver(result) }
        }
        self.buffer = buffer
    }

    deinit {
        buffer.stop()
    }
}
