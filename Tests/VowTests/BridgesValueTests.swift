import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XCTest

@testable import Vow

/// `await promise.value` and `await guarantee.value` (DESIGN.md section 4, first item).
final class BridgesValueTests: XCTestCase {
    // MARK: - Settled promises

    func testAwaitingAFulfilledPromiseReturnsItsValue() async throws {
        let promise = Promise.value(3)

        let value = try await promise.value

        XCTAssertEqual(value, 3)
    }

    func testAwaitingARejectedPromiseThrowsItsError() async {
        let promise = Promise<Int>(error: BridgesTestError(code: 7))

        await XCTAssertThrowsBridgesError(BridgesTestError(code: 7)) { try await promise.value }
    }

    func testTheStaticValueFactoriesCoexistWithTheAsyncGetters() async throws {
        // `Promise.value(_:)` / `Guarantee.value(_:)` (static, PromiseKit) beside `value` (async).
        let fulfilled: Int = try await Promise.value(3).value
        let settled: String = await Guarantee.value("g").value
        // The `Void` specialisations add a static `value` *property*; it must not collide either.
        let voidPromise: Promise<Void> = Promise.value
        let voidGuarantee: Guarantee<Void> = Guarantee.value
        try await voidPromise.value
        await voidGuarantee.value
        try await Promise<Void>.value.value
        await Guarantee<Void>.value.value

        XCTAssertEqual(fulfilled, 3)
        XCTAssertEqual(settled, "g")
    }

    func testAnAlreadySettledPromiseAnswersEvenInACancelledTask() async throws {
        let promise = Promise.value(5)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await promise.value
        }

        let value = try await task.value

