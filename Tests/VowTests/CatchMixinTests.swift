import Dispatch
import XCTest
@testable import Vow

final class CatchMixinTests: XCTestCase {

    func testCatchReceivesTheErrorAndFinallyRunsAfter() {
        let order = Recorder<String>()
        Promise<Int>(error: TestError(code: 1))
            .catch(on: nil) { order.append("catch \(($0 as? TestError)?.code ?? -1)") }
            .finally(on: nil) { order.append("finally") }
        XCTAssertEqual(order.elements, ["catch 1", "finally"])
    }

    func testFinallyRunsAfterFulfillmentWithoutCatch() {
        let order = Recorder<String>()
        Promise.value(1)
            .catch(on: nil) { _ in order.append("catch") }
            .finally(on: nil) { order.append("finally") }
        XCTAssertEqual(order.elements, ["finally"])
    }

    func testTheDefaultPolicySkipsCancellationErrors() {
        let caught = Counter()
        let finished = Counter()
        for error: Error in [PMKError.cancelled, VowError.cancelled, CancellationError()] {
            Promise<Int>(error: error)
                .catch(on: nil) { _ in caught.increment() }
                .finally(on: nil) { finished.increment() }
        }
        XCTAssertEqual(caught.value, 0)
        XCTAssertEqual(finished.value, 3, "finally still runs for a skipped cancellation")
    }

    func testTheAllErrorsPolicyCatchesCancellation() {
        let caught = Recorder<Bool>()
        Promise<Int>(error: CancellationError()).catch(on: nil, policy: .allErrors) { caught.append($0.isCancelled) }
        XCTAssertEqual(caught.elements, [true])
    }

    func testConfCatchPolicyChangesTheDefault() {
        withConfiguration {
            conf.catchPolicy = .allErrors
            let caught = Counter()
            Promise<Int>(error: PMKError.cancelled).catch(on: nil) { _ in caught.increment() }
            XCTAssertEqual(caught.value, 1)
        }
    }

    func testRecoverReplacesTheErrorWithAPromise() {
        let recovered = Promise<Int>(error: TestError()).recover(on: nil) { _ in Promise.value(5) }
        XCTAssertEqual(recovered.valueIfFulfilled, 5)
        let rethrown = Promise<Int>(error: TestError(code: 1)).recover(on: nil) { _ -> Promise<Int> in throw TestError(code: 2) }
        XCTAssertEqual(rethrown.error as? TestError, TestError(code: 2))
        let fulfilled = Promise.value(3).recover(on: nil) { _ in Promise.value(0) }
        XCTAssertEqual(fulfilled.valueIfFulfilled, 3)
    }

    func testRecoverSkipsCancellationByDefaultAndPassesItOn() {
        let calls = Counter()
        let result = Promise<Int>(error: PMKError.cancelled).recover(on: nil) { _ -> Promise<Int> in
            calls.increment()
            return .value(1)
        }
        XCTAssertEqual(calls.value, 0)
        XCTAssertTrue(result.error?.isCancelled ?? false)
        let all = Promise<Int>(error: PMKError.cancelled).recover(on: nil, policy: .allErrors) { _ in Promise.value(1) }
        XCTAssertEqual(all.valueIfFulfilled, 1)
    }

    func testRecoverWithAGuaranteeHandlesEveryErrorAndReturnsAGuarantee() {
        let guarantee: Guarantee<Int> = Promise<Int>(error: PMKError.cancelled).recover(on: nil) { _ in Guarantee.value(7) }
        XCTAssertEqual(guarantee.wait(), 7)
    }

    func testVoidRecoverOverloads() {
        let calls = Counter()
        let guarantee: Guarantee<Void> = Promise<Void>(error: TestError()).recover(on: nil) { (_: Error) in calls.increment() }
        XCTAssertFalse(guarantee.isPending)
        let promise: Promise<Void> = Promise<Void>(error: TestError(code: 1)).recover(on: nil) { (error: Error) throws in
            throw TestError(code: 2)
        }
        XCTAssertEqual(promise.error as? TestError, TestError(code: 2))
        XCTAssertEqual(calls.value, 1)
    }

    func testEnsureRunsEitherWayAndPassesTheResultOn() {
        let ran = Counter()
        let fulfilled = Promise.value(1).ensure(on: nil) { ran.increment() }
        let rejected = Promise<Int>(error: TestError(code: 2)).ensure(on: nil) { ran.increment() }
        XCTAssertEqual(ran.value, 2)
        XCTAssertEqual(fulfilled.valueIfFulfilled, 1)
        XCTAssertEqual(rejected.error as? TestError, TestError(code: 2))
    }

    func testEnsureThenWaitsForItsGuarantee() {
        let (gate, open) = Guarantee<Void>.pending()
        let result = Promise.value(1).ensureThen(on: nil) { gate }
        XCTAssertTrue(result.isPending)
        open(())
        XCTAssertEqual(result.valueIfFulfilled, 1)
    }

    func testCauterizeLogsTheErrorOnTheReturnQueueAsPromiseKitDoes() {
        withConfiguration {
            conf.Q.return = makeLabelledQueue("cauterize")
            let events = Recorder<String>()
            let logged = expectation(description: "logged")
            conf.logHandler = { event in
                if case .cauterized(let error) = event {
                    events.append("\(error) on \(currentQueueLabel ?? "another queue")")
                    logged.fulfill()
                }
            }
            Promise<Int>(error: TestError(code: 3)).cauterize()
            wait(for: [logged], timeout: 10)
            XCTAssertEqual(events.elements, ["TestError(code: 3) on cauterize"])
        }
    }
}
