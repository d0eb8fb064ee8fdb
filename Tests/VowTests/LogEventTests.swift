import Dispatch
import Foundation
import XCTest
@testable import Vow

/// The events `conf.logHandler` receives, and their order, are PromiseKit's.
final class LogEventTests: XCTestCase {

    // MARK: - waitOnMainThread

    func testWaitOnTheMainThreadLogsBeforeReturningASettledValue() throws {
        try withConfiguration {
            let order = Recorder<String>()
            conf.logHandler = { order.append("\($0)") }
            XCTAssertTrue(Thread.isMainThread)
            XCTAssertEqual(try Promise.value(1).wait(), 1)
            order.append("returned")
            XCTAssertThrowsError(try Promise<Int>(error: TestError()).wait())
            order.append("threw")
            XCTAssertEqual(Guarantee.value(2).wait(), 2)
            order.append("returned")
            XCTAssertEqual(order.elements, [
                "waitOnMainThread", "returned", "waitOnMainThread", "threw", "waitOnMainThread", "returned",
            ])
        }
    }

    func testWaitOnTheMainThreadLogsBeforeBlocking() throws {
        try withConfiguration {
            let order = Recorder<String>()
            conf.logHandler = { order.append("\($0)") }
            let (promise, resolver) = Promise<Int>.pending()
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.02) {
                order.append("fulfilling")
                resolver.fulfill(3)
            }
            XCTAssertEqual(try promise.wait(), 3)
            XCTAssertEqual(order.elements, ["waitOnMainThread", "fulfilling"])
        }
    }

    func testWaitOffTheMainThreadLogsNothing() {
        withConfiguration {
            let events = Recorder<String>()
            conf.logHandler = { events.append("\($0)") }
            let waited = expectation(description: "waited on a background thread")
            DispatchQueue.global().async {
                _ = try? Promise.value(1).wait()
                _ = Guarantee.value(2).wait()
                waited.fulfill()
            }
            wait(for: [waited], timeout: 10)
            XCTAssertEqual(events.elements, [])
        }
    }

    // MARK: - cauterized

    func testCauterizeLogsOnTheReturnQueueNotSynchronously() {
        withConfiguration {
            let events = Recorder<String>()
            let logged = expectation(description: "logged")
            conf.logHandler = { event in
                guard case .cauterized(let error) = event else { return }
                events.append("cauterized \(error) on main: \(Thread.isMainThread)")
                logged.fulfill()
            }
            Promise<Int>(error: TestError(code: 1)).cauterize()
            XCTAssertEqual(events.elements, [], "logged from conf.Q.return, the main queue, later")
            wait(for: [logged], timeout: 10)
            XCTAssertEqual(events.elements, ["cauterized TestError(code: 1) on main: true"])
        }
    }

    func testCauterizeFollowsTheCatchPolicyForCancellations() {
        withConfiguration {
            conf.Q.return = nil
            let events = Recorder<String>()
            conf.logHandler = { event in
                if case .cauterized(let error) = event { events.append("\(type(of: error))") }
            }
            Promise<Int>(error: CancellationError()).cauterize()
            Promise<Int>(error: URLError(.cancelled)).cauterize()
            XCTAssertEqual(events.elements, [], "the default policy skips cancellations")
            conf.catchPolicy = .allErrors
            Promise<Int>(error: CancellationError()).cauterize()
            XCTAssertEqual(events.elements, ["CancellationError"])
        }
    }

    func testCauterizeReturnsAFinalizerSoFinallyCanFollow() {
        withConfiguration {
            conf.Q.return = nil
            conf.logHandler = { _ in }
            let order = Recorder<String>()
            Promise<Int>(error: TestError()).cauterize().finally(on: nil) { order.append("finally") }
            Promise.value(1).cauterize().finally(on: nil) { order.append("finally") }
            XCTAssertEqual(order.elements, ["finally", "finally"])
        }
    }

    // MARK: - pendingPromiseDeallocated and pendingGuaranteeDeallocated

    func testAPendingPromiseDeallocatedWithItsResolverIsLogged() {
        withConfiguration {
            let events = Recorder<String>()
            conf.logHandler = { events.append("\($0)") }
            conf.diagnosticHandler = { _ in }
            do {
                _ = Promise<Int>.pending()
            }
            XCTAssertEqual(events.elements, ["pendingPromiseDeallocated"])
        }
    }

    func testAPendingPromiseKeptAfterItsResolverWentIsLoggedWhenItGoes() {
        withConfiguration {
            let events = Recorder<String>()
            conf.logHandler = { events.append("\($0)") }
            conf.diagnosticHandler = { _ in }
            var promise: Promise<Int>? = Promise<Int>.pending().promise
            XCTAssertTrue(promise?.isPending ?? false)
            XCTAssertEqual(events.elements, [], "still alive: nothing was deallocated yet")
            promise = nil
            XCTAssertEqual(events.elements, ["pendingPromiseDeallocated"])
        }
    }

    func testAResolverDroppedWhileThePromiseIsAwaitedIsADiagnosticNotADeallocation() async throws {
        let events = Recorder<String>()
        let diagnostics = Recorder<String>()
        let saved = (conf.logHandler, conf.diagnosticHandler)
        conf.logHandler = { events.append("\($0)") }
        conf.diagnosticHandler = { diagnostics.append("\($0)") }
        defer { (conf.logHandler, conf.diagnosticHandler) = saved }

        var resolver: Resolver<Int>? = nil
        let promise = Promise<Int> { resolver = $0 }
        let awaiting = Task { try await promise.value }
        while promise.debugDescription != "Promise<Int>.pending(handlers: 1)" { await Task.yield() }
        XCTAssertNotNil(resolver)
        resolver = nil
        do {
            _ = try await awaiting.value
            XCTFail("expected VowError.abandoned")
        } catch {
            XCTAssertEqual(error as? VowError, .abandoned)
        }
        XCTAssertEqual(events.elements, [])
        XCTAssertEqual(diagnostics.count, 1)
        XCTAssertTrue(diagnostics.elements.first?.contains("was deallocated without settling it; the promise was rejected with VowError.abandoned") ?? false,
                      "\(diagnostics.elements)")
    }

    func testASettledPromiseLogsNothingWhenItsResolverAndItGo() {
        withConfiguration {
            let events = Recorder<String>()
            conf.logHandler = { events.append("\($0)") }
            do {
                let (promise, resolver) = Promise<Int>.pending()
                resolver.fulfill(1)
                _ = promise
            }
            XCTAssertEqual(events.elements, [])
        }
    }

    func testAPendingGuaranteeDeallocatedWithItsResolveFunctionIsLogged() {
        withConfiguration {
            let events = Recorder<String>()
            conf.logHandler = { events.append("\($0)") }
            do {
                _ = Guarantee<Int>.pending()
            }
            XCTAssertEqual(events.elements, ["pendingGuaranteeDeallocated"])
        }
    }

    // MARK: - The default handler

    func testTheDefaultHandlerAcceptsEveryEvent() {
        // PromiseKit's own logging test calls the default handler with every event; it prints.
        let handler = PMKConfiguration.defaultLogHandler
        handler(.waitOnMainThread)
        handler(.pendingPromiseDeallocated)
        handler(.pendingGuaranteeDeallocated)
        handler(.cauterized(TestError()))
    }
}
