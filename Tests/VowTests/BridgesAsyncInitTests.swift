import Dispatch
import XCTest

@testable import Vow

/// `Promise { try await ... }` and `Guarantee { await ... }` (DESIGN.md section 4, second item).
final class BridgesAsyncInitTests: XCTestCase {
    // MARK: - Promise

    func testAPromiseFromAnAsyncBodyIsFulfilledWithWhatTheBodyReturns() async throws {
        let promise = Promise { () async throws -> Int in
            await Task.yield()
            return 21 * 2
        }

        let value = try await promise.value

        XCTAssertEqual(value, 42)
    }

    func testAPromiseFromAnAsyncBodyIsRejectedWithWhatTheBodyThrows() async {
        let promise = Promise<Int> { throw BridgesTestError(code: 3) }

        await XCTAssertThrowsBridgesError(BridgesTestError(code: 3)) { try await promise.value }
    }

    func testACancellationErrorFromTheBodyRejectsAsCancelled() async {
        let promise = Promise<Int> { throw CancellationError() }

        let result = await promise.valueResult

        guard case .failure(let error) = result else { return XCTFail("expected a rejection") }
        XCTAssertTrue(error is CancellationError)
        XCTAssertTrue(error.isCancelled)
    }

    func testInitReturnsBeforeTheBodyRunsAndTheBodyRunsInItsOwnTask() async throws {
        let (gate, openGate) = Guarantee<Int>.pending()
        let promise = Promise { () async -> Int in
            await gate.value + 1
        }
        XCTAssertTrue(promise.isPending)

        openGate(1)
        let value = try await promise.value

        XCTAssertEqual(value, 2)
    }

    func testAMainActorBodyRunsOnTheMainActor() async throws {
        let promise = Promise { @MainActor () -> Bool in
            dispatchPrecondition(condition: .onQueue(.main))
            return isMainThread
        }

        let ranOnMainThread = try await promise.value

        XCTAssertTrue(ranOnMainThread)
    }

