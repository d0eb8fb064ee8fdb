import Dispatch
import XCTest

@testable import Vow

/// Completion-handler adapters: `withCallback` / `withValueCallback` (async) and
/// `Promise.fromCallback` / `Promise.fromValueCallback` (promises).
final class BridgesCallbackTests: XCTestCase {
    // MARK: - Async calls, one per handler shape

    func testAnOptionalValueAndErrorHandlerReturnsTheValue() async throws {
        let value = try await withCallback { done in
            LegacyAPI.optionalValueAndError(answer: (5, nil), completion: done)
        }

        XCTAssertEqual(value, 5)
    }

    func testAnOptionalValueAndErrorHandlerThrowsTheError() async {
        await XCTAssertThrowsBridgesError(BridgesTestError(code: 1)) {
            try await withCallback { done in
                LegacyAPI.optionalValueAndError(answer: (nil, BridgesTestError(code: 1)), completion: done)
            }
        }
    }

    func testAnOptionalValueAndErrorHandlerCalledWithNeitherIsAnInvalidCallingConvention() async {
        do {
            _ = try await withCallback { done in
                LegacyAPI.optionalValueAndError(answer: (nil, nil), completion: done)
            }
            XCTFail("expected a rejection")
        } catch PMKError.invalidCallingConvention {
            // Expected.
        } catch {
            XCTFail("unexpected \(error)")
        }
    }

    func testAValueAndErrorHandlerReturnsTheValueOrThrows() async throws {
        let value = try await withCallback { done in
            LegacyAPI.valueAndError(answer: ("ok", nil), completion: done)
        }
        XCTAssertEqual(value, "ok")

        await XCTAssertThrowsBridgesError(BridgesTestError(code: 2)) {
            try await withCallback { done in
                LegacyAPI.valueAndError(answer: ("ignored", BridgesTestError(code: 2)), completion: done)
            }
        }
    }

    func testAnErrorOnlyHandlerReturnsOrThrows() async throws {
        try await withCallback { done in LegacyAPI.errorOnly(answer: nil, completion: done) }

        await XCTAssertThrowsBridgesError(BridgesTestError(code: 3)) {
            try await withCallback { done in LegacyAPI.errorOnly(answer: BridgesTestError(code: 3), completion: done) }
        }
    }

    func testAResultHandlerReturnsTheSuccessOrThrowsTheTypedFailure() async throws {
        let value = try await withCallback { done in LegacyAPI.result(answer: .success(8), completion: done) }
        XCTAssertEqual(value, 8)

        await XCTAssertThrowsBridgesError(BridgesTestError(code: 4)) {
            try await withCallback { done in
                LegacyAPI.result(answer: .failure(BridgesTestError(code: 4)), completion: done)
            }
        }
    }

    func testAValueOnlyHandlerReturnsTheValue() async throws {
        let value = try await withValueCallback { done in LegacyAPI.valueOnly(answer: 13, completion: done) }

        XCTAssertEqual(value, 13)
    }

    func testTheStartClosureRunsOnTheCallersActor() async throws {
        let startedOnMainThread = try await startOnMainActor()

        XCTAssertTrue(startedOnMainThread)
    }

    // MARK: - Async calls: misbehaving APIs

    func testAHandlerDroppedWithoutBeingCalledThrowsAbandoned() async {
        await XCTAssertThrowsBridgesError(VowError.abandoned) {
            try await withCallback { (done: @escaping @Sendable (Int?, (any Error)?) -> Void) in
                DispatchQueue.global().async { _ = done }
            }
        }
    }

    func testAHandlerCalledTwiceKeepsTheFirstAnswer() async throws {
        let value = try await withCallback { (done: @escaping @Sendable (Int, (any Error)?) -> Void) in
            DispatchQueue.global().async {
                done(1, nil)
                done(2, nil)
                done(3, BridgesTestError(code: 3))
            }
        }

        XCTAssertEqual(value, 1)
    }

    // MARK: - Async calls: cancellation

