import Dispatch
import XCTest
@testable import Vow

final class DeepChainTests: XCTestCase {

    func testAMillionLinkOnNilChainResolvesWithoutOverflowingTheStack() {
        let (root, resolver) = Promise<Int>.pending()
        var tail = root
        for _ in 0..<1_000_000 {
            tail = tail.map(on: nil) { $0 + 1 }
        }
        resolver.fulfill(0)
        XCTAssertEqual(tail.valueIfFulfilled, 1_000_000)
    }

    func testAMillionLinkChainOnAFulfilledRootResolvesAsItIsBuilt() {
        var tail = Promise.value(0)
        for _ in 0..<1_000_000 {
            tail = tail.then(on: nil) { Promise.value($0 + 1) }
        }
        XCTAssertEqual(tail.valueIfFulfilled, 1_000_000)
    }

    func testAHundredThousandDeepRecursionOfPromiseReturningThens() {
        @Sendable func countdown(_ remaining: Int) -> Promise<Int> {
            guard remaining > 0 else { return .value(0) }
            return Promise.value(remaining).then(on: nil) { countdown($0 - 1) }.map(on: nil) { $0 + 1 }
        }
        XCTAssertEqual(countdown(100_000).valueIfFulfilled, 100_000)
    }

    func testADeepRecursionOverPendingPromisesSettledFromAnotherThread() throws {
        let queue = DispatchQueue(label: "deep")
        @Sendable func countdown(_ remaining: Int) -> Promise<Int> {
            guard remaining > 0 else { return .value(0) }
            let step = Promise<Int> { seal in queue.async { seal.fulfill(remaining) } }
            return step.then(on: nil) { countdown($0 - 1) }.map(on: nil) { $0 + 1 }
        }
        XCTAssertEqual(try countdown(20_000).wait(), 20_000)
    }

    func testADeepRejectionPropagatesThroughEveryLink() {
        let (root, resolver) = Promise<Int>.pending()
        var tail = root
        for _ in 0..<200_000 {
            tail = tail.map(on: nil) { $0 + 1 }
        }
        resolver.reject(TestError(code: 9))
        XCTAssertEqual(tail.error as? TestError, TestError(code: 9))
    }
}
