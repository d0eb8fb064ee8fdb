import Dispatch
import XCTest
@testable import Vow

/// The Promises/A+ specification, clauses 2.1 to 2.3, one test per clause.
/// https://promisesaplus.com — "then" here is Vow's `pipe`/`then`/`map`/`recover` family.
final class PromisesAPlusTests: XCTestCase {

    // MARK: - 2.1 Promise states

    func test_2_1_1_aPendingPromiseMayTransitionToFulfilledOrRejected() {
        let (fulfilled, fulfill) = Promise<Int>.pending()
        let (rejected, reject) = Promise<Int>.pending()
        XCTAssertTrue(fulfilled.isPending)
        XCTAssertTrue(rejected.isPending)
        fulfill.fulfill(1)
        reject.reject(TestError())
        XCTAssertTrue(fulfilled.isFulfilled)
        XCTAssertTrue(rejected.isRejected)
    }

    func test_2_1_2_aFulfilledPromiseMustNotTransitionAndKeepsItsValue() {
        withConfiguration {
            conf.diagnosticHandler = { _ in }
            let (promise, resolver) = Promise<Int>.pending()
            resolver.fulfill(1)
            resolver.reject(TestError())
            resolver.fulfill(2)
            XCTAssertEqual(promise.valueIfFulfilled, 1)
            XCTAssertFalse(promise.isRejected)
        }
    }

    func test_2_1_3_aRejectedPromiseMustNotTransitionAndKeepsItsReason() {
        withConfiguration {
            conf.diagnosticHandler = { _ in }
            let (promise, resolver) = Promise<Int>.pending()
            resolver.reject(TestError(code: 1))
            resolver.fulfill(2)
            resolver.reject(TestError(code: 3))
            XCTAssertEqual(promise.error as? TestError, TestError(code: 1))
        }
    }

    // MARK: - 2.2 The then method

    func test_2_2_1_bothHandlersAreOptional_aChainWithoutAHandlerForTheOutcomePassesItOn() {
        let rejected = Promise<Int>(error: TestError(code: 7)).map(on: nil) { $0 + 1 }
        XCTAssertEqual(rejected.error as? TestError, TestError(code: 7))
        let fulfilled = Promise.value(7).recover(on: nil) { _ in Promise.value(0) }
        XCTAssertEqual(fulfilled.valueIfFulfilled, 7)
    }

    func test_2_2_2_theFulfillmentHandlerRunsOnceAfterFulfillmentWithTheValue() {
        let (promise, resolver) = Promise<Int>.pending()
        let calls = Recorder<Int>()
        promise.done(on: nil) { calls.append($0) }.cauterize()
        XCTAssertEqual(calls.elements, [], "must not be called before fulfillment")
        resolver.fulfill(5)
        withConfiguration {
            conf.diagnosticHandler = { _ in }
            resolver.fulfill(6)
        }
        XCTAssertEqual(calls.elements, [5], "called once, with the value")
    }

    func test_2_2_3_theRejectionHandlerRunsOnceAfterRejectionWithTheReason() {
        let (promise, resolver) = Promise<Int>.pending()
        let calls = Recorder<Int>()
        promise.catch(on: nil) { calls.append(($0 as? TestError)?.code ?? -1) }
        XCTAssertEqual(calls.elements, [])
        resolver.reject(TestError(code: 9))
        withConfiguration {
            conf.diagnosticHandler = { _ in }
            resolver.reject(TestError(code: 10))
        }
        XCTAssertEqual(calls.elements, [9])
    }

