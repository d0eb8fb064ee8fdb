import Dispatch
import XCTest
@testable import Vow

final class GuaranteeTests: XCTestCase {

    func testResolverBodyAndValue() {
        XCTAssertEqual(Guarantee<Int> { resolve in resolve(1) }.wait(), 1)
        XCTAssertEqual(Guarantee.value(2).wait(), 2)
        XCTAssertFalse(Guarantee<Void>().isPending)
        XCTAssertFalse(Guarantee<Void>.value.isPending)
    }

    func testPendingGuaranteeLabels() {
        let pending = Guarantee<Int>.pending()
        XCTAssertTrue(pending.guarantee.isPending)
        pending.resolve(3)
        XCTAssertEqual(pending.guarantee.result?.isFulfilled, true)
        XCTAssertEqual(pending.guarantee.valueIfFulfilled, 3)
    }

    func testChainMethodsReturnGuarantees() {
        let seen = Recorder<String>()
        let mapped: Guarantee<Int> = Guarantee.value(2).map(on: nil) { $0 * 2 }
        let thened: Guarantee<String> = mapped.then(on: nil) { Guarantee.value("\($0)") }
        let got: Guarantee<String> = thened.get(on: nil) { seen.append("get \($0)") }
        let done: Guarantee<Void> = got.done(on: nil) { seen.append("done \($0)") }
        XCTAssertFalse(done.isPending)
        XCTAssertFalse(Guarantee.value(1).asVoid().isPending)
        XCTAssertEqual(Guarantee.value("abc").map(on: nil, \.count).wait(), 3)
        XCTAssertEqual(seen.elements, ["get 4", "done 4"])
    }

    func testAThrowingClosureTurnsAGuaranteeChainIntoAPromise() {
        let promise: Promise<Int> = Guarantee.value(1).map(on: nil) { value throws -> Int in
            if value > 0 { throw TestError(code: 1) }
            return value
        }
        XCTAssertEqual(promise.error as? TestError, TestError(code: 1))
    }

    func testAGuaranteeResolvedTwiceKeepsTheFirstValueAndReportsIt() {
        withConfiguration {
            let diagnostics = Recorder<String>()
            conf.diagnosticHandler = { diagnostics.append("\($0)") }
            let (guarantee, resolve) = Guarantee<Int>.pending()
            resolve(1)
            resolve(2)
            XCTAssertEqual(guarantee.wait(), 1)
            XCTAssertEqual(diagnostics.count, 1)
        }
    }

    func testDroppingAnUncalledResolveFunctionLogsPendingGuaranteeDeallocated() {
        withConfiguration {
            let events = Recorder<String>()
            conf.logHandler = { events.append("\($0)") }
            var guarantee: Guarantee<Int>? = Guarantee<Int> { _ in }
            XCTAssertTrue(guarantee?.isPending ?? false)
            guarantee = nil
            XCTAssertEqual(events.elements, ["pendingGuaranteeDeallocated"])
        }
    }
}
