import Dispatch
import Foundation
import XCTest
@testable import Vow

final class ThenableTests: XCTestCase {

    func testThenAdoptsTheReturnedPromise() {
        let result = Promise.value(2).then(on: nil) { Promise.value($0 * 10) }
        XCTAssertEqual(result.valueIfFulfilled, 20)
    }

    func testThenRejectsWhenTheBodyThrows() {
        let result = Promise.value(2).then(on: nil) { _ -> Promise<Int> in throw TestError(code: 1) }
        XCTAssertEqual(result.error as? TestError, TestError(code: 1))
    }

    func testThenSkipsTheBodyOnRejection() {
        let calls = Counter()
        let result = Promise<Int>(error: TestError(code: 2)).then(on: nil) { value -> Promise<Int> in
            calls.increment()
            return .value(value)
        }
        XCTAssertEqual(calls.value, 0)
        XCTAssertEqual(result.error as? TestError, TestError(code: 2))
    }

    func testMapCompactMapAndKeyPaths() {
        XCTAssertEqual(Promise.value("abc").map(on: nil) { $0.count }.valueIfFulfilled, 3)
        XCTAssertEqual(Promise.value("abc").map(on: nil, \.count).valueIfFulfilled, 3)
        XCTAssertEqual(Promise.value("12").compactMap(on: nil) { Int($0) }.valueIfFulfilled, 12)
        let missing = Promise.value("x").compactMap(on: nil) { Int($0) }
        guard case PMKError.compactMap(let value, let type)? = missing.error else {
            return XCTFail("expected PMKError.compactMap, got \(String(describing: missing.error))")
        }
        XCTAssertEqual(value as? String, "x")
        XCTAssertTrue(type == Int.self)
        struct Holder: Sendable { var optional: Int? }
        XCTAssertEqual(Promise.value(Holder(optional: 5)).compactMap(on: nil, \.optional).valueIfFulfilled, 5)
    }

    func testDoneGetTapAndAsVoid() {
        let seen = Recorder<String>()
        let done = Promise.value(1).done(on: nil) { seen.append("done \($0)") }
        XCTAssertTrue(done.isFulfilled)
        let got = Promise.value(2).get(on: nil) { seen.append("get \($0)") }
        XCTAssertEqual(got.valueIfFulfilled, 2)
        let tapped = Promise<Int>(error: TestError(code: 3)).tap(on: nil) { result in
            if case .rejected(let error) = result { seen.append("tap \(error)") }
        }
        XCTAssertEqual(tapped.error as? TestError, TestError(code: 3))
        XCTAssertTrue(Promise.value(4).asVoid().isFulfilled)
        XCTAssertEqual(seen.elements, ["done 1", "get 2", "tap TestError(code: 3)"])
    }

    func testDoneRejectsWhenTheBodyThrows() {
        let result = Promise.value(1).done(on: nil) { _ in throw TestError(code: 4) }
        XCTAssertEqual(result.error as? TestError, TestError(code: 4))
    }

    func testDoneOnAPendingPromiseRunsItsBodyOnceWhenFulfilledThenSettles() {
        let (promise, resolver) = Promise<Int>.pending()
        let seen = Recorder<String>()
        let done = promise.done(on: nil) { seen.append("body \($0)") }
        _ = done.done(on: nil) { seen.append("after") }
        XCTAssertTrue(done.isPending)
        XCTAssertEqual(seen.elements, [])
        resolver.fulfill(7)
        resolver.fulfill(8)
        XCTAssertTrue(done.isFulfilled)
        XCTAssertEqual(seen.elements, ["body 7", "after"])
    }

