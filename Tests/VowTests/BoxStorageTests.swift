import Dispatch
import Foundation
import XCTest

@testable import Vow

/// The box's type-erased slot (Box.swift): values of every shape come back exactly, and whatever a
/// promise or guarantee holds (value, error, handlers) is released exactly once when it goes.
final class BoxStorageTests: XCTestCase {
    /// Three words: too large for the slot's two, so it is kept in a separate box.
    struct ThreeWords: Equatable, Sendable {
        var first: Int
        var second: String
    }

    struct Failure: Error, Equatable {
        let code: Int
        let detail: String
    }

    func testValuesOfEveryShapeComeBackExactly() throws {
        XCTAssertEqual(try Promise.value(42).wait(), 42)
        XCTAssertEqual(try Promise.value("a string longer than fifteen bytes, so it is on the heap").wait(),
                       "a string longer than fifteen bytes, so it is on the heap")
        XCTAssertEqual(try Promise.value(ThreeWords(first: 7, second: "seven")).wait(), ThreeWords(first: 7, second: "seven"))
        XCTAssertEqual(try Promise.value([1, 2, 3]).wait(), [1, 2, 3])
        XCTAssertEqual(try Promise.value(Optional<Int>.none).wait(), nil)
        let pair = try Promise.value((1, 2.5)).wait()
        XCTAssertEqual(pair.0, 1)
        XCTAssertEqual(pair.1, 2.5)
        XCTAssertNoThrow(try Promise<Void>.value(()).wait())
        let existential: any Sendable = ThreeWords(first: 1, second: "one")
        XCTAssertEqual(try Promise.value(existential).wait() as? ThreeWords, ThreeWords(first: 1, second: "one"))
        let error: any Error = Failure(code: 3, detail: "three")
        XCTAssertEqual(try Promise<any Error>.value(error).wait() as? Failure, Failure(code: 3, detail: "three"))
        XCTAssertEqual(Guarantee.value(ThreeWords(first: 2, second: "two")).wait(), ThreeWords(first: 2, second: "two"))
        XCTAssertEqual(Guarantee.value("guaranteed").wait(), "guaranteed")
    }

    func testValuesSealedLaterComeBackExactly() throws {
        let (small, smallResolver) = Promise<String>.pending()
        let (large, largeResolver) = Promise<ThreeWords>.pending()
        let seen = Recorder<String>()
        small.done(on: nil) { seen.append($0) }.cauterize()
        large.done(on: nil) { seen.append("\($0.first) \($0.second)") }.cauterize()
        smallResolver.fulfill("small")
        largeResolver.fulfill(ThreeWords(first: 3, second: "large"))
        XCTAssertEqual(seen.elements, ["small", "3 large"])
        XCTAssertEqual(try small.wait(), "small")
        XCTAssertEqual(try large.wait(), ThreeWords(first: 3, second: "large"))
    }

    func testAnErrorComesBackAsItselfNotOpenedToItsType() {
        let (promise, resolver) = Promise<Int>.pending()
        resolver.reject(Failure(code: 9, detail: "nine"))
        XCTAssertEqual(promise.error as? Failure, Failure(code: 9, detail: "nine"))
        XCTAssertEqual(Promise<ThreeWords>(error: Failure(code: 1, detail: "one")).error as? Failure,
                       Failure(code: 1, detail: "one"))
    }

    func testAFulfilledValueIsReleasedOnceWithItsPromise() {
        let tracker = LifetimeTracker()
        do {
            let promise = Promise.value(Tracked(tracker))
            XCTAssertEqual(promise.valueIfFulfilled?.tracker === tracker, true)
            let guarantee = Guarantee.value(Tracked(tracker))
            XCTAssertNotNil(guarantee.result)
            let (large, resolver) = Promise<(Tracked, Int, Int)>.pending()
            resolver.fulfill((Tracked(tracker), 1, 2))
            XCTAssertEqual(large.valueIfFulfilled?.1, 1)
            XCTAssertEqual(tracker.alive, 3)
        }
        XCTAssertEqual(tracker.alive, 0)
        XCTAssertEqual(tracker.released, 3)
    }

    func testARejectionIsReleasedOnceWithItsPromise() {
        let tracker = LifetimeTracker()
        withConfiguration {
            conf.unhandledRejectionHandler = { _ in }
            do {
                let promise = Promise<Int>(error: TrackedError(Tracked(tracker)))
                XCTAssertNotNil(promise.error)
                let (pending, resolver) = Promise<String>.pending()
                resolver.reject(TrackedError(Tracked(tracker)))
                XCTAssertEqual(tracker.alive, 2)
                _ = pending
            }
        }
        XCTAssertEqual(tracker.alive, 0)
        XCTAssertEqual(tracker.released, 2)
    }

    func testHandlersOfAPendingPromiseFreedUnsettledAreReleased() {
        // A guarantee whose resolve function is gone stays pending; freeing it frees its handlers,
        // among them the one that would settle a promise bridged from it, which is freed pending too.
        let tracker = LifetimeTracker()
        withConfiguration {
            conf.logHandler = { _ in }
            do {
                let (one, _) = Guarantee<Int>.pending()
                let first = Tracked(tracker)
                one.observe { _ in _ = first }
                let (many, _) = Guarantee<Int>.pending()
                for _ in 0..<5 {
                    let captured = Tracked(tracker)
                    many.observe { _ in _ = captured }
                }
                let (root, _) = Guarantee<Int>.pending()
                let bridged = Promise(root)
                let last = Tracked(tracker)
                bridged.pipe { _ in _ = last }
                XCTAssertTrue(bridged.isPending)
                XCTAssertEqual(bridged.box.handlerCount, 1)
                XCTAssertEqual(many.box.handlerCount, 5)
                XCTAssertEqual(tracker.alive, 7)
            }
        }
        XCTAssertEqual(tracker.alive, 0)
        XCTAssertEqual(tracker.released, 7)
    }

