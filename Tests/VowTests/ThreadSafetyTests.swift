import Dispatch
import XCTest
@testable import Vow

/// Thousands of promises settled and observed concurrently: every handler runs exactly once.
/// Run under `swift test --sanitize=thread` too.
final class ThreadSafetyTests: XCTestCase {

    func testConcurrentObserversAndSealersRunEveryHandlerExactlyOnce() {
        let promiseCount = 2_000
        let observersPerPromise = 8
        let pendings = (0..<promiseCount).map { _ in Promise<Int>.pending() }
        let calls = (0..<promiseCount).map { _ in Counter() }
        let values = Recorder<Int>()
        DispatchQueue.concurrentPerform(iterations: promiseCount * (observersPerPromise + 1)) { index in
            let target = index % promiseCount
            if index / promiseCount == observersPerPromise / 2 {
                pendings[target].resolver.fulfill(target)
            } else {
                pendings[target].promise.done(on: nil) { value in
                    calls[target].increment()
                    if value != target { values.append(value) }
                }.cauterize()
            }
        }
        XCTAssertEqual(calls.map(\.value), Array(repeating: observersPerPromise, count: promiseCount))
        XCTAssertEqual(values.elements, [], "every handler saw its own promise's value")
    }

    func testRacingResolutionsSettleOnceWithOneWinner() {
        withConfiguration {
            conf.diagnosticHandler = { _ in }
            for _ in 0..<200 {
                let (promise, resolver) = Promise<Int>.pending()
                let handlerRuns = Counter()
                promise.done(on: nil) { _ in handlerRuns.increment() }.cauterize()
                DispatchQueue.concurrentPerform(iterations: 8) { index in
                    if index.isMultiple(of: 2) {
                        resolver.fulfill(index)
                    } else {
                        resolver.reject(TestError(code: index))
                    }
                }
                XCTAssertFalse(promise.isPending)
                XCTAssertLessThanOrEqual(handlerRuns.value, 1)
                XCTAssertEqual(handlerRuns.value, promise.isFulfilled ? 1 : 0)
            }
        }
    }

    func testChainsBuiltOnManyThreadsAgainstOneRootAllComplete() {
        let (root, resolver) = Promise<Int>.pending()
        let total = Counter()
        let finished = DispatchGroup()
        DispatchQueue.concurrentPerform(iterations: 1_000) { index in
            finished.enter()
            root.map(on: nil) { $0 + index }
                .then(on: .global()) { Promise.value($0) }
                .done(on: nil) { _ in
                    total.increment()
                    finished.leave()
                }.cauterize()
            if index == 500 { resolver.fulfill(0) }
        }
        XCTAssertEqual(finished.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(total.value, 1_000)
    }

    func testConfigurationCanBeChangedWhileChainsReadIt() {
        withConfiguration {
            DispatchQueue.concurrentPerform(iterations: 1_000) { index in
                if index.isMultiple(of: 10) {
                    conf.catchPolicy = index.isMultiple(of: 20) ? .allErrors : .allErrorsExceptCancellation
                } else {
                    _ = conf.Q
                    Promise<Int>(error: TestError()).catch(on: nil) { _ in }
                }
            }
        }
    }
}
