import Dispatch
import Foundation
import XCTest
@testable import Vow

/// The shapes of PromiseKit 8.2's own test suite (when, race, after, firstly, wait, recover,
/// ensure, catch policies, log events), written afresh against Vow from PromiseKit's documented
/// behaviour: code written for PromiseKit behaves the same after switching the import.
final class PromiseKitSuiteShapesTests: XCTestCase {
    private enum Error: Swift.Error { case dummy, other }

    /// A cancellation as PromiseKit code defines one.
    private enum LocalError: CancellableError {
        case notCancel, cancel
        var isCancelled: Bool { self == .cancel }
    }

    // MARK: - Promise basics

    func testIsPendingAndResolvedAsPromiseKitReportsThem() {
        XCTAssertTrue(Promise<Void>.pending().promise.isPending)
        XCTAssertFalse(Promise().isPending)
        XCTAssertFalse(Promise<Void>(error: Error.dummy).isPending)
        XCTAssertNil(Promise<Void>.pending().promise.result)
        XCTAssertTrue(Promise().isFulfilled)
        XCTAssertTrue(Promise<Void>(error: Error.dummy).isRejected)
    }

    func testDispatchQueueAsyncPromiseRunsOffTheMainThreadAndCanThrow() {
        let fulfilled = expectation(description: "fulfilled")
        let rejected = expectation(description: "rejected")
        DispatchQueue.global().async(.promise) { () -> Int in
            XCTAssertFalse(Thread.isMainThread)
            return 1
        }.done { one in
            XCTAssertEqual(one, 1)
            fulfilled.fulfill()
        }.cauterize()
        DispatchQueue.global().async(.promise) { () -> Int in
            throw Error.dummy
        }.done { _ in
            XCTFail()
        }.catch { _ in
            rejected.fulfill()
        }
        wait(for: [fulfilled, rejected], timeout: 10)
    }

    func testThenableChainsRunOnTheMainQueueByDefault() {
        let finished = expectation(description: "chain")
        Promise.value(1).then { value -> Promise<Int> in
            XCTAssertTrue(Thread.isMainThread)
            return .value(value + 1)
        }.map { value -> Int in
            XCTAssertTrue(Thread.isMainThread)
            return value * 10
        }.done { value in
            XCTAssertEqual(value, 20)
            finished.fulfill()
        }.cauterize()
        wait(for: [finished], timeout: 10)
    }

    // MARK: - when

    func testWhenFulfilledOfTwoToFiveKeepsEachType() {
        let finished = expectation(description: "when")
        when(fulfilled: Promise.value(1), Promise.value("a"), Promise.value(true)).done { number, text, flag in
            XCTAssertEqual(number, 1)
            XCTAssertEqual(text, "a")
            XCTAssertTrue(flag)
            finished.fulfill()
        }.cauterize()
        wait(for: [finished], timeout: 10)
    }

    /// `when(fulfilled: p1, p2, p3)` over `Void` promises of one type, as PromiseKit's own
    /// `WhenTests` write it: the tuple overload, as with PromiseKit (it was ambiguous with the
    /// variadic `Void` one); one promise, or six, take the variadic one.
    func testWhenFulfilledOfSeveralVoidPromisesCompilesAsWithPromiseKit() {
        let p1 = Promise<Void>(error: Error.dummy)
        let p2 = Promise<Void>(error: Error.other)
        let p3 = Promise()
        let triple = when(fulfilled: p1, p2, p3)
        XCTAssertTrue(type(of: triple) == Promise<((), (), ())>.self)
        XCTAssertTrue(when(fulfilled: p1, p2).error as? Error == .dummy)
        XCTAssertTrue(type(of: when(fulfilled: p3)) == Promise<Void>.self)
        XCTAssertTrue(type(of: when(fulfilled: p3, p3, p3, p3, p3, p3)) == Promise<Void>.self)
        let joined: Promise<Void> = when(fulfilled: p3, p3)
        XCTAssertTrue(joined.isFulfilled)
        XCTAssertTrue(triple.error as? Error == .dummy)
        let caught = expectation(description: "caught")
        when(fulfilled: p2, p3, p3).catch { error in
            XCTAssertTrue(error as? Error == .other)
            caught.fulfill()
        }
        wait(for: [caught], timeout: 5)
    }