    func testCancellingTheTaskThrowsAtOnceAndRunsTheCancelAction() async {
        let operation = LegacyOperation<Int>()
        let call = Task {
            try await withCallback(onCancel: { operation.cancel() }) { done in operation.start(done) }
        }
        await operation.waitUntilStarted()

        call.cancel()

        await XCTAssertThrowsCancellationError { try await call.value }
        XCTAssertEqual(operation.cancelCount, 1)
        // The operation's late answer is ignored.
        operation.finish(with: 1)
    }

    func testCancellingTheTokenThrowsCancelledAndRunsTheCancelAction() async {
        let source = CancellationTokenSource()
        let operation = LegacyOperation<Int>()
        let call = Task {
            try await withCallback(cancellation: source.token, onCancel: { operation.cancel() }) { done in
                operation.start(done)
            }
        }
        await operation.waitUntilStarted()

        source.cancel()

        await XCTAssertThrowsBridgesError(VowError.cancelled) { try await call.value }
        XCTAssertEqual(operation.cancelCount, 1)
    }

    func testAnAlreadyCancelledTaskOrTokenNeverStartsTheOperation() async {
        let source = CancellationTokenSource()
        source.cancel()
        let starts = BridgesCounter()

        await XCTAssertThrowsBridgesError(VowError.cancelled) {
            try await withValueCallback(cancellation: source.token) { (_: @escaping @Sendable (Int) -> Void) in
                starts.increment()
            }
        }
        let cancelledTask = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await withValueCallback { (_: @escaping @Sendable (Int) -> Void) in starts.increment() }
        }
        await XCTAssertThrowsCancellationError { try await cancelledTask.value }

        XCTAssertEqual(starts.value, 0)
    }

    func testCancellingAfterTheOperationAnsweredRunsNoCancelAction() async throws {
        let source = CancellationTokenSource()
        let operation = LegacyOperation<Int>()
        let call = Task {
            try await withCallback(cancellation: source.token, onCancel: { operation.cancel() }) { done in
                operation.start(done)
            }
        }
        await operation.waitUntilStarted()
        operation.finish(with: 6)
        let value = try await call.value

        source.cancel()
        call.cancel()

        XCTAssertEqual(value, 6)
        XCTAssertEqual(operation.cancelCount, 0)
    }

    func testCancellationRacingTheAnswerEndsEachCallOnceAndCancelsAtMostOnce() async {
        for round in 0..<300 {
            let operation = LegacyOperation<Int>()
            let call = Task {
                try await withCallback(onCancel: { operation.cancel() }) { done in operation.start(done) }
            }
            await operation.waitUntilStarted()
            let racers = DispatchGroup()
            DispatchQueue.global().async(group: racers) { operation.finish(with: round) }
            DispatchQueue.global().async(group: racers) { call.cancel() }

            switch await call.result {
            case .success(let value):
                XCTAssertEqual(value, round)
            case .failure(let error):
                XCTAssertTrue(error is CancellationError, "\(error)")
            }
            XCTAssertLessThanOrEqual(operation.cancelCount, 1)
        }
    }

    // MARK: - Promises

    func testPromisesFromEveryHandlerShapeSettleWithTheAnswer() async throws {
        let optional = Promise.fromCallback { done in LegacyAPI.optionalValueAndError(answer: (1, nil), completion: done) }
        let plain = Promise.fromCallback { done in LegacyAPI.valueAndError(answer: ("two", nil), completion: done) }
        let errorOnly = Promise.fromCallback { done in LegacyAPI.errorOnly(answer: nil, completion: done) }
        let result = Promise.fromCallback { done in LegacyAPI.result(answer: .success(4), completion: done) }
        let valueOnly = Promise.fromValueCallback { done in LegacyAPI.valueOnly(answer: 5, completion: done) }

        let one: Int = try await optional.value
        let two: String = try await plain.value
        try await errorOnly.value
        let four: Int = try await result.value
        let five: Int = try await valueOnly.value

        XCTAssertEqual(one, 1)
        XCTAssertEqual(two, "two")
        XCTAssertEqual(four, 4)
        XCTAssertEqual(five, 5)
    }

    func testPromisesFromCallbacksRejectWithTheError() async {
        let failing = Promise.fromCallback { done in
            LegacyAPI.result(answer: .failure(BridgesTestError(code: 9)), completion: done)
        }
        let errorOnly = Promise.fromCallback { done in
            LegacyAPI.errorOnly(answer: BridgesTestError(code: 10), completion: done)
        }

        await XCTAssertThrowsBridgesError(BridgesTestError(code: 9)) { try await failing.value }
        await XCTAssertThrowsBridgesError(BridgesTestError(code: 10)) { try await errorOnly.value }
    }

    func testAPromiseFromACallbackStartsAtOnceOnTheCallingThread() {
        let startedOn = BridgesLocked<UInt?>(nil)

        let promise = Promise<Int>.fromValueCallback { done in
            startedOn.withLock { $0 = bridgesThreadID }
            done(1)
        }

        XCTAssertEqual(startedOn.withLock { $0 }, bridgesThreadID)
        XCTAssertEqual(promise.valueIfFulfilled, 1)
    }

    func testAPromiseFromADroppedCallbackRejectsWithAbandoned() async {
        let promise = Promise<Int>.fromValueCallback { _ in }

        await XCTAssertThrowsBridgesError(VowError.abandoned) { try await promise.value }
    }

    func testCancellingAPromiseFromACallbackRejectsAndRunsTheCancelActionOnce() async {
        let source = CancellationTokenSource()
        let operation = LegacyOperation<Int>()
        let promise = Promise<Int>.fromValueCallback(cancellation: source.token, onCancel: { operation.cancel() }) { done in
            operation.start { value, _ in done(value ?? 0) }
        }

        source.cancel()
        operation.finish(with: 1)

        await XCTAssertThrowsBridgesError(VowError.cancelled) { try await promise.value }
        XCTAssertEqual(operation.cancelCount, 1)
    }

    func testALongLivedTokenDoesNotKeepSettledCallbackPromisesAlive() async throws {
        let source = CancellationTokenSource()
        weak var settled: Promise<Int>?
        do {
            let promise = Promise<Int>.fromValueCallback(cancellation: source.token) { done in
                DispatchQueue.global().async { done(1) }
            }
            settled = promise
            _ = try await promise.value
        }

        // The queue drops the completion handler, and the promise drops its registration on the
        // token, right after the answer.
        await waitUntil { settled == nil }
    }
}