    /// Settled where the body finished, with no hop off the main actor first: a handler `on: nil`
    /// runs on the main queue, as one of a promise a main-queue handler settled would (and a
    /// handler on the main queue is queued right after the body, not after another hop).
    func testAMainActorBodysPromiseIsSettledOnTheMainActor() async throws {
        for cancellation in [nil, CancellationTokenSource().token] {
            let (gate, open) = AsyncStream<Void>.makeStream()
            let promise = Promise(cancellation: cancellation) { @MainActor @Sendable () async -> Int in
                for await _ in gate { break }
                return 7
            }
            let settledOn = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Int, Bool), Error>) in
                promise.done(on: nil) { value in
                    continuation.resume(returning: (value, isMainThread))
                }.catch(on: nil) { error in
                    continuation.resume(throwing: error)
                }
                open.yield()
            }
            XCTAssertEqual(settledOn.0, 7)
            XCTAssertTrue(settledOn.1, "settled on the main thread (token: \(cancellation != nil))")
        }
    }

    func testAMainActorGuaranteeBodysGuaranteeIsSettledOnTheMainActor() async {
        for cancellation in [nil, CancellationTokenSource().token] {
            let (gate, open) = AsyncStream<Void>.makeStream()
            let guarantee = Guarantee(cancellation: cancellation) { @MainActor @Sendable () async -> Int in
                for await _ in gate { break }
                return 8
            }
            let settledOn = await withCheckedContinuation { (continuation: CheckedContinuation<(Int, Bool), Never>) in
                guarantee.done(on: nil) { value in
                    continuation.resume(returning: (value, isMainThread))
                }
                open.yield()
            }
            XCTAssertEqual(settledOn.0, 8)
            XCTAssertTrue(settledOn.1, "settled on the main thread (token: \(cancellation != nil))")
        }
    }

    /// A main-actor body's task is queued on the main actor when the promise is made, as
    /// `Task { @MainActor in }` is: bodies start in the order they were made among the main
    /// queue's work (one started on the shared pool first would reach the main actor whenever
    /// the pool got to it).
    @MainActor
    func testMainActorBodiesStartInTheOrderTheyWereMadeAmongMainQueueWork() async {
        let order = Recorder<String>()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            for index in 0..<100 {
                if index.isMultiple(of: 2) {
                    _ = Promise<Int> { @MainActor @Sendable () async -> Int in order.append("promise \(index)"); return index }
                } else {
                    _ = Guarantee<Int> { @MainActor @Sendable () async -> Int in order.append("guarantee \(index)"); return index }
                }
                DispatchQueue.main.async { order.append("queued \(index)") }
            }
            DispatchQueue.main.async { continuation.resume() }
        }
        XCTAssertEqual(order.elements, (0..<100).flatMap { index in
            [(index.isMultiple(of: 2) ? "promise \(index)" : "guarantee \(index)"), "queued \(index)"]
        })
    }

    func testAnUnannotatedBodyWrittenInsideAnActorRunsOffThatActor() async throws {
        // Unlike `Task { }`, which inherits the actor it is written in.
        let (promiseBodyIsolated, taskBodyIsolated) = try await IsolationProbe().bodiesIsolation()
        XCTAssertFalse(promiseBodyIsolated)
        XCTAssertTrue(taskBodyIsolated)
    }

    func testAnAsyncPromiseWorksWhileTheMainThreadIsBlocked() {
        // Synchronous test on the main thread, which blocks below: neither the body (nonisolated)
        // nor settling nor the awaiter may need the main queue.
        XCTAssertTrue(isMainThread)
        let finished = DispatchSemaphore(value: 0)
        let outcome = BridgesLocked<Int?>(nil)
        Task.detached {
            let value = try await Promise { () async throws -> Int in
                try await Task.sleep(nanoseconds: 1_000)
                return 7
            }.value
            outcome.withLock { $0 = value }
            finished.signal()
        }

        XCTAssertEqual(finished.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(outcome.withLock { $0 }, 7)
    }

    func testThePriorityIsTheTasks() async throws {
        let promise = Promise(priority: .low) { Task.currentPriority }

        let priority = try await promise.value

        XCTAssertEqual(priority, .low)
    }

    // MARK: - Promise cancellation

    func testCancellingTheTokenRejectsAtOnceAndCancelsTheTask() async {
        let source = CancellationTokenSource()
        let (bodyStarted, markStarted) = Guarantee<Void>.pending()
        let (release, releaseBody) = Guarantee<Void>.pending()
        let sawCancellation = BridgesLocked<Bool?>(nil)
        let promise = Promise<Int>(cancellation: source.token) {
            markStarted(())
            // A body that ignores cancellation: the promise must not wait for it.
            await release.value
            sawCancellation.withLock { $0 = Task.isCancelled }
            return 1
        }
        await bodyStarted.value

        source.cancel()

        await XCTAssertThrowsBridgesError(VowError.cancelled) { try await promise.value }
        releaseBody(())
        await waitUntil { sawCancellation.withLock { $0 } != nil }
        XCTAssertEqual(sawCancellation.withLock { $0 }, true)
    }

    func testABodyThatHonoursCancellationRejectsAsCancelled() async {
        let source = CancellationTokenSource()
        let promise = Promise<Int>(cancellation: source.token) {
            try await Task.sleep(nanoseconds: 3_600_000_000_000)
            return 1
        }

        source.cancel()

        let result = await promise.valueResult
        guard case .failure(let error) = result else { return XCTFail("expected a rejection") }
        XCTAssertTrue(error.isCancelled)
    }

    func testAnAlreadyCancelledTokenRejectsWithoutRunningTheBody() async {
        let source = CancellationTokenSource()
        source.cancel()
        let bodyRan = BridgesLocked(false)

        let promise = Promise<Int>(cancellation: source.token) {
            bodyRan.withLock { $0 = true }
            return 1
        }

        await XCTAssertThrowsBridgesError(VowError.cancelled) { try await promise.value }
        XCTAssertFalse(bodyRan.withLock { $0 })
    }

    func testCancellingAfterTheBodyFinishedChangesNothing() async throws {
        let source = CancellationTokenSource()
        let promise = Promise(cancellation: source.token) { 5 }
        let value = try await promise.value

        source.cancel()

        XCTAssertEqual(value, 5)
        XCTAssertEqual(promise.valueIfFulfilled, 5)
    }

    func testALongLivedTokenDoesNotKeepFinishedPromisesAlive() async throws {
        let source = CancellationTokenSource()
        weak var finished: Promise<Int>?
        do {
            let promise = Promise(cancellation: source.token) { 1 }
            finished = promise
            _ = try await promise.value
        }

        // The task drops its registration on the token right after settling the promise.
        await waitUntil { finished == nil }
        XCTAssertFalse(source.isCancellationRequested)
    }

    // MARK: - Guarantee
    //
    // The guarantees below are spelled `Guarantee<T> { ... }`: `@testable import` also shows the
    // engine's internal `init(sealed:)`, which a trailing closure would otherwise match too.

    func testAGuaranteeFromAnAsyncBodySettlesWithWhatTheBodyReturns() async {
        let guarantee = Guarantee<String> { () async -> String in
            await Task.yield()
            return "ok"
        }

        let value = await guarantee.value

        XCTAssertEqual(value, "ok")
    }

    func testAMainActorGuaranteeBodyRunsOnTheMainActor() async {
        let guarantee = Guarantee<Bool> { @MainActor () -> Bool in
            dispatchPrecondition(condition: .onQueue(.main))
            return isMainThread
        }

        let ranOnMainThread = await guarantee.value

        XCTAssertTrue(ranOnMainThread)
    }

    func testCancellingAGuaranteesTokenCancelsItsTaskWhichDecidesTheValue() async {
        let source = CancellationTokenSource()
        let guarantee = Guarantee<String>(cancellation: source.token) { () async -> String in
            do {
                try await Task.sleep(nanoseconds: 3_600_000_000_000)
                return "slept"
            } catch {
                return "cancelled"
            }
        }

        source.cancel()

        let value = await guarantee.value
        XCTAssertEqual(value, "cancelled")
    }

    func testAGuaranteeWithAnAlreadyCancelledTokenStartsCancelled() async {
        let source = CancellationTokenSource()
        source.cancel()

        let guarantee = Guarantee<Bool>(cancellation: source.token) { Task.isCancelled }

        let startedCancelled = await guarantee.value
        XCTAssertTrue(startedCancelled)
    }
}

extension Promise {
    /// The outcome of `await value` as a `Swift.Result`, for assertions on the error.
    var valueResult: Swift.Result<T, any Error> {
        get async {
            do {
                return .success(try await value)
            } catch {
                return .failure(error)
            }
        }
    }
}

/// Creates a promise and a task inside an actor and reports whether their bodies ran isolated to it.
private actor IsolationProbe {
    func bodiesIsolation() async throws -> (promise: Bool, task: Bool) {
        // Both capture `self`, which makes a `Task { }` body isolated to the actor.
        let promise = try await Promise { () -> Bool in
            _ = self
            let isolation: (any Actor)? = #isolation
            return isolation != nil
        }.value
        let task = await Task { () -> Bool in
            _ = self
            let isolation: (any Actor)? = #isolation
            return isolation != nil
        }.value
        return (promise, task)
    }
}