    func testWhenFulfilledRejectsWithTheFirstErrorAndTheOthersGoOn() {
        let finished = expectation(description: "when")
        let (slow, slowResolver) = Promise<Int>.pending()
        when(fulfilled: [slow, Promise(error: Error.dummy), Promise.value(3)]).done { _ in
            XCTFail()
        }.catch { error in
            XCTAssertEqual(error as? Error, .dummy)
            finished.fulfill()
        }
        wait(for: [finished], timeout: 10)
        slowResolver.fulfill(1)
        XCTAssertTrue(slow.isFulfilled)
    }

    func testWhenResolvedWaitsForAllAndKeepsTheirOrder() {
        let finished = expectation(description: "when(resolved:)")
        let (late, lateResolver) = Promise<Int>.pending()
        when(resolved: late, Promise<Int>(error: Error.dummy), Promise.value(3)).done { results in
            XCTAssertEqual(results.count, 3)
            guard case .fulfilled(1) = results[0], case .rejected(Error.dummy) = results[1], case .fulfilled(3) = results[2] else {
                return XCTFail("\(results)")
            }
            finished.fulfill()
        }
        lateResolver.fulfill(1)
        wait(for: [finished], timeout: 10)
    }

    func testWhenOverAnEmptyArrayFulfillsAtOnce() {
        XCTAssertEqual(when(fulfilled: [Promise<Int>]()).valueIfFulfilled, [])
        XCTAssertEqual(when(resolved: [Promise<Int>]()).valueIfFulfilled?.count, 0)
    }