        XCTAssertEqual(value, 5)
    }

    func testAwaitingARejectionCountsAsHandlingIt() async {
        let promise = Promise<Int>(error: BridgesTestError(code: 1))

        _ = try? await promise.value

        XCTAssertNil(promise.box.unobservedValue())
    }

    // MARK: - Pending promises

    func testAwaitingAPendingPromiseResumesWhenItIsFulfilledOnAnotherThread() async throws {
        let (promise, resolver) = Promise<Int>.pending()
        DispatchQueue.global().async { resolver.fulfill(42) }

        let value = try await promise.value

        XCTAssertEqual(value, 42)
    }

    func testAwaitingAPendingPromiseThrowsWhenItIsRejected() async {
        let (promise, resolver) = Promise<Int>.pending()
        let awaiter = Task { try await promise.value }
        await waitUntilObserved(promise)

        resolver.reject(BridgesTestError(code: 2))

        await XCTAssertThrowsBridgesError(BridgesTestError(code: 2)) { try await awaiter.value }
    }

    func testAPromiseWhoseResolverIsDroppedReleasesItsAwaitersWithAbandoned() async {
        let promise: Promise<Int>
        var resolver: Resolver<Int>?
        (promise, resolver) = Promise<Int>.pending()
        let awaiters = (0..<3).map { _ in Task { try await promise.value } }
        await waitUntilObserved(promise)
        XCTAssertNotNil(resolver)

        resolver = nil

        for awaiter in awaiters {
            await XCTAssertThrowsBridgesError(VowError.abandoned) { try await awaiter.value }
        }
    }

    func testTenThousandConcurrentAwaitersOnOnePromiseAllResume() async throws {
        let (promise, resolver) = Promise<Int>.pending()
        let started = BridgesCounter()
        let count = 10_000

        let sum = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<count {
                group.addTask {
                    started.increment()
                    return try await promise.value
                }
            }
            await waitUntil { started.value == count }
            DispatchQueue.global().async { resolver.fulfill(1) }
            return try await group.reduce(0, +)
        }

        XCTAssertEqual(sum, count)
    }

    // MARK: - Cancelling the awaiting task

    func testAnAwaiterCancelledBeforeItAwaitsThrowsCancellationErrorAndThePromiseGoesOn() async throws {
        let (promise, resolver) = Promise<Int>.pending()
        let cancelledAwaiter = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await promise.value
        }

        await XCTAssertThrowsCancellationError { try await cancelledAwaiter.value }
        XCTAssertTrue(promise.isPending)

        resolver.fulfill(9)
        let value = try await promise.value
        XCTAssertEqual(value, 9)
    }

    func testAnAwaiterCancelledWhileWaitingThrowsAtOnceAndTheOthersGetTheValue() async throws {
        let (promise, resolver) = Promise<Int>.pending()
        let cancelledAwaiter = Task { try await promise.value }
        let patientAwaiter = Task { try await promise.value }
        await waitUntilObserved(promise, handlers: 2)

        cancelledAwaiter.cancel()
        // The promise is still pending: the cancelled awaiter returned without it.
        await XCTAssertThrowsCancellationError { try await cancelledAwaiter.value }
        XCTAssertTrue(promise.isPending)

        resolver.fulfill(11)
        let value = try await patientAwaiter.value
        XCTAssertEqual(value, 11)
    }

    func testCancellingAnAwaiterAfterItResumedChangesNothing() async throws {
        let (promise, resolver) = Promise<Int>.pending()
        let awaiter = Task { try await promise.value }
        await waitUntilObserved(promise)

        resolver.fulfill(12)
        let value = try await awaiter.value
        awaiter.cancel()

        let valueAfterCancelling = try await awaiter.value
        XCTAssertEqual(value, 12)
        XCTAssertEqual(valueAfterCancelling, 12)
    }

    func testAwaitersRacingCancellationAgainstSettlementEachGetExactlyOneOutcome() async {
        // Settling and cancelling at the same moment, many times: every awaiter ends with either
        // the value or CancellationError, once (a double resume would trap the checked
        // continuation; a lost one would hang this test).
        await raceCancellationAgainstSettlement(rounds: 500) { promise in
            Task { try await promise.value }
        }
    }

    /// Starts four awaiters per round, then settles the promise and cancels them at the same
    /// moment; each must end with the value or `CancellationError`, exactly once.
    private func raceCancellationAgainstSettlement(
        rounds: Int,
        awaiter makeAwaiter: (Promise<Int>) -> Task<Int, any Error>
    ) async {
        for round in 0..<rounds {
            let (promise, resolver) = Promise<Int>.pending()
            let awaiters = (0..<4).map { _ in makeAwaiter(promise) }
            let start = DispatchGroup()
            DispatchQueue.global().async(group: start) { resolver.fulfill(round) }
            DispatchQueue.global().async(group: start) { awaiters.forEach { $0.cancel() } }
            for awaiter in awaiters {
                switch await awaiter.result {
                case .success(let value):
                    XCTAssertEqual(value, round)
                case .failure(let error):
                    XCTAssertTrue(error is CancellationError, "unexpected \(error)")
                }
            }
        }
    }

    // MARK: - Awaiters isolated to an actor

    // `value` waits one way for a caller without an actor and another for a caller on one (which
    // must be resumed on its actor); these run the second way.

    func testAnActorIsolatedAwaiterResumesOnItsActorWithTheValue() async throws {
        let (promise, resolver) = Promise<Int>.pending()
        let awaiter = AwaitingActor()
        let waiting = Task { try await awaiter.await(promise) }
        await waitUntilObserved(promise)

        DispatchQueue.global().async { resolver.fulfill(21) }
        let value = try await waiting.value
        XCTAssertEqual(value, 21)
    }

    func testAnActorIsolatedAwaiterCancelledWhileWaitingThrowsAtOnceAndLeavesItsSlot() async throws {
        let (promise, resolver) = Promise<Int>.pending()
        let cancelled = AwaitingActor()
        let patient = AwaitingActor()
        let cancelledAwaiter = Task { try await cancelled.await(promise) }
        let patientAwaiter = Task { try await patient.await(promise) }
        await waitUntilObserved(promise, handlers: 2)

        cancelledAwaiter.cancel()
        await XCTAssertThrowsCancellationError { try await cancelledAwaiter.value }
        XCTAssertEqual(promise.observerCount, 1)
        XCTAssertTrue(promise.isPending)

        resolver.fulfill(22)
        let value = try await patientAwaiter.value
        XCTAssertEqual(value, 22)
    }

    func testAnActorIsolatedAwaiterCancelledBeforeItAwaitsThrowsCancellationError() async {
        let (promise, resolver) = Promise<Int>.pending()
        let awaiter = AwaitingActor()
        let cancelledAwaiter = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await awaiter.await(promise)
        }
        await XCTAssertThrowsCancellationError { try await cancelledAwaiter.value }
        XCTAssertEqual(promise.observerCount, 0)
        resolver.fulfill(0)
    }

    func testActorIsolatedAwaitersRacingCancellationAgainstSettlementEachGetExactlyOneOutcome() async {
        await raceCancellationAgainstSettlement(rounds: 300) { promise in
            let actor = AwaitingActor()
            return Task { try await actor.await(promise) }
        }
    }

    // MARK: - Cancelled awaiters release their slot

    func testACancelledAwaiterTakesItsHandlerOutOfThePendingPromiseAtOnce() async throws {
        let (promise, resolver) = Promise<Int>.pending()
        let cancelledAwaiter = Task { try await promise.value }
        let patientAwaiter = Task { try await promise.value }
        await waitUntilObserved(promise, handlers: 2)

        cancelledAwaiter.cancel()
        await XCTAssertThrowsCancellationError { try await cancelledAwaiter.value }

        XCTAssertEqual(promise.observerCount, 1)
        resolver.fulfill(5)
        let value = try await patientAwaiter.value
        XCTAssertEqual(value, 5)
    }

    func testAMillionCancelledAwaitsOnANeverSettlingPromiseHoldNoMemory() async throws {
        // Issue 12: each cancelled awaiter used to keep its handler (about 110 bytes) until the
        // promise settled. A thousand rounds of a thousand awaiters, all suspended, then all
        // cancelled: after each round the promise holds no handler slot at all. (A tenth of the
        // rounds under the thread sanitizer, which looks for races, not memory, and is 15x slower.)
        let (promise, resolver) = Promise<Int>.pending()
        let isThreadSanitized = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_acquire") != nil
        let rounds = isThreadSanitized ? 100 : 1_000, awaitersPerRound = 1_000
        var cancelledAwaits = 0
        for _ in 0..<rounds {
            let cancelled = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<awaitersPerRound {
                    group.addTask {
                        do {
                            _ = try await promise.value
                            return false
                        } catch {
                            return error is CancellationError
                        }
                    }
                }
                await waitUntilObserved(promise, handlers: awaitersPerRound)
                group.cancelAll()
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            cancelledAwaits += cancelled
            XCTAssertEqual(promise.box.storedHandlerSlots, 0)
            if promise.box.storedHandlerSlots != 0 { break }
        }

        XCTAssertEqual(cancelledAwaits, rounds * awaitersPerRound)
        XCTAssertTrue(promise.isPending)
        resolver.fulfill(1)
        let value = try await promise.value
        XCTAssertEqual(value, 1)
    }

    func testAwaitersCancelledOutOfOrderLeaveAtMostTwiceTheLiveSlots() async throws {
        // Cancelling every other awaiter leaves holes among the live ones; the box reclaims them
        // rather than growing, and the survivors still get the value, in order.
        let (promise, resolver) = Promise<Int>.pending()
        let awaiters = (0..<200).map { _ in Task { try await promise.value } }
        await waitUntilObserved(promise, handlers: awaiters.count)

        for (index, awaiter) in awaiters.enumerated() where index % 2 == 1 {
            awaiter.cancel()
            await XCTAssertThrowsCancellationError { try await awaiter.value }
        }

        XCTAssertEqual(promise.observerCount, 100)
        XCTAssertLessThanOrEqual(promise.box.storedHandlerSlots, 200)
        let slotsBefore = promise.box.storedHandlerSlots
        let late = (0..<100).map { _ in Task { try await promise.value } }
        await waitUntilObserved(promise, handlers: 200)
        XCTAssertLessThanOrEqual(promise.box.storedHandlerSlots, max(slotsBefore, 2 * 200))
        resolver.fulfill(8)
        for (index, awaiter) in awaiters.enumerated() where index % 2 == 0 {
            let value = try await awaiter.value
            XCTAssertEqual(value, 8)
        }
        for awaiter in late {
            let value = try await awaiter.value
            XCTAssertEqual(value, 8)
        }
    }

    // MARK: - Guarantees

    func testAwaitingASettledGuaranteeReturnsItsValue() async {
        let value = await Guarantee.value("done").value

        XCTAssertEqual(value, "done")
    }

    func testAwaitingAPendingGuaranteeResumesWhenItSettlesOnAnotherThread() async {
        let (guarantee, resolve) = Guarantee<Int>.pending()
        DispatchQueue.global().async { resolve(8) }

        let value = await guarantee.value

        XCTAssertEqual(value, 8)
    }

    func testAGuaranteeAwaiterKeepsWaitingThroughCancellationAndGetsTheValue() async {
        let (guarantee, resolve) = Guarantee<Int>.pending()
        let awaiter = Task { await guarantee.value }
        await waitUntil { guarantee.hasObservers }

        awaiter.cancel()
        resolve(4)

        let value = await awaiter.value
        XCTAssertEqual(value, 4)
    }

    func testTenThousandConcurrentAwaitersOnOneGuaranteeAllResume() async {
        let (guarantee, resolve) = Guarantee<Int>.pending()
        let count = 10_000

        let sum = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<count {
                group.addTask { await guarantee.value }
            }
            DispatchQueue.global().async { resolve(1) }
            return await group.reduce(0, +)
        }

        XCTAssertEqual(sum, count)
    }

    // MARK: - No main queue needed

    func testAwaitingNeverNeedsTheMainQueueEvenWhileTheMainThreadIsBlocked() {
        // Synchronous test: XCTest runs it on the main thread, which then blocks on a semaphore.
        // If resuming an awaiter needed the main queue (PromiseKit's default `conf.Q`), the awaiter
        // could never finish and the wait would time out.
        XCTAssertTrue(isMainThread, "XCTest runs synchronous tests on the main thread")
        XCTAssertNotNil(conf.Q.map, "the default queues stay in place for this test")
        let (promise, resolver) = Promise<Int>.pending()
        let (guarantee, resolve) = Guarantee<Int>.pending()
        let finished = DispatchSemaphore(value: 0)
        let outcome = BridgesLocked<Int?>(nil)
        Task.detached {
            let sum = try await promise.value + guarantee.value
            outcome.withLock { $0 = sum }
            finished.signal()
        }
        DispatchQueue.global().async {
            resolver.fulfill(20)
            resolve(22)
        }

        let result = finished.wait(timeout: .now() + 60)

        XCTAssertEqual(result, .success)
        XCTAssertEqual(outcome.withLock { $0 }, 42)
    }
}

