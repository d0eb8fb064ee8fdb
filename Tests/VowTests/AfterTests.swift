import Dispatch
import Foundation
import XCTest
@testable import Vow

final class AfterTests: XCTestCase {

    func testAfterSecondsSettlesWithoutTheMainQueueBeingDrained() {
        // The semaphore blocks this (main) thread, so nothing drains the main queue meanwhile.
        let timer = after(seconds: 0.01)
        let fired = DispatchSemaphore(value: 0)
        timer.done(on: nil) { fired.signal() }
        XCTAssertEqual(fired.wait(timeout: .now() + 30), .success)
        XCTAssertFalse(timer.isPending)
    }

    func testAfterIntervalSettlesWithoutTheMainQueueBeingDrained() {
        let timer = after(.milliseconds(10))
        XCTAssertNotNil(settledGuaranteeValue(of: timer))
    }

    func testAfterIsPendingUntilItsTimeHasCome() {
        let timer = after(seconds: 3_600)
        XCTAssertTrue(timer.isPending)
        XCTAssertTrue(after(.seconds(3_600)).isPending)
    }

    func testAfterAZeroOrNegativeDelaySettlesSoon() {
        XCTAssertNotNil(settledGuaranteeValue(of: after(seconds: 0)))
        XCTAssertNotNil(settledGuaranteeValue(of: after(seconds: -1)))
        XCTAssertNotNil(settledGuaranteeValue(of: after(.nanoseconds(0))))
    }

    func testAfterSettlesOnAGlobalQueueNotTheMainThread() {
        let onMain = Recorder<Bool>()
        let timer = after(.milliseconds(1)).done(on: nil) { onMain.append(Thread.isMainThread) }
        XCTAssertNotNil(settledGuaranteeValue(of: timer))
        XCTAssertEqual(onMain.elements, [false])
    }

    func testAfterChainsWithDefaultQueuesOnceTheMainQueueRuns() {
        let done = expectation(description: "done on the main queue")
        after(seconds: 0.01).done {
            XCTAssertTrue(Thread.isMainThread)
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
    }
}