    func testWhenConcurrentlyRunsAtMostThatManyAtOnce() {
        let running = RunningCount()
        let peak = Recorder<Int>()
        var next = 0
        let generator = AnyIterator<Promise<Int>> {
            guard next < 6 else { return nil }
            next += 1
            let index = next
            return Promise { seal in
                peak.append(running.enter())
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) {
                    running.leave()
                    seal.fulfill(index)
                }
            }
        }
        let finished = expectation(description: "when concurrently")
        when(fulfilled: generator, concurrently: 2).done { values in
            XCTAssertEqual(values, [1, 2, 3, 4, 5, 6])
            finished.fulfill()
        }.cauterize()
        wait(for: [finished], timeout: 10)
        XCTAssertLessThanOrEqual(peak.elements.max() ?? 0, 2)
    }

    // MARK: - race

    func testRaceSettlesAsTheFirstToSettle() {
        let finished = expectation(description: "race")
        // The resolver is kept: a promise whose resolver is gone is abandoned once raced (Vow).
        let (never, neverResolver) = Promise<Int>.pending()
        race(never, after(.milliseconds(10)).map { 2 }).done { winner in
            XCTAssertEqual(winner, 2)
            finished.fulfill()
        }.cauterize()
        wait(for: [finished], timeout: 10)
        withExtendedLifetime(neverResolver) {}
    }

    func testRaceFulfilledSkipsRejectionsAndRejectsWithNoWinnerWhenAllFail() {
        let finished = expectation(description: "race(fulfilled:)")
        race(fulfilled: [Promise<Int>(error: Error.dummy), Promise<Int>(error: Error.other)]).catch { error in
            guard case PMKError.noWinner = error else { return XCTFail("\(error)") }
            XCTAssertEqual((error as? PMKError)?.debugDescription, "All thenables passed to race(fulfilled:) were rejected")
            finished.fulfill()
        }
        XCTAssertEqual(race(fulfilled: [Promise(error: Error.dummy), Promise.value(4)]).valueIfFulfilled, 4)
        wait(for: [finished], timeout: 10)
    }

    func testRaceOverNothingIsBadInput() {
        guard case PMKError.badInput? = race([Promise<Int>]()).error else { return XCTFail() }
        guard case PMKError.badInput? = race(fulfilled: [Promise<Int>]()).error else { return XCTFail() }
    }

    // MARK: - after, firstly, hang

    func testAfterIsPendingUntilItsIntervalAndThenFulfillsOnTheMainQueue() {
        let finished = expectation(description: "after")
        let timer = after(seconds: 0.05)
        XCTAssertTrue(timer.isPending)
        timer.done {
            XCTAssertTrue(Thread.isMainThread)
            finished.fulfill()
        }
        wait(for: [finished], timeout: 10)
        XCTAssertTrue(timer.isFulfilled)
    }

    func testFirstlyRunsItsBodyAtOnceAndAThrowRejects() {
        let ran = Counter()
        let first = firstly { () -> Promise<Int> in
            ran.increment()
            return .value(1)
        }
        XCTAssertEqual(ran.value, 1)
        XCTAssertEqual(first.valueIfFulfilled, 1)
        let failing = firstly { () -> Promise<Int> in throw Error.dummy }
        XCTAssertEqual(failing.error as? Error, .dummy)
        XCTAssertEqual(firstly { Guarantee.value(2) }.valueIfFulfilled, 2)
    }

    func testHangWaitsForAPromiseSettledOnTheMainQueue() throws {
        let promise = after(.milliseconds(10)).then { Promise.value(5) }
        XCTAssertEqual(try hang(promise), 5)
    }

    // MARK: - wait

    func testWaitReturnsTheValueOrThrowsTheError() throws {
        let saved = conf.logHandler
        conf.logHandler = { _ in }
        defer { conf.logHandler = saved }
        let (promise, resolver) = Promise<String>.pending()
        DispatchQueue(label: "worker").async { resolver.fulfill("PromiseFulfilled") }
        XCTAssertEqual(try promise.wait(), "PromiseFulfilled")
        XCTAssertThrowsError(try Promise<Int>(error: Error.dummy).wait()) { XCTAssertEqual($0 as? Error, .dummy) }
        let (guarantee, resolve) = Guarantee<String>.pending()
        DispatchQueue(label: "worker").async { resolve("GuaranteeFulfilled") }
        XCTAssertEqual(guarantee.wait(), "GuaranteeFulfilled")
    }

    // MARK: - recover, ensure, ensureThen

    func testRecoverReplacesAnErrorAndRethrowingPassesItOn() {
        XCTAssertEqual(Promise<Int>(error: Error.dummy).recover(on: nil) { _ in Promise.value(1) }.valueIfFulfilled, 1)
        let rethrown = Promise<Int>(error: Error.dummy).recover(on: nil) { error -> Promise<Int> in
            guard case Error.other = error else { throw error }
            return .value(2)
        }
        XCTAssertEqual(rethrown.error as? Error, .dummy)
        let guaranteed: Guarantee<Int> = Promise<Int>(error: Error.dummy).recover(on: nil) { _ in Guarantee.value(3) }
        XCTAssertEqual(guaranteed.valueIfFulfilled, 3)
        let voided: Guarantee<Void> = Promise<Void>(error: Error.dummy).recover(on: nil) { _ in }
        XCTAssertTrue(voided.isFulfilled)
    }

    func testEnsureRunsEitherWayAndPassesTheResultOn() {
        let order = Recorder<String>()
        let fulfilled = Promise.value(1).ensure(on: nil) { order.append("ensure 1") }
        let rejected = Promise<Int>(error: Error.dummy).ensure(on: nil) { order.append("ensure 2") }
        XCTAssertEqual(fulfilled.valueIfFulfilled, 1)
        XCTAssertEqual(rejected.error as? Error, .dummy)
        let (gate, open) = Guarantee<Void>.pending()
        let afterGate = Promise.value(3).ensureThen(on: nil) { order.append("ensureThen"); return gate }
        XCTAssertTrue(afterGate.isPending)
        open(())
        XCTAssertEqual(afterGate.valueIfFulfilled, 3)
        XCTAssertEqual(order.elements, ["ensure 1", "ensure 2", "ensureThen"])
    }

    // MARK: - catch policies (PromiseKit's CancellableErrorTests)

    func testCatchSkipsACancellableErrorThatIsCancelledUnlessAllErrors() {
        let finished = expectation(description: "allErrors")
        let promise = after(seconds: 0).done { _ in throw LocalError.cancel }
        promise.catch { _ in XCTFail() }
        promise.catch(policy: .allErrors) {
            XCTAssertTrue($0.isCancelled)
            finished.fulfill()
        }
        wait(for: [finished], timeout: 10)
    }

    func testCatchSeesACancellableErrorThatIsNotCancelled() {
        let finished = expectation(description: "catch")
        after(seconds: 0).done { _ in throw LocalError.notCancel }.catch {
            XCTAssertFalse($0.isCancelled)
            finished.fulfill()
        }
        wait(for: [finished], timeout: 10)
    }

    func testRecoverWithAllErrorsSeesFoundationCancellationsAndRethrowsThem() {
        let recovered = expectation(description: "recover")
        let caught = expectation(description: "catch")
        let promise = after(seconds: 0).done { _ in
            throw CocoaError(.userCancelled)
        }.recover(policy: .allErrors) { error -> Promise<Void> in
            XCTAssertTrue(error.isCancelled)
            recovered.fulfill()
            throw error
        }
        promise.catch { _ in XCTFail() }
        promise.catch(policy: .allErrors) {
            XCTAssertTrue($0.isCancelled)
            caught.fulfill()
        }
        wait(for: [recovered, caught], timeout: 10)
    }

    func testPromiseKitsIsCancelledExamples() {
        XCTAssertTrue(PMKError.cancelled.isCancelled)
        XCTAssertTrue(URLError(_nsError: NSError(domain: NSURLErrorDomain, code: URLError.Code.cancelled.rawValue)).isCancelled)
        XCTAssertTrue(CocoaError(_nsError: NSError(domain: NSCocoaErrorDomain, code: CocoaError.Code.userCancelled.rawValue)).isCancelled)
        XCTAssertFalse(CocoaError(_nsError: NSError(domain: NSCocoaErrorDomain, code: CocoaError.Code.coderInvalidValue.rawValue)).isCancelled)
    }

    // MARK: - log events (PromiseKit's LoggingTests)

    func testLogEventsArriveAsPromiseKitsLoggingTestExpects() {
        withConfiguration {
            let output = Recorder<String>()
            conf.logHandler = { event in
                switch event {
                case .waitOnMainThread, .pendingPromiseDeallocated, .pendingGuaranteeDeallocated:
                    output.append("\(event)")
                case .cauterized:
                    output.append("cauterized")
                }
            }
            conf.diagnosticHandler = { _ in }
            do {
                let _ = Promise<Int>.pending()
            }
            do {
                let _ = Guarantee<Int>.pending()
            }
            _ = try? Promise.value(1).wait()
            XCTAssertEqual(output.elements, ["pendingPromiseDeallocated", "pendingGuaranteeDeallocated", "waitOnMainThread"])

            let cauterized = expectation(description: "cauterized")
            conf.logHandler = { event in
                if case .cauterized = event { cauterized.fulfill() }
            }
            firstly { Promise<Int>(error: Error.dummy) }.ensure {}.cauterize()
            wait(for: [cauterized], timeout: 10)
        }
    }

    // MARK: - descriptions (PromiseKit's testCustomStringConvertible)

    func testDescriptionsAsPromiseKitsTestSpellsThem() {
        withConfiguration {
            conf.logHandler = { _ in }
            conf.unhandledRejectionHandler = { _ in }
            XCTAssertEqual(Promise<Int>.pending().promise.debugDescription, "Promise<Int>.pending(handlers: 0)")
            XCTAssertEqual(Promise().debugDescription, "Promise<()>.fulfilled(())")
            XCTAssertEqual(Promise<String>(error: Error.dummy).debugDescription, "Promise<String>.rejected(Error.dummy)")
            XCTAssertEqual("\(Promise<Int>.pending().promise)", "Promise(…Int)")
            XCTAssertEqual("\(Promise.value(3))", "Promise(3)")
            XCTAssertEqual("\(Promise<Void>(error: Error.dummy))", "Promise(dummy)")
        }
    }
}

/// How many operations run at once.
private final class RunningCount: @unchecked Sendable {
    // @unchecked: every access goes through `lock`.
    private let lock = NSLock()
    private var running = 0

    func enter() -> Int {
        lock.lock(); defer { lock.unlock() }
        running += 1
        return running
    }

    func leave() {
        lock.lock(); defer { lock.unlock() }
        running -= 1
    }
}