// MARK: - Legacy APIs to adapt

private enum LegacyAPI {
    static func optionalValueAndError(answer: (Int?, (any Error)?), completion: @escaping @Sendable (Int?, (any Error)?) -> Void) {
        DispatchQueue.global().async { completion(answer.0, answer.1) }
    }

    static func valueAndError(answer: (String, (any Error)?), completion: @escaping @Sendable (String, (any Error)?) -> Void) {
        DispatchQueue.global().async { completion(answer.0, answer.1) }
    }

    static func errorOnly(answer: (any Error)?, completion: @escaping @Sendable ((any Error)?) -> Void) {
        DispatchQueue.global().async { completion(answer) }
    }

    static func result(answer: Swift.Result<Int, BridgesTestError>, completion: @escaping @Sendable (Swift.Result<Int, BridgesTestError>) -> Void) {
        DispatchQueue.global().async { completion(answer) }
    }

    static func valueOnly(answer: Int, completion: @escaping @Sendable (Int) -> Void) {
        DispatchQueue.global().async { completion(answer) }
    }
}

/// A cancellable legacy operation that answers when the test says so.
private final class LegacyOperation<Value: Sendable>: Sendable {
    private let completion = BridgesLocked<(@Sendable (Value?, (any Error)?) -> Void)?>(nil)
    private let cancels = BridgesCounter()

    func start(_ completion: @escaping @Sendable (Value?, (any Error)?) -> Void) {
        self.completion.withLock { $0 = completion }
    }

    func waitUntilStarted() async {
        await waitUntil { self.completion.withLock { $0 != nil } }
    }

    func finish(with value: Value) {
        completion.withLock { $0 }?(value, nil)
    }

    func cancel() {
        cancels.increment()
    }

    var cancelCount: Int { cancels.value }
}

@MainActor
private func startOnMainActor() async throws -> Bool {
    try await withValueCallback { done in
        done(isMainThread)
    }
}

private var bridgesThreadID: UInt {
    UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(bitPattern: UInt(pthread_self()))))
}