// MARK: - Helpers shared by the Bridges tests

struct BridgesTestError: Error, Equatable {
    var code: Int
}

/// A value behind Vow's own lock, for tests that record from many threads.
final class BridgesLocked<Value: Sendable>: Sendable {
    private let state: LockedState<Value>

    init(_ value: Value) {
        state = LockedState(value)
    }

    func withLock<Outcome>(_ body: (inout Value) -> Outcome) -> Outcome {
        state.withLock(body)
    }
}

final class BridgesCounter: Sendable {
    private let count = BridgesLocked(0)

    @discardableResult
    func increment() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }

    var value: Int { count.withLock { $0 } }
}

extension Promise {
    /// How many handlers wait on this pending promise (test-only peek at the box).
    var observerCount: Int {
        box.handlerCount
    }
}

extension Guarantee {
    var hasObservers: Bool {
        box.handlerCount > 0
    }
}

/// Polls `condition` until it holds; fails the test after a generous minute (never a timing
/// assertion, only a guard against hanging forever).
func waitUntil(
    isolation: isolated (any Actor)? = #isolation,
    _ condition: () -> Bool,
    file: StaticString = #filePath,
    line: UInt = #line
) async {
    let deadline = DispatchTime.now() + 60
    while !condition() {
        guard DispatchTime.now() < deadline else {
            XCTFail("condition never became true", file: file, line: line)
            return
        }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
}

/// Waits until `handlers` handlers (such as awaiters) are registered on the pending `promise`.
func waitUntilObserved<T>(
    isolation: isolated (any Actor)? = #isolation,
    _ promise: Promise<T>,
    handlers: Int = 1,
    file: StaticString = #filePath,
    line: UInt = #line
) async {
    await waitUntil({ promise.observerCount >= handlers }, file: file, line: line)
}

func XCTAssertThrowsBridgesError<Expected: Error & Equatable, T>(
    _ expected: Expected,
    file: StaticString = #filePath,
    line: UInt = #line,
    _ body: () async throws -> T
) async {
    do {
        let value = try await body()
        XCTFail("expected \(expected), got the value \(value)", file: file, line: line)
    } catch let error as Expected {
        XCTAssertEqual(error, expected, file: file, line: line)
    } catch {
        XCTFail("expected \(expected), got \(error)", file: file, line: line)
    }
}

func XCTAssertThrowsCancellationError<T>(
    file: StaticString = #filePath,
    line: UInt = #line,
    _ body: () async throws -> T
) async {
    do {
        let value = try await body()
        XCTFail("expected CancellationError, got the value \(value)", file: file, line: line)
    } catch is CancellationError {
        // Expected.
    } catch {
        XCTFail("expected CancellationError, got \(error)", file: file, line: line)
    }
}

/// Awaits promises from inside an actor, and checks that it is resumed there.
private actor AwaitingActor {
    func await(_ promise: Promise<Int>) async throws -> Int {
        let value = try await promise.value
        assertIsolated("resumed off the actor that awaited")
        return value
    }
}
