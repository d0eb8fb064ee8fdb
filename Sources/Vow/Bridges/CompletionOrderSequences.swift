// `promises.values` and `promises.results`: a sequence of promises as an `AsyncSequence` of their
// outcomes in the order they settle, the async face of `when` and `race`.
//
// ```swift
// for try await thumbnail in photos.map(loadThumbnail).values {
//     show(thumbnail)            // the first one ready is shown first
// }
// ```
//
// Each `for await` loop (each iterator) registers one handler on every promise when it starts
// (`on: nil`: no queue has to be drained) and buffers results as they arrive. Leaving the loop
// early, a thrown rejection and cancelling the consuming task all stop that buffering at once; the
// promises themselves are shared and are neither cancelled nor waited for.

extension Sequence where Element: Thenable {
    /// The promises' values as an `AsyncSequence`, in the order the promises fulfill.
    ///
    /// - Success: yields each value as its promise fulfills (promises already settled come first,
    ///   in sequence order), then ends after the last one.
    /// - Failure: the first rejection to arrive is thrown, and the iteration ends there.
    /// - Cancellation: if the consuming task is cancelled, the iteration throws
    ///   `CancellationError` (once, at once, even while waiting) and then ends.
    public var values: CompletionOrderValues<Element> {
        CompletionOrderValues(promises: Array(self))
    }

    /// The promises' results (fulfilled or rejected) as an `AsyncSequence` that never throws, in
    /// the order the promises settle.
    ///
    /// - Yields each `Result` as its promise settles (promises already settled come first, in
    ///   sequence order), then ends after the last one.
    /// - Cancellation: if the consuming task is cancelled, the iteration ends (returns `nil`) at
    ///   once, even while waiting.
    public var results: CompletionOrderResults<Element> {
        CompletionOrderResults(promises: Array(self))
    }
}

/// The values of a sequence of promises, in the order they fulfill; throws the first rejection.
/// Made by `promises.values`.
public struct CompletionOrderValues<Promised: Thenable>: AsyncSequence, Sendable {
    /// Each promise's value.
    public typealias Element = Promised.T

    let promises: [Promised]

    init(promises: [Promised]) {
        self.promises = promises
    }

    /// Starts an iteration: registers a handler on every promise.
    public func makeAsyncIterator() -> Iterator {
        Iterator(iteration: CompletionOrderIteration(promises))
    }

    /// Reads one iteration's buffer; dropping it stops the buffering.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        let iteration: CompletionOrderIteration<Element>

        /// The next value to arrive; `nil` once every promise was delivered.
        ///
        /// - Throws: The first rejection (then the iteration ends), or `CancellationError` if the
        ///   current task is cancelled (then too).
        public func next() async throws -> Element? {
            switch await iteration.buffer.next() {
            case .element(.fulfilled(let value)):
                return value
            case .element(.rejected(let error)):
                iteration.buffer.stop()
                throw error
            case .end:
                return nil
            case .cancelled:
                throw CancellationError()
            }
        }
    }
}

/// The results of a sequence of promises, in the order they settle; never throws. Made by
/// `promises.results`.
public struct CompletionOrderResults<Promised: Thenable>: AsyncSequence, Sendable {
    /// Each promise's outcome.
    public typealias Element = Result<Promised.T>
    /// The iteration never throws.
    public typealias Failure = Never

    let promises: [Promised]

    init(promises: [Promised]) {
        self.promises = promises
    }

    /// Starts an iteration: registers a handler on every promise.
    public func makeAsyncIterator() -> Iterator {
        Iterator(iteration: CompletionOrderIteration(promises))
    }

    /// Reads one iteration's buffer; dropping it stops the buffering.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        /// The iteration never throws.
        public typealias Failure = Never

        let iteration: CompletionOrderIteration<Promised.T>

        /// The next result to arrive; `nil` once every promise was delivered, or once the current
        /// task is cancelled.
        public func next() async -> Result<Promised.T>? {
            switch await iteration.buffer.next() {
            case .element(let result):
                return result
            case .end, .cancelled:
                return nil
            }
        }
    }
}