    func testDoneOnAPendingPromiseRejectsWithTheBodysErrorOrPassesTheRejectionOn() {
        let (thrower, throwerResolver) = Promise<Int>.pending()
        let thrown = thrower.done(on: nil) { _ in throw TestError(code: 5) }
        throwerResolver.fulfill(1)
        XCTAssertEqual(thrown.error as? TestError, TestError(code: 5))

        let calls = Counter()
        let (rejected, rejectedResolver) = Promise<Int>.pending()
        let passedOn = rejected.done(on: nil) { _ in calls.increment() }
        rejectedResolver.reject(TestError(code: 6))
        XCTAssertEqual(passedOn.error as? TestError, TestError(code: 6))
        XCTAssertEqual(calls.value, 0)
    }

    func testDoneReleasesItsBodyOnceItRanEvenWhileTheReturnedPromiseIsKept() {
        final class Captured: Sendable {}
        weak var weakCaptured: Captured?
        let (promise, resolver) = Promise<Int>.pending()
        let done: Promise<Void>
        do {
            let captured = Captured()
            weakCaptured = captured
            done = promise.done(on: nil) { _ in withExtendedLifetime(captured) {} }
        }
        XCTAssertNotNil(weakCaptured, "the body is kept until it runs")
        resolver.fulfill(1)
        XCTAssertTrue(done.isFulfilled)
        XCTAssertNil(weakCaptured, "the body, and what it captured, are released once it has run")
    }

    func testDoneOnAPendingPromiseAnswersToTheReturnedPromisesType() {
        let (promise, resolver) = Promise<Int>.pending()
        let done = promise.done(on: nil) { _ in }
        XCTAssertTrue((done as AnyObject) is Promise<Void>)
        resolver.fulfill(1)
        XCTAssertEqual(done.description, Promise<Void>().description)
    }

    func testOnNilRunsSynchronouslyOnTheSealingThread() {
        let (promise, resolver) = Promise<Int>.pending()
        let threads = Recorder<UInt>()
        let finished = expectation(description: "sealed")
        promise.map(on: nil) { value -> Int in
            threads.append(currentThreadID)
            return value
        }.done(on: nil) { _ in
            threads.append(currentThreadID)
        }.cauterize()
        let sealingThread = Recorder<UInt>()
        Thread.detachNewThread {
            sealingThread.append(currentThreadID)
            resolver.fulfill(1)
            // Both handlers have run before fulfill returns.
            XCTAssertEqual(threads.count, 2)
            finished.fulfill()
        }
        wait(for: [finished], timeout: 10)
        XCTAssertEqual(threads.elements, [sealingThread.elements[0], sealingThread.elements[0]])
    }

    func testOnNilOnASettledPromiseRunsAtOnceOnTheCallingThread() {
        let ran = Recorder<UInt>()
        Promise.value(1).done(on: nil) { _ in ran.append(currentThreadID) }.cauterize()
        XCTAssertEqual(ran.elements, [currentThreadID])
    }

    func testDoneOnANamedQueueRunsThere() {
        let queue = makeLabelledQueue("named")
        let label = Recorder<String>()
        let finished = expectation(description: "done")
        Promise.value(1).done(on: queue) { _ in
            label.append(currentQueueLabel ?? "none")
            finished.fulfill()
        }.cauterize()
        wait(for: [finished], timeout: 10)
        XCTAssertEqual(label.elements, ["named"])
    }

    func testFlagsAreHonoured() {
        let queue = DispatchQueue(label: "flags", attributes: .concurrent)
        let finished = expectation(description: "barrier")
        Promise.value(1).done(on: queue, flags: .barrier) { _ in finished.fulfill() }.cauterize()
        wait(for: [finished], timeout: 10)
    }

    func testDefaultQueuesAreTheMainQueueAsInPromiseKit() {
        XCTAssertEqual(conf.Q.map?.label, DispatchQueue.main.label)
        XCTAssertEqual(conf.Q.return?.label, DispatchQueue.main.label)
        XCTAssertEqual(conf.catchPolicy, .allErrorsExceptCancellation)
        let onMain = Recorder<Bool>()
        let finished = expectation(description: "main")
        Promise.value(1).map { value -> Int in
            onMain.append(Thread.isMainThread)
            return value
        }.done { _ in
            onMain.append(Thread.isMainThread)
            finished.fulfill()
        }.cauterize()
        XCTAssertEqual(onMain.elements, [], "default handlers are dispatched, never run inline")
        wait(for: [finished], timeout: 10)
        XCTAssertEqual(onMain.elements, [true, true])
    }

