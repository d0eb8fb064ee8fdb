import Dispatch
import XCTest

@testable import Vow

/// `promises.values`, `promises.results`, and `when(fulfilled:)` / `race(_:)` over an
/// `AsyncSequence` of promises.
final class BridgesAsyncSequenceTests: XCTestCase {
    // MARK: - promises.values

    func testValuesArriveInTheOrderThePromisesFulfill() async throws {
        let pending = (0..<3).map { _ in Promise<Int>.pending() }
        let iterator = pending.map(\.promise).values.makeAsyncIterator()
        pending[2].resolver.fulfill(2)
        pending[0].resolver.fulfill(0)
        pending[1].resolver.fulfill(1)

        var values: [Int] = []
        while let value = try await iterator.next() {
            values.append(value)
        }

        XCTAssertEqual(values, [2, 0, 1])
    }

    func testPromisesAlreadySettledComeFirstInSequenceOrder() async throws {
        let pending = Promise<Int>.pending()
        let promises = [Promise.value(1), pending.promise, Promise.value(3)]
        let iterator = promises.values.makeAsyncIterator()
        pending.resolver.fulfill(2)

        var values: [Int] = []
        while let value = try await iterator.next() {
            values.append(value)
        }

        XCTAssertEqual(values, [1, 3, 2])
    }

    func testValuesWaitForPromisesThatSettleWhileIterating() async throws {
        let pending = (0..<3).map { _ in Promise<Int>.pending() }
        let iterator = pending.map(\.promise).values.makeAsyncIterator()

        DispatchQueue.global().async { pending[1].resolver.fulfill(10) }
        let first = try await iterator.next()
        DispatchQueue.global().async { pending[2].resolver.fulfill(20) }
        let second = try await iterator.next()
        DispatchQueue.global().async { pending[0].resolver.fulfill(30) }
        let third = try await iterator.next()
        let end = try await iterator.next()

        XCTAssertEqual([first, second, third], [10, 20, 30])
        XCTAssertNil(end)
    }

    func testValuesThrowTheFirstRejectionAndThenEnd() async throws {
        let promises = [Promise.value(1), Promise(error: BridgesTestError(code: 2)), Promise.value(3)]
        let iterator = promises.values.makeAsyncIterator()

        let first = try await iterator.next()
        await XCTAssertThrowsBridgesError(BridgesTestError(code: 2)) { try await iterator.next() }
        let afterTheRejection = try await iterator.next()

        XCTAssertEqual(first, 1)
        XCTAssertNil(afterTheRejection)
    }

    func testValuesOfNoPromisesEndAtOnce() async throws {
        var count = 0
        for try await _ in [Promise<Int>]().values {
            count += 1
        }

        XCTAssertEqual(count, 0)
    }

    func testValuesWorkForGuarantees() async throws {
        let guarantees = [Guarantee.value("a"), Guarantee.value("b")]

        var values: [String] = []
        for try await value in guarantees.values {
            values.append(value)
        }

        XCTAssertEqual(values, ["a", "b"])
    }

    func testCancellingTheConsumingTaskThrowsCancellationErrorAtOnceAndLeavesThePromisesAlone() async {
        let pending = (0..<2).map { _ in Promise<Int>.pending() }
        let promises = pending.map(\.promise)
        let consumer = Task { () -> [Int] in
            var values: [Int] = []
            for try await value in promises.values {
                values.append(value)
            }
            return values
        }
        await waitUntilObserved(promises[0])

        consumer.cancel()

        await XCTAssertThrowsCancellationError { try await consumer.value }
        XCTAssertTrue(promises.allSatisfy(\.isPending))
        pending.forEach { $0.resolver.fulfill(0) }
    }

    func testLeavingTheLoopEarlyStopsBuffering() async throws {
        let pending = (0..<3).map { _ in Promise<Int>.pending() }
        var iterator: CompletionOrderValues<Promise<Int>>.Iterator? = pending.map(\.promise).values.makeAsyncIterator()
        let buffer = try XCTUnwrap(iterator?.iteration.buffer)
        pending[0].resolver.fulfill(0)
        pending[1].resolver.fulfill(1)
        XCTAssertEqual(buffer.bufferedCount, 2)
        _ = try await iterator?.next()

        iterator = nil

        XCTAssertTrue(buffer.hasStopped)
        XCTAssertEqual(buffer.bufferedCount, 0)
        pending[2].resolver.fulfill(2)
        XCTAssertEqual(buffer.bufferedCount, 0)
    }

