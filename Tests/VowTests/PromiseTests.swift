import Dispatch
import XCTest
@testable import Vow

final class PromiseTests: XCTestCase {

    func testValueCreatesAFulfilledPromise() {
        let promise = Promise.value(3)
        XCTAssertTrue(promise.isFulfilled)
        XCTAssertTrue(promise.isResolved)
        XCTAssertFalse(promise.isPending)
        XCTAssertEqual(promise.valueIfFulfilled, 3)
        XCTAssertNil(promise.error)
    }

    func testInitErrorCreatesARejectedPromise() {
        let promise = Promise<Int>(error: TestError(code: 1))
        XCTAssertTrue(promise.isRejected)
        XCTAssertNil(promise.valueIfFulfilled)
        XCTAssertEqual(promise.error as? TestError, TestError(code: 1))
    }

    func testPendingReturnsLabelledPromiseAndResolver() {
        let pending = Promise<String>.pending()
        XCTAssertTrue(pending.promise.isPending)
        XCTAssertNil(pending.promise.result)
        pending.resolver.fulfill("done")
        XCTAssertEqual(pending.promise.valueIfFulfilled, "done")
    }

    func testResolverBodyRunsAtOnceOnTheCallingThread() {
        let thread = currentThreadID
        let ranOn = Recorder<UInt>()
        let promise = Promise<Int> { seal in
            ranOn.append(currentThreadID)
            seal.fulfill(1)
        }
        XCTAssertEqual(ranOn.elements, [thread])
        XCTAssertEqual(promise.valueIfFulfilled, 1)
    }

    func testAThrowFromTheResolverBodyRejects() {
        let promise = Promise<Int> { _ in throw TestError(code: 5) }
        XCTAssertEqual(promise.error as? TestError, TestError(code: 5))
    }

    func testAThrowAfterResolvingIsIgnored() {
        withConfiguration {
            let diagnostics = Recorder<String>()
            conf.diagnosticHandler = { diagnostics.append("\($0)") }
            let promise = Promise<Int> { seal in
                seal.fulfill(1)
                throw TestError()
            }
            XCTAssertEqual(promise.valueIfFulfilled, 1)
            XCTAssertEqual(diagnostics.count, 1, "the ignored rejection is reported as a second resolution")
        }
    }

    func testResolveOptionalValueAndError() {
        XCTAssertEqual(Promise<Int> { $0.resolve(1, nil) }.valueIfFulfilled, 1)
        XCTAssertEqual(Promise<Int> { $0.resolve(1, TestError(code: 2)) }.error as? TestError, TestError(code: 2))
        XCTAssertEqual(Promise<Int> { $0.resolve(nil, TestError(code: 3)) }.error as? TestError, TestError(code: 3))
        let neither = Promise<Int> { $0.resolve(nil as Int?, nil) }
        guard case PMKError.invalidCallingConvention? = neither.error else {
            return XCTFail("expected invalidCallingConvention, got \(String(describing: neither.error))")
        }
    }

    func testResolveNonOptionalValueAndError() {
        let value: Int = 4
        XCTAssertEqual(Promise<Int> { $0.resolve(value, nil) }.valueIfFulfilled, 4)
        XCTAssertEqual(Promise<Int> { $0.resolve(value, TestError(code: 1)) }.error as? TestError, TestError(code: 1))
    }

    func testResolveErrorFirstCallbackOrder() {
        XCTAssertEqual(Promise<Int> { $0.resolve(nil, 6) }.valueIfFulfilled, 6)
        XCTAssertEqual(Promise<Int> { $0.resolve(TestError(code: 7), nil) }.error as? TestError, TestError(code: 7))
    }

    func testResolveVowResultAndSwiftResult() {
        XCTAssertEqual(Promise<Int> { $0.resolve(Result<Int>.fulfilled(8)) }.valueIfFulfilled, 8)
        XCTAssertEqual(Promise<Int> { $0.resolve(Swift.Result<Int, TestError>.success(9)) }.valueIfFulfilled, 9)
        let failure = Promise<Int> { $0.resolve(Swift.Result<Int, TestError>.failure(TestError(code: 10))) }
        XCTAssertEqual(failure.error as? TestError, TestError(code: 10))
        let untyped = Promise<Int> { $0.resolve(Swift.Result<Int, Error>.failure(TestError(code: 11))) }
        XCTAssertEqual(untyped.error as? TestError, TestError(code: 11))
    }

