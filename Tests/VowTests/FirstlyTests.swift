import Dispatch
import Foundation
import XCTest
@testable import Vow

final class FirstlyTests: XCTestCase {

    func testFirstlyRunsItsBodyAtOnceOnThisThread() {
        var ran = false
        let thread = currentThreadID
        var bodyThread: UInt?
        let promise = firstly { () -> Promise<Int> in
            ran = true
            bodyThread = currentThreadID
            return .value(1)
        }
        XCTAssertTrue(ran)
        XCTAssertEqual(bodyThread, thread)
        XCTAssertEqual(promise.valueIfFulfilled, 1)
    }

    func testFirstlySettlesAsTheThenableItsBodyReturns() {
        let (inner, resolver) = Promise<String>.pending()
        let promise = firstly { inner }
        XCTAssertTrue(promise.isPending)
        resolver.fulfill("done")
        XCTAssertEqual(promise.valueIfFulfilled, "done")
        let fromGuarantee: Promise<Int> = firstly { () throws -> Guarantee<Int> in .value(3) }
        XCTAssertEqual(fromGuarantee.valueIfFulfilled, 3)
    }

    func testFirstlyRejectsWhenItsBodyThrows() {
        let promise = firstly { () throws -> Promise<Int> in throw TestError(code: 1) }
        XCTAssertEqual(promise.error as? TestError, TestError(code: 1))
    }

    func testFirstlyPassesARejectionThrough() {
        let promise = firstly { Promise<Int>(error: TestError(code: 2)) }
        XCTAssertEqual(promise.error as? TestError, TestError(code: 2))
    }

    func testFirstlyOfAGuaranteeIsThatGuarantee() {
        let guarantee = Guarantee.value(5)
        let first: Guarantee<Int> = firstly { guarantee }
        XCTAssertTrue(first === guarantee)
    }

    func testFirstlyOnAQueueRunsItsBodyThere() {
        let queue = makeLabelledQueue("firstly.queue")
        let labels = Recorder<String?>()
        let promise = firstly(on: queue) { () -> Promise<Int> in
            labels.append(currentQueueLabel)
            return .value(7)
        }
        XCTAssertEqual(try settledResult(of: promise)?.get(), 7)
        let failing = firstly(on: queue) { () throws -> Promise<Int> in throw TestError(code: 8) }
        XCTAssertEqual(settledResult(of: failing)?.error as? TestError, TestError(code: 8))
        let guarantee = firstly(on: queue, flags: .barrier) { () -> Guarantee<Int> in
            labels.append(currentQueueLabel)
            return .value(9)
        }
        XCTAssertEqual(settledGuaranteeValue(of: guarantee), 9)
        XCTAssertEqual(labels.elements, ["firstly.queue", "firstly.queue"])
    }
}