    func testHandlersAreReleasedOnceTheyHaveRun() {
        let tracker = LifetimeTracker()
        let (promise, resolver) = Promise<Int>.pending()
        do {
            let captured = Tracked(tracker)
            promise.pipe { _ in _ = captured }
        }
        XCTAssertEqual(tracker.alive, 1)
        resolver.fulfill(1)
        XCTAssertEqual(tracker.alive, 0)
        XCTAssertEqual(try promise.wait(), 1)
    }

    // MARK: - A lone awaiter is stored as its continuation

    func testALoneAwaiterIsResumedWithTheValue() async throws {
        let (promise, resolver) = Promise<String>.pending()
        let awaiter = Task { try await promise.value }
        await waitForHandlers(promise, 1)
        resolver.fulfill("lone")
        let value = try await awaiter.value
        XCTAssertEqual(value, "lone")
    }

    func testHandlersJoiningALoneAwaiterAllGetTheValue() async throws {
        let (promise, resolver) = Promise<Int>.pending()
        let awaiter = Task { try await promise.value }
        await waitForHandlers(promise, 1)
        let seen = Recorder<Int>()
        promise.done(on: nil) { seen.append($0) }.cauterize()
        let second = Task { try await promise.value }
        await waitForHandlers(promise, 3)
        resolver.fulfill(8)
        let first = try await awaiter.value
        let other = try await second.value
        XCTAssertEqual(first, 8)
        XCTAssertEqual(other, 8)
        XCTAssertEqual(seen.elements, [8])
    }

    func testACancelledLoneAwaiterLeavesThePromiseWithNoHandler() async throws {
        let (promise, resolver) = Promise<Int>.pending()
        let awaiter = Task { try await promise.value }
        await waitForHandlers(promise, 1)
        awaiter.cancel()
        do {
            _ = try await awaiter.value
            XCTFail("expected CancellationError")
        } catch {
            XCTAssertTrue(error is CancellationError, "unexpected \(error)")
        }
        XCTAssertEqual(promise.box.handlerCount, 0)
        XCTAssertEqual(promise.box.storedHandlerSlots, 0)
        XCTAssertTrue(promise.isPending)
        resolver.fulfill(3)
        let value = try await promise.value
        XCTAssertEqual(value, 3)
    }

    func testALoneAwaiterRacingCancellationAgainstSettlementGetsExactlyOneOutcome() async {
        for round in 0..<500 {
            let (promise, resolver) = Promise<Int>.pending()
            let awaiter = Task { try await promise.value }
            let start = DispatchGroup()
            DispatchQueue.global().async(group: start) { resolver.fulfill(round) }
            DispatchQueue.global().async(group: start) { awaiter.cancel() }
            switch await awaiter.result {
            case .success(let value):
                XCTAssertEqual(value, round)
            case .failure(let error):
                XCTAssertTrue(error is CancellationError, "unexpected \(error)")
            }
        }
    }

    func testALoneGuaranteeAwaiterIsResumedWithTheValue() async {
        let (guarantee, resolve) = Guarantee<Int>.pending()
        let awaiter = Task { await guarantee.value }
        while guarantee.box.handlerCount == 0 { await Task.yield() }
        resolve(21)
        let value = await awaiter.value
        XCTAssertEqual(value, 21)
    }

    private func waitForHandlers(_ promise: Promise<some Sendable>, _ count: Int) async {
        while promise.box.handlerCount < count { await Task.yield() }
    }

    func testWhatLivesInTheSlotItselfAndWhatIsBoxed() {
        XCTAssertTrue(SlotWords.fits(Int.self))
        XCTAssertTrue(SlotWords.fits(String.self))
        XCTAssertTrue(SlotWords.fits(StoredHandler<Result<Int>>.self))
        XCTAssertTrue(SlotWords.fits((any Error).self))
        XCTAssertFalse(SlotWords.fits(ThreeWords.self))
    }
}

/// Counts live ``Tracked`` objects.
private final class LifetimeTracker: @unchecked Sendable {
    // @unchecked: every access goes through `lock`.
    private let lock = NSLock()
    private var counts = (alive: 0, released: 0)

    var alive: Int { lock.withLock { counts.alive } }
    var released: Int { lock.withLock { counts.released } }

    func born() { lock.withLock { counts.alive += 1 } }

    func died() {
        lock.withLock {
            counts.alive -= 1
            counts.released += 1
        }
    }
}

private final class Tracked: Sendable {
    let tracker: LifetimeTracker

    init(_ tracker: LifetimeTracker) {
        self.tracker = tracker
        tracker.born()
    }

    deinit {
        tracker.died()
    }
}

private struct TrackedError: Error {
    let tracked: Tracked

    init(_ tracked: Tracked) {
        self.tracked = tracked
    }
}
