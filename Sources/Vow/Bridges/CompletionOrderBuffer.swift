/// The results of a fixed set of promises, queued in the order they settle, for one consumer that
/// takes them one at a time from async code.
///
/// Producers are the promises' handlers (any thread); the consumer is one iterator's `next()`,
/// which waits with at most one continuation at a time. Cancelling the consumer's task while it
/// waits resumes it at once. Once the iteration stops (the iterator is dropped, it threw, or its
/// task was cancelled) the buffer empties and ignores later results: the handlers still registered
/// on pending promises then hold only this small object.
final class CompletionOrderBuffer<Value: Sendable>: Sendable {
    /// What the consumer gets next.
    enum Next: Sendable {
        case element(Result<Value>)
        /// Every promise was delivered, or the iteration was stopped.
        case end
        /// The consumer's task was cancelled. Reported once; after that the buffer answers `.end`.
        case cancelled
    }

    private enum Iteration: Sendable {
        case running
        case cancelled
        case stopped
    }

    private struct State: Sendable {
        var ready: [Result<Value>] = []
        var readIndex = 0
        /// Promises whose results have not arrived yet.
        var outstanding: Int
        var waiter: CheckedContinuation<Next, Never>?
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

        mutating func stop(_ reason: Iteration) {
            iteration = reason
            ready = []
            readIndex = 0
        }
    }

    private let state: LockedState<State>

    init(count: Int) {
        state = LockedState(State(outstanding: count))
    }

    /// Queues one promise's result, or hands it straight to the waiting consumer.
    func deliver(_ result: Result<Value>) {
        let waiter: CheckedContinuation<Next, Never>? = state.withLock { state in
            guard case .running = state.iteration else { return nil }
            state.outstanding -= 1
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.ready.append(result)
            return nil
        }
        waiter?.resume(returning: .element(result))
    }

    /// The next result in completion order, waiting for one if needed.
    func next(isolation: isolated (any Actor)? = #isolation) async -> Next {
        if Task.isCancelled {
            return state.withLock { state in
                if case .running = state.iteration { state.stop(.cancelled) }
                return state.takeReady() ?? .end
            }
        }
        if let ready = state.withLock({ $0.takeReady() }) {
            return ready
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready: Next? = state.withLock { state in
                    if let ready = state.takeReady() { return ready }
                    state.waiter = continuation
                    return nil
                }
                if let ready {
                    continuation.resume(returning: ready)
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Stops the iteration: drops what is queued and ignores what arrives later.
    func stop() {
        state.withLock { state in
            if case .running = state.iteration { state.stop(.stopped) }
        }
    }

    /// Results queued and not yet taken (for tests).
    var bufferedCount: Int {
        state.withLock { $0.ready.count - $0.readIndex }
    }

    /// Whether the iteration has stopped buffering (for tests).
    var hasStopped: Bool {
        state.withLock { state in
            if case .running = state.iteration { return false }
            return true
        }
    }

    private func cancel() {
        let waiter: CheckedContinuation<Next, Never>? = state.withLock { state in
            guard case .running = state.iteration else { return nil }
            state.stop(.cancelled)
            guard let waiter = state.waiter else { return nil }
            state.waiter = nil
            // The waiter hears about the cancellation now, so later calls just end.
            state.iteration = .stopped
            return waiter
        }
        waiter?.resume(returning: .cancelled)
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