    func test_2_2_4_handlersOnADispatchQueueRunAfterTheCurrentCodeReturns() {
        let order = Recorder<String>()
        let done = expectation(description: "handler ran")
        let queue = DispatchQueue(label: "2.2.4")
        queue.sync {
            Promise.value(1).done(on: queue) { _ in
                order.append("handler")
                done.fulfill()
            }.cauterize()
            order.append("after then")
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(order.elements, ["after then", "handler"])
    }

    func test_2_2_5_handlersAreCalledAsFunctions_withNoReceiverState() {
        // Swift closures have no `this`; the clause holds by construction. The value arrives as
        // the sole argument.
        let received = Recorder<String>()
        Promise.value("x").done(on: nil) { received.append($0) }.cauterize()
        XCTAssertEqual(received.elements, ["x"])
    }

    func test_2_2_6_thenMayBeCalledManyTimes_andHandlersRunInRegistrationOrder() {
        let (promise, resolver) = Promise<Int>.pending()
        let order = Recorder<Int>()
        for index in 0..<10 {
            promise.done(on: nil) { _ in order.append(index) }.cauterize()
        }
        resolver.fulfill(0)
        XCTAssertEqual(order.elements, Array(0..<10))

        let (rejected, rejecter) = Promise<Int>.pending()
        let rejectionOrder = Recorder<Int>()
        for index in 0..<10 {
            rejected.catch(on: nil) { _ in rejectionOrder.append(index) }
        }
        rejecter.reject(TestError())
        XCTAssertEqual(rejectionOrder.elements, Array(0..<10))
    }

    func test_2_2_7_thenReturnsAPromise_thatFollowsTheHandlersOutcome() {
        // 2.2.7.1 a value returned fulfills it
        XCTAssertEqual(Promise.value(1).map(on: nil) { $0 + 1 }.valueIfFulfilled, 2)
        // 2.2.7.2 a throw rejects it with the thrown error
        let thrown = Promise.value(1).map(on: nil) { _ -> Int in throw TestError(code: 2) }
        XCTAssertEqual(thrown.error as? TestError, TestError(code: 2))
        // 2.2.7.3 no fulfillment handler: fulfilled with the same value
        XCTAssertEqual(Promise.value(3).recover(on: nil) { _ in Promise.value(0) }.valueIfFulfilled, 3)
        // 2.2.7.4 no rejection handler: rejected with the same reason
        let passed = Promise<Int>(error: TestError(code: 4)).then(on: nil) { Promise.value($0) }
        XCTAssertEqual(passed.error as? TestError, TestError(code: 4))
    }

    // MARK: - 2.3 The promise resolution procedure

    func test_2_3_1_aHandlerReturningItsOwnPromiseRejectsWithReturnedSelf() {
        let (root, resolver) = Promise<Int>.pending()
        let box = Recorder<Promise<Int>>()
        let chained = root.then(on: nil) { _ in box.elements[0] }
        box.append(chained)
        resolver.fulfill(1)
        guard case PMKError.returnedSelf? = chained.error else {
            return XCTFail("expected PMKError.returnedSelf, got \(String(describing: chained.error))")
        }
    }

    func test_2_3_2_aReturnedPromiseIsAdopted_pendingThenFulfilledOrRejected() {
        let (inner, innerResolver) = Promise<Int>.pending()
        let outer = Promise.value(0).then(on: nil) { _ in inner }
        XCTAssertTrue(outer.isPending, "2.3.2.1 stays pending while the returned promise is")
        innerResolver.fulfill(42)
        XCTAssertEqual(outer.valueIfFulfilled, 42, "2.3.2.2 fulfilled with the same value")

        let (rejectedInner, rejecter) = Promise<Int>.pending()
        let rejectedOuter = Promise.value(0).then(on: nil) { _ in rejectedInner }
        rejecter.reject(TestError(code: 3))
        XCTAssertEqual(rejectedOuter.error as? TestError, TestError(code: 3), "2.3.2.3 rejected with the same reason")
    }

    func test_2_3_3_anyThenableIsAdopted_includingAGuarantee() {
        let (guarantee, resolve) = Guarantee<String>.pending()
        let outer = Promise.value(1).then(on: nil) { _ in guarantee }
        XCTAssertTrue(outer.isPending)
        resolve("adopted")
        XCTAssertEqual(outer.valueIfFulfilled, "adopted")
    }

    func test_2_3_3_3_aThenableThatSettlesTwiceIsAdoptedOnce_theFirstSettlementWins() {
        withConfiguration {
            conf.diagnosticHandler = { _ in }
            let (inner, resolver) = Promise<Int>.pending()
            let outer = Promise.value(0).then(on: nil) { _ in inner }
            resolver.fulfill(1)
            resolver.fulfill(2)
            resolver.reject(TestError())
            XCTAssertEqual(outer.valueIfFulfilled, 1)
        }
    }

    func test_2_3_4_aPlainValueFulfillsThePromise() {
        XCTAssertEqual(Promise.value(1).map(on: nil) { _ in "plain" }.valueIfFulfilled, "plain")
    }
}