    func testVoidResolverConveniences() {
        XCTAssertTrue(Promise<Void> { $0.fulfill() }.isFulfilled)
        XCTAssertTrue(Promise<Void> { $0.resolve(nil) }.isFulfilled)
        XCTAssertEqual(Promise<Void> { $0.resolve(TestError(code: 1)) }.error as? TestError, TestError(code: 1))
        XCTAssertTrue(Promise<Void>().isFulfilled)
        XCTAssertTrue(Promise<Void>.value.isFulfilled)
    }

    func testBridgingAGuaranteeIntoAPromise() {
        let (guarantee, resolve) = Guarantee<Int>.pending()
        let promise = Promise(guarantee)
        XCTAssertTrue(promise.isPending)
        resolve(12)
        XCTAssertEqual(promise.valueIfFulfilled, 12)
    }

    func testResultIsFulfilledOrRejected() {
        XCTAssertTrue(Result<Int>.fulfilled(1).isFulfilled)
        XCTAssertTrue(Result<Int>.rejected(TestError()).isRejected)
        XCTAssertEqual(try Result<Int>.fulfilled(2).get(), 2)
        XCTAssertThrowsError(try Result<Int>.rejected(TestError(code: 3)).get()) { error in
            XCTAssertEqual(error as? TestError, TestError(code: 3))
        }
        if case .success(let value) = Result<Int>.fulfilled(4).swiftResult {
            XCTAssertEqual(value, 4)
        } else {
            XCTFail("expected success")
        }
    }

    func testWaitReturnsTheValueOrThrows() throws {
        XCTAssertEqual(try Promise.value(1).wait(), 1)
        let later: Guarantee<Int> = DispatchQueue.global().async(.promise) { 2 }
        XCTAssertEqual(later.wait(), 2)
        let queue = DispatchQueue(label: "wait")
        let rejected = Promise<Int> { seal in queue.async { seal.reject(TestError(code: 3)) } }
        XCTAssertThrowsError(try rejected.wait()) { XCTAssertEqual($0 as? TestError, TestError(code: 3)) }
    }

    func testDispatchQueueAsyncPromiseRunsTheBodyOnTheQueue() throws {
        let queue = makeLabelledQueue("async.promise")
        let promise = queue.async(.promise) { () throws -> String in
            currentQueueLabel ?? "none"
        }
        XCTAssertEqual(try promise.wait(), "async.promise")
        let failing = queue.async(.promise) { () throws -> Int in throw TestError(code: 4) }
        XCTAssertThrowsError(try failing.wait()) { XCTAssertEqual($0 as? TestError, TestError(code: 4)) }
        let guarantee: Guarantee<Int> = queue.async(.promise) { 5 }
        XCTAssertEqual(guarantee.wait(), 5)
    }

    func testDescriptionsNameTheState() {
        XCTAssertEqual("\(Promise.value(1))", "Promise(1)")
        let (pending, resolver) = Promise<Int>.pending()
        XCTAssertEqual(pending.debugDescription, "Promise<Int>.pending(handlers: 0)")
        resolver.fulfill(0)
        XCTAssertEqual(Promise<Int>(error: TestError(code: 1)).debugDescription, "Promise<Int>.rejected(TestError.TestError(code: 1))")
    }

    func testErrorIsCancelledRecognisesEveryCancellation() {
        XCTAssertTrue(PMKError.cancelled.isCancelled)
        XCTAssertTrue(VowError.cancelled.isCancelled)
        XCTAssertTrue(CancellationError().isCancelled)
        XCTAssertFalse(VowError.abandoned.isCancelled)
        XCTAssertFalse(PMKError.badInput.isCancelled)
        XCTAssertFalse(TestError().isCancelled)
        struct Custom: CancellableError { var isCancelled: Bool }
        XCTAssertTrue(Custom(isCancelled: true).isCancelled)
        XCTAssertFalse(Custom(isCancelled: false).isCancelled)
    }
}
