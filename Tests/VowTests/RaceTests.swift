import Dispatch
import Foundation
import XCTest
@testable import Vow

final class RaceTests: XCTestCase {

    // MARK: - race(_:)

    func testRaceSettlesAsTheFirstInputToSettle() {
        let (slow, slowResolver) = Promise<String>.pending()
        let (fast, fastResolver) = Promise<String>.pending()
        let winner = race(slow, fast)
        XCTAssertTrue(winner.isPending)
        fastResolver.fulfill("fast")
        XCTAssertEqual(winner.valueIfFulfilled, "fast")
        slowResolver.fulfill("slow")
        XCTAssertEqual(winner.valueIfFulfilled, "fast")
    }

    func testRaceIsRejectedWhenTheFirstSettlementIsARejection() {
        let (slow, slowResolver) = Promise<Int>.pending()
        let (fast, fastResolver) = Promise<Int>.pending()
        let winner = race([slow, fast])
        fastResolver.reject(TestError(code: 1))
        slowResolver.fulfill(2)
        XCTAssertEqual(winner.error as? TestError, TestError(code: 1))
    }

    func testRacePicksTheFirstInArgumentOrderWhenSeveralHaveAlreadySettled() {
        let (pending, resolver) = Promise<Int>.pending()
        XCTAssertEqual(race(pending, Promise.value(2), Promise.value(3)).valueIfFulfilled, 2)
        XCTAssertEqual(race([Promise(error: TestError(code: 4)), Promise.value(5)]).error as? TestError, TestError(code: 4))
        resolver.fulfill(1)
    }

    func testRaceOfAnEmptyArrayRejectsWithBadInput() {
        guard case PMKError.badInput? = race([Promise<Int>]()).error else {
            return XCTFail("expected PMKError.badInput")
        }
    }

    func testRaceHasExactlyOneWinnerWhenInputsSettleOnManyThreads() {
        let count = 200
        let pendings = (0..<count).map { _ in Promise<Int>.pending() }
        let winner = race(pendings.map(\.promise))
        let seen = Recorder<Int>()
        winner.done(on: nil) { seen.append($0) }.cauterize()
        DispatchQueue.concurrentPerform(iterations: count) { index in
            pendings[index].resolver.fulfill(index)
        }
        let value = try? settledResult(of: winner)?.get()
        XCTAssertNotNil(value)
        XCTAssertEqual(seen.elements, value.map { [$0] })
    }

    func testRaceOfGuaranteesIsAGuaranteeOfTheFirstToSettle() {
        let (slow, resolveSlow) = Guarantee<String>.pending()
        let (fast, resolveFast) = Guarantee<String>.pending()
        let winner: Guarantee<String> = race(slow, fast)
        resolveFast("fast")
        resolveSlow("slow")
        XCTAssertEqual(winner.valueIfFulfilled, "fast")
        XCTAssertEqual(race(Guarantee.value(1), Guarantee.value(2)).valueIfFulfilled, 1)
    }

    func testRaceCountsTheLosersRejectionsAsHandled() {
        withConfiguration {
            let unhandled = Recorder<String>()
            conf.unhandledRejectionHandler = { unhandled.append("\($0.error)") }
            do {
                let (loser, resolver) = Promise<Int>.pending()
                let winner = race(Promise.value(1), loser)
                resolver.reject(TestError(code: 6))
                XCTAssertEqual(winner.valueIfFulfilled, 1)
            }
            XCTAssertEqual(unhandled.elements, [])
        }
    }

    // MARK: - race(fulfilled:)

    func testRaceFulfilledSkipsRejectionsAndFulfillsWithTheFirstFulfillment() {
        let (first, firstResolver) = Promise<Int>.pending()
        let (second, secondResolver) = Promise<Int>.pending()
        let (third, thirdResolver) = Promise<Int>.pending()
        let winner = race(fulfilled: [first, second, third])
        firstResolver.reject(TestError(code: 1))
        XCTAssertTrue(winner.isPending)
        thirdResolver.fulfill(3)
        XCTAssertEqual(winner.valueIfFulfilled, 3)
        secondResolver.fulfill(2)
        XCTAssertEqual(winner.valueIfFulfilled, 3)
    }

    func testRaceFulfilledRejectsWithNoWinnerWhenEveryInputIsRejected() {
        let (first, firstResolver) = Promise<Int>.pending()
        let winner = race(fulfilled: [first, Promise(error: TestError(code: 2))])
        XCTAssertTrue(winner.isPending)
        firstResolver.reject(TestError(code: 1))
        guard case PMKError.noWinner? = winner.error else {
            return XCTFail("expected PMKError.noWinner, got \(String(describing: winner.error))")
        }
    }

    func testRaceFulfilledOfAnEmptyArrayRejectsWithBadInput() {
        guard case PMKError.badInput? = race(fulfilled: [Promise<Int>]()).error else {
            return XCTFail("expected PMKError.badInput")
        }
    }

    func testRaceFulfilledPicksTheFirstFulfilledInArrayOrderWhenSeveralAlreadyAre() {
        let winner = race(fulfilled: [Promise(error: TestError(code: 0)), Promise.value(1), Promise.value(2)])
        XCTAssertEqual(winner.valueIfFulfilled, 1)
    }

    func testRaceFulfilledGivesNoWinnerOnceEvenWhenManyThreadsReject() {
        let count = 300
        let pendings = (0..<count).map { _ in Promise<Int>.pending() }
        let winner = race(fulfilled: pendings.map(\.promise))
        DispatchQueue.concurrentPerform(iterations: count) { index in
            pendings[index].resolver.reject(TestError(code: index))
        }
        guard case .rejected(PMKError.noWinner)? = settledResult(of: winner) else {
            return XCTFail("expected PMKError.noWinner")
        }
    }
}
