import Dispatch
import XCTest

@testable import Vow

/// `Promise.immediate { }` and `Guarantee.immediate { }`: the body starts before the call
/// returns, up to its first suspension, when it runs where the caller runs.
final class BridgesImmediateTests: XCTestCase {
    @MainActor
    func testAMainActorBodyStartsBeforeImmediateReturnsAndGoesOnAfterItsFirstSuspension() async throws {
        let log = MainLog()

        let promise = Promise.immediate { @MainActor @Sendable () async throws -> Int in
            log.append("body starts")
            await Task.yield()
            log.append("body ends")
            return 42
        }
        log.append("caller goes on")

        XCTAssertEqual(log.entries, ["body starts", "caller goes on"])
        let value = try await promise.value
        XCTAssertEqual(value, 42)
        XCTAssertEqual(log.entries, ["body starts", "caller goes on", "body ends"])
    }

    @MainActor
    func testABodyThatNeverSuspendsHasSettledWhenImmediateReturns() {
        let promise = Promise.immediate { @MainActor @Sendable () async throws -> String in "done" }

        XCTAssertEqual(promise.valueIfFulfilled, "done")
    }

    @MainActor
    func testTheBodysErrorRejectsThePromiseBeforeImmediateReturns() async {
        let promise = Promise<Int>.immediate { @MainActor @Sendable in throw BridgesTestError(code: 9) }

        XCTAssertEqual(promise.error as? BridgesTestError, BridgesTestError(code: 9))
        do {
            _ = try await promise.value
            XCTFail("expected the body's error")
        } catch {
            XCTAssertEqual(error as? BridgesTestError, BridgesTestError(code: 9))
        }
    }

    @MainActor
    func testACancellationErrorFromTheBodyRejectsAsCancelled() {
        let promise = Promise<Int>.immediate { @MainActor @Sendable in throw CancellationError() }

        XCTAssertTrue(promise.error is CancellationError)
        XCTAssertTrue(promise.error?.isCancelled == true)
    }

    /// From the main queue's work in synchronous code that is not isolated (a view controller in
    /// a Swift 5 app): the main-actor body still starts at once.
    func testAMainActorBodyStartsAtOnceFromNonisolatedCodeOnTheMainQueue() async throws {
        let order = LockedLog()
        let started = expectation(description: "the block ran")
        DispatchQueue.main.async {
            _ = Promise.immediate { @MainActor @Sendable () async throws -> Void in order.append("body") }
            order.append("after the call")
            started.fulfill()
        }
        await fulfillment(of: [started], timeout: 5)

        XCTAssertEqual(order.entries, ["body", "after the call"])
    }

    func testANonisolatedBodyStartsOnTheCallingThread() {
        let order = LockedLog()

        let promise = Promise.immediate { () async throws -> Int in
            order.append("body")
            return 1
        }
        order.append("after the call")

        XCTAssertEqual(order.entries, ["body", "after the call"])
        XCTAssertEqual(promise.valueIfFulfilled, 1)
    }

    @MainActor
    func testAGuaranteeStartsAtOnceAndSettlesWithWhatTheBodyReturns() async {
        let log = MainLog()

        let guarantee = Guarantee.immediate { @MainActor @Sendable () async -> Int in
            log.append("body starts")
            await Task.yield()
            return 7
        }
        log.append("caller goes on")

        XCTAssertEqual(log.entries, ["body starts", "caller goes on"])
        let value = await guarantee.value
        XCTAssertEqual(value, 7)
    }

    @MainActor
    func testHandlersOnTheMainQueueRunAfterTheSettlingTurnAsForAnyPromise() async {
        let log = LockedLog()
        let done = expectation(description: "done ran")

        Promise.immediate { @MainActor @Sendable () async throws -> Int in 1 }.done { value in
            log.append("done \(value)")
            done.fulfill()
        }.cauterize()
        log.append("caller goes on")

        await fulfillment(of: [done], timeout: 5)
        XCTAssertEqual(log.entries, ["caller goes on", "done 1"])
    }
}

@MainActor
private final class MainLog {
    private(set) var entries: [String] = []
    func append(_ entry: String) { entries.append(entry) }
}

private final class LockedLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ entry: String) { lock.withLock { stored.append(entry) } }
    var entries: [String] { lock.withLock { stored } }
}