    func testChangingConfQMovesDefaultHandlers() {
        withConfiguration {
            let mapQueue = makeLabelledQueue("configured map")
            let returnQueue = makeLabelledQueue("configured return")
            conf.Q = (map: mapQueue, return: returnQueue)
            let labels = Recorder<String>()
            let finished = expectation(description: "done ran")
            Promise.value(1).map { value -> Int in
                labels.append(currentQueueLabel ?? "none")
                return value
            }.done { _ in
                labels.append(currentQueueLabel ?? "none")
                finished.fulfill()
            }.cauterize()
            wait(for: [finished], timeout: 10)
            XCTAssertEqual(labels.elements, ["configured map", "configured return"])
        }
    }

    func testASettledRejectionThroughTheInlinePathStillNamesWhereTheChainBegan() {
        withConfiguration {
            let rejections = Recorder<UnhandledRejection>()
            conf.unhandledRejectionHandler = { rejections.append($0) }
            do {
                let root = Promise<Int> { $0.reject(TestError(code: 1)) }
                _ = root.map(on: nil) { $0 + 1 }
            }
            XCTAssertEqual(rejections.count, 1)
            #if DEBUG
            XCTAssertNotNil(rejections.elements.first?.creationSite)
            #endif
        }
    }

    func testHandlersOnOnePromiseRunDepthFirstInRegistrationOrder() {
        // PromiseKit's observable order for `on: nil`: a handler's own chain runs before the next
        // handler of the same promise.
        let (promise, resolver) = Promise<Int>.pending()
        let order = Recorder<String>()
        promise.map(on: nil) { $0 }.done(on: nil) { _ in order.append("first's child") }.cauterize()
        promise.done(on: nil) { _ in order.append("second") }.cauterize()
        resolver.fulfill(1)
        XCTAssertEqual(order.elements, ["first's child", "second"])
    }

    func testInspectionAccessors() {
        let (pending, resolver) = Promise<Int>.pending()
        XCTAssertTrue(pending.isPending)
        XCTAssertFalse(pending.isResolved)
        XCTAssertFalse(pending.isFulfilled)
        XCTAssertFalse(pending.isRejected)
        XCTAssertNil(pending.valueIfFulfilled)
        XCTAssertNil(pending.error)
        resolver.reject(TestError(code: 1))
        XCTAssertTrue(pending.isResolved)
        XCTAssertTrue(pending.isRejected)
    }

    // MARK: - then on a settled promise, on: nil

    func testThenPassesOnAFulfilledReturnedPromiseWithItsValue() throws {
        let returned = Promise.value(5)
        let chained = Promise.value(1).then(on: nil) { _ in returned }
        XCTAssertEqual(try chained.wait(), 5)
        let mapped = chained.map(on: nil) { $0 * 2 }
        XCTAssertEqual(try mapped.wait(), 10)
    }

    func testThenCopiesARejectedReturnedPromiseSoTheChainsEndReportsIt() {
        struct Failure: Error {}
        let reports = Recorder<String>()
        withConfiguration {
            conf.unhandledRejectionHandler = { reports.append("\(type(of: $0.error))") }
            do {
                let returned = Promise<Int>(error: Failure())
                let chained = Promise.value(1).then(on: nil) { _ in returned }
                XCTAssertFalse(chained === returned)
                XCTAssertTrue(chained.isPending == false)
                _ = returned.error  // handled where it was made; the chain's end is not
            }
            XCTAssertEqual(reports.elements, ["Failure"])
        }
    }
}