    func testAThousandPromisesSettledFromManyThreadsAreEachYieldedOnce() async throws {
        let pending = (0..<1_000).map { _ in Promise<Int>.pending() }
        let iteration = pending.map(\.promise).values
        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: pending.count) { index in
                pending[index].resolver.fulfill(index)
            }
        }

        var seen: [Int] = []
        for try await value in iteration {
            seen.append(value)
        }

        XCTAssertEqual(seen.sorted(), Array(0..<1_000))
    }

    func testConsumersSharingOneIteratorEachGetDistinctValuesAndAllEnd() async throws {
        // The iterator is Sendable: several tasks may pull from it at once. Every value goes to
        // exactly one of them, and every one of them ends (none waits forever).
        let pending = (0..<200).map { _ in Promise<Int>.pending() }
        let iterator = pending.map(\.promise).values.makeAsyncIterator()
        let consumers = (0..<4).map { _ in
            Task { () -> [Int] in
                var taken: [Int] = []
                while let value = try await iterator.next() {
                    taken.append(value)
                }
                return taken
            }
        }
        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: pending.count) { index in
                pending[index].resolver.fulfill(index)
            }
        }

        var all: [Int] = []
        for consumer in consumers {
            all += try await consumer.value
        }

        XCTAssertEqual(all.sorted(), Array(0..<200))
    }

    func testConsumersWaitingBeyondTheLastPromiseAreReleasedWithTheEnd() async throws {
        let pending = Promise<Int>.pending()
        let iterator = [pending.promise].results.makeAsyncIterator()
        let consumers = (0..<3).map { _ in Task { await iterator.next() } }
        await waitUntil { iterator.iteration.buffer.waitingCount == 3 }

        pending.resolver.fulfill(1)

        var delivered = 0
        for consumer in consumers where await consumer.value != nil {
            delivered += 1
        }
        XCTAssertEqual(delivered, 1)
    }

    // MARK: - promises.results

    func testResultsYieldFulfilmentsAndRejectionsInCompletionOrderWithoutThrowing() async {
        let pending = (0..<3).map { _ in Promise<Int>.pending() }
        let results = pending.map(\.promise).results
        let iterator = results.makeAsyncIterator()
        pending[1].resolver.reject(BridgesTestError(code: 1))
        pending[2].resolver.fulfill(2)
        pending[0].resolver.fulfill(0)

        var outcomes: [String] = []
        while let result = await iterator.next() {
            switch result {
            case .fulfilled(let value): outcomes.append("fulfilled \(value)")
            case .rejected(let error): outcomes.append("rejected \((error as? BridgesTestError)?.code ?? -1)")
            }
        }

        XCTAssertEqual(outcomes, ["rejected 1", "fulfilled 2", "fulfilled 0"])
    }

    func testCancellingTheConsumingTaskEndsTheResultsAtOnce() async {
        let pending = Promise<Int>.pending()
        let promises = [Promise.value(1), pending.promise]
        let consumer = Task { () -> Int in
            var count = 0
            for await _ in promises.results {
                count += 1
            }
            return count
        }
        await waitUntilObserved(pending.promise)

        consumer.cancel()

        let count = await consumer.value
        XCTAssertEqual(count, 1)
        XCTAssertTrue(pending.promise.isPending)
        pending.resolver.fulfill(2)
    }

    func testResultsIterateInACancelledTaskEndImmediately() async {
        let consumer = Task { () -> Int in
            withUnsafeCurrentTask { $0?.cancel() }
            var count = 0
            for await _ in [Promise.value(1)].results {
                count += 1
            }
            return count
        }

        let count = await consumer.value

        XCTAssertEqual(count, 0)
    }

    // MARK: - when(fulfilled:) over an AsyncSequence

    func testWhenFulfillsWithTheValuesInInputOrder() async throws {
        let pending = (0..<3).map { _ in Promise<Int>.pending() }
        let (stream, input) = AsyncStream<Promise<Int>>.makeStream()
        let combined = when(fulfilled: stream)

        pending.forEach { input.yield($0.promise) }
        input.finish()
        pending[2].resolver.fulfill(2)
        pending[0].resolver.fulfill(0)
        pending[1].resolver.fulfill(1)

        let values = try await combined.value
        XCTAssertEqual(values, [0, 1, 2])
    }

    func testWhenOverAnEmptySequenceFulfillsWithNoValues() async throws {
        let (stream, input) = AsyncStream<Promise<Int>>.makeStream()
        input.finish()

        let values = try await when(fulfilled: stream).value

        XCTAssertEqual(values, [])
    }

    func testWhenRejectsWithTheFirstRejectionAndStopsReadingTheInput() async {
        let readingStopped = BridgesLocked(false)
        let (stream, input) = AsyncStream<Promise<Int>>.makeStream()
        input.onTermination = { _ in readingStopped.withLock { $0 = true } }
        input.yield(Promise.value(1))
        input.yield(Promise(error: BridgesTestError(code: 5)))
        // The input never finishes: only the rejection can end the reading.

        await XCTAssertThrowsBridgesError(BridgesTestError(code: 5)) { try await when(fulfilled: stream).value }
        await waitUntil { readingStopped.withLock { $0 } }
    }

    func testWhenRejectsWhenTheInputThrows() async {
        let (stream, input) = AsyncThrowingStream<Promise<Int>, any Error>.makeStream()
        input.yield(Promise.value(1))
        input.finish(throwing: BridgesTestError(code: 6))

        await XCTAssertThrowsBridgesError(BridgesTestError(code: 6)) { try await when(fulfilled: stream).value }
    }

    func testCancellingWhensTokenRejectsAndStopsReadingTheInput() async {
        let source = CancellationTokenSource()
        let readingStopped = BridgesLocked(false)
        let (stream, input) = AsyncStream<Promise<Int>>.makeStream()
        input.onTermination = { _ in readingStopped.withLock { $0 = true } }
        let combined = when(fulfilled: stream, cancellation: source.token)

        source.cancel()

        await XCTAssertThrowsBridgesError(VowError.cancelled) { try await combined.value }
        await waitUntil { readingStopped.withLock { $0 } }
    }

    // MARK: - race(_:) over an AsyncSequence

    func testRaceSettlesWithTheFirstPromiseToFulfillAndStopsReadingTheInput() async throws {
        let readingStopped = BridgesLocked(false)
        let slow = Promise<Int>.pending()
        let fast = Promise<Int>.pending()
        let (stream, input) = AsyncStream<Promise<Int>>.makeStream()
        input.onTermination = { _ in readingStopped.withLock { $0 = true } }
        let winner = race(stream)

        input.yield(slow.promise)
        input.yield(fast.promise)
        await waitUntilObserved(fast.promise)
        fast.resolver.fulfill(1)

        let value = try await winner.value
        XCTAssertEqual(value, 1)
        await waitUntil { readingStopped.withLock { $0 } }
        slow.resolver.fulfill(2)
        XCTAssertEqual(winner.valueIfFulfilled, 1)
    }

    func testRaceSettlesWithTheFirstRejectionToo() async {
        let neverSettled = Promise<Int>.pending()
        let (stream, input) = AsyncStream<Promise<Int>>.makeStream()
        input.yield(neverSettled.promise)
        input.yield(Promise(error: BridgesTestError(code: 8)))

        await XCTAssertThrowsBridgesError(BridgesTestError(code: 8)) { try await race(stream).value }
        XCTAssertTrue(neverSettled.promise.isPending)
    }

    func testRaceOverAnEmptySequenceRejectsWithBadInput() async {
        let (stream, input) = AsyncStream<Promise<Int>>.makeStream()
        input.finish()

        do {
            _ = try await race(stream).value
            XCTFail("expected a rejection")
        } catch PMKError.badInput {
            // Expected.
        } catch {
            XCTFail("unexpected \(error)")
        }
    }

    func testCancellingRacesTokenRejectsAndStopsReadingTheInput() async {
        let source = CancellationTokenSource()
        let readingStopped = BridgesLocked(false)
        let neverSettled = Promise<Int>.pending()
        // Not an AsyncStream: the reader may stop either by being cancelled inside `next()` or by
        // seeing the race already lost right after `next()` returned, and leaving the loop. A
        // stream reports only the first; this input reports both.
        let input = ReaderTrackingPromises(first: neverSettled.promise, readingStopped: readingStopped)
        let winner = race(input, cancellation: source.token)

        source.cancel()

        await XCTAssertThrowsBridgesError(VowError.cancelled) { try await winner.value }
        await waitUntil { readingStopped.withLock { $0 } }
        XCTAssertTrue(neverSettled.promise.isPending)
    }

    // MARK: - Cancelling a source, and living beside the array overloads

    func testRaceCancelsTheLosersSourceOnceItHasAWinner() async throws {
        let losers = CancellationTokenSource()
        let loserCancelled = BridgesLocked(false)
        let loser = Promise<Int>(cancellation: losers.token) { () async throws -> Int in
            do {
                try await Task.sleep(nanoseconds: 3_600_000_000_000)
            } catch {
                loserCancelled.withLock { $0 = true }
                throw error
            }
            return 0
        }
        let (stream, input) = AsyncStream<Promise<Int>>.makeStream()
        input.yield(loser)
        input.yield(Promise.value(1))

        let value = try await race(stream, cancelling: losers).value

        XCTAssertEqual(value, 1)
        XCTAssertTrue(losers.isCancellationRequested)
        await waitUntil { loserCancelled.withLock { $0 } }
    }

    func testWhenCancelsTheSourceOnARejectionOnly() async throws {
        let fulfilledSource = CancellationTokenSource()
        let (fulfilledStream, fulfilledInput) = AsyncStream<Promise<Int>>.makeStream()
        fulfilledInput.yield(Promise.value(1))
        fulfilledInput.finish()
        let rejectedSource = CancellationTokenSource()
        let (rejectedStream, rejectedInput) = AsyncStream<Promise<Int>>.makeStream()
        rejectedInput.yield(Promise(error: BridgesTestError(code: 1)))

        let values = try await when(fulfilled: fulfilledStream, cancelling: fulfilledSource).value
        await XCTAssertThrowsBridgesError(BridgesTestError(code: 1)) {
            try await when(fulfilled: rejectedStream, cancelling: rejectedSource).value
        }

        XCTAssertEqual(values, [1])
        XCTAssertFalse(fulfilledSource.isCancellationRequested)
        XCTAssertTrue(rejectedSource.isCancellationRequested)
    }

    func testArraysStillGoToTheCombinatorsAndAsyncSequencesToTheBridges() async throws {
        // An array is a `Sequence`, not an `AsyncSequence`: these calls must not be ambiguous.
        let fromArray: Promise<[Int]> = when(fulfilled: [Promise.value(1), Promise.value(2)])
        let raceOfArray: Promise<Int> = race([Promise.value(3)])
        let raceOfArguments: Promise<Int> = race(Promise.value(4), Promise.value(5))
        let (stream, input) = AsyncStream<Promise<Int>>.makeStream()
        input.yield(Promise.value(6))
        input.finish()
        let fromStream: Promise<[Int]> = when(fulfilled: stream)

        let values = try await [fromArray.value, [raceOfArray.value], [raceOfArguments.value], fromStream.value]

        XCTAssertEqual(values, [[1, 2], [3], [4], [6]])
    }
}


/// One promise, then nothing until the reader is cancelled; records when the reader stops
/// reading, whether by cancellation or by dropping its iterator.
private struct ReaderTrackingPromises: AsyncSequence, Sendable {
    typealias Element = Promise<Int>

    let first: Promise<Int>
    let readingStopped: BridgesLocked<Bool>

    final class Iterator: AsyncIteratorProtocol {
        private var first: Promise<Int>?
        private let readingStopped: BridgesLocked<Bool>

        init(first: Promise<Int>, readingStopped: BridgesLocked<Bool>) {
            self.first = first
            self.readingStopped = readingStopped
        }

        deinit {
            readingStopped.withLock { $0 = true }
        }

        func next() async -> Promise<Int>? {
            if let first {
                self.first = nil
                return first
            }
            // Nothing more until the reader is cancelled (the sleep throws then).
            while (try? await Task.sleep(nanoseconds: 3_600_000_000_000)) != nil {}
            return nil
        }
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(first: first, readingStopped: readingStopped)
    }
}
