import Dispatch
import XCTest
@testable import Vow

/// PromiseKit 8 API that Vow keeps under PromiseKit's names: `fulfill_()`, `async()` and
/// `when(fulfilled:)` over thenables of mixed types.
final class PromiseKitSpellingTests: XCTestCase {
    private enum Error: Swift.Error { case dummy }

    // MARK: - Resolver<Void>.fulfill_()

    func testFulfillUnderscoreFulfillsAVoidPromise() {
        let (promise, resolver) = Promise<Void>.pending()
        let ran = Counter()
        promise.done(on: nil) { ran.increment() }.cauterize()
        resolver.fulfill_()
        XCTAssertTrue(promise.isFulfilled)
        XCTAssertEqual(ran.value, 1)
    }

    func testFulfillUnderscoreInsideAPromiseBodyAndAfterSettlingIsIgnoredAndReported() {
        withConfiguration {
            let diagnostics = Recorder<String>()
            conf.diagnosticHandler = { diagnostics.append("\($0)") }
            let promise = Promise<Void> { seal in
                seal.fulfill_()
                seal.fulfill_()
            }
            XCTAssertTrue(promise.isFulfilled)
            XCTAssertEqual(diagnostics.count, 1, "the second call was reported as resolving twice")
        }
    }

    // MARK: - async()

    func testPromiseAsyncReturnsTheValueOfAPromiseThatSettlesLater() async throws {
        let promise = after(.milliseconds(20)).then(on: nil) { Promise.value(1) }
        let value = try await promise.async()
        XCTAssertEqual(value, 1)
    }

    func testPromiseAsyncThrowsTheRejection() async {
        let promise = after(.milliseconds(20)).then(on: nil) { Promise<Int>(error: Error.dummy) }
        do {
            _ = try await promise.async()
            XCTFail("expected the rejection")
        } catch {
            XCTAssertEqual(error as? Error, .dummy)
        }
    }

    func testGuaranteeAsyncReturnsTheValue() async {
        let guarantee = after(.milliseconds(20)).then(on: nil) { Guarantee.value(2) }
        let value = await guarantee.async()
        XCTAssertEqual(value, 2)
        let settled = await Guarantee.value(3).async()
        XCTAssertEqual(settled, 3)
    }

    func testCancellingATaskAwaitingAsyncReleasesItWithCancellationErrorAndThePromiseGoesOn() async throws {
        let (promise, resolver) = Promise<Int>.pending()
        let awaiting = Task { try await promise.async() }
        // Wait until the awaiter's handler is installed, then cancel it.
        while promise.debugDescription != "Promise<Int>.pending(handlers: 1)" { await Task.yield() }
        awaiting.cancel()
        do {
            _ = try await awaiting.value
            XCTFail("expected CancellationError")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertTrue(promise.isPending, "the promise itself is not cancelled")
        resolver.fulfill(4)
        let value = try await promise.async()
        XCTAssertEqual(value, 4)
    }

    func testASettledPromiseAnswersAsyncEvenInACancelledTask() async throws {
        let answer = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Promise.value(5).async()
        }
        let value = try await answer.value
        XCTAssertEqual(value, 5)
    }

    func testAsyncAndDispatchQueueAsyncPromiseLiveSideBySide() async throws {
        let promise: Promise<Int> = DispatchQueue.global().async(.promise) { 6 }
        let guarantee: Guarantee<Int> = DispatchQueue.global().async(.promise) { 7 }
        let fromPromise = try await promise.async()
        let fromGuarantee = await guarantee.async()
        XCTAssertEqual(fromPromise + fromGuarantee, 13)
    }

    // MARK: - when(fulfilled: [any Thenable])

    func testWhenFulfilledOverMixedThenablesGivesEachValueInInputOrder() {
        let (number, numberResolver) = Promise<Int>.pending()
        let (text, resolveText) = Guarantee<String>.pending()
        let flag = Promise.value(true)
        let joined = when(fulfilled: [number, text, flag])
        XCTAssertTrue(joined.isPending)
        resolveText("two")
        XCTAssertTrue(joined.isPending)
        numberResolver.fulfill(1)
        guard let values = joined.valueIfFulfilled else { return XCTFail("expected fulfilled: \(joined)") }
        XCTAssertEqual(values.count, 3)
        XCTAssertEqual(values[0] as? Int, 1)
        XCTAssertEqual(values[1] as? String, "two")
        XCTAssertEqual(values[2] as? Bool, true)
    }

    func testWhenFulfilledOverMixedThenablesRejectsWithTheFirstError() {
        let (slow, slowResolver) = Promise<Int>.pending()
        let joined = when(fulfilled: [slow, Promise<String>(error: Error.dummy), Guarantee.value(1.5)] as [any Thenable])
        XCTAssertEqual(joined.error as? Error, .dummy)
        slowResolver.fulfill(1)
        XCTAssertEqual(joined.error as? Error, .dummy)
    }

    func testWhenFulfilledOverNoThenablesIsFulfilledWithNothing() {
        XCTAssertEqual(when(fulfilled: [any Thenable]()).valueIfFulfilled?.count, 0)
    }

    func testAnArrayOfOneThenableTypeStillGetsTypedValues() {
        let typed: Promise<[Int]> = when(fulfilled: [Promise.value(1), Promise.value(2)])
        XCTAssertEqual(typed.valueIfFulfilled, [1, 2])
        let voids: Promise<Void> = when(fulfilled: [Promise<Void>(), Promise<Void>()])
        XCTAssertTrue(voids.isFulfilled)
    }
}
