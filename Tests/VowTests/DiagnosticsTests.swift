import Dispatch
import Foundation
import XCTest
@testable import Vow

final class DiagnosticsTests: XCTestCase {

    func testDroppingAResolverThatSomethingWaitsOnRejectsAtOnceAndReportsItAsAbandoned() {
        withConfiguration {
            let events = Recorder<String>()
            let diagnostics = Recorder<String>()
            conf.logHandler = { events.append("\($0)") }
            conf.diagnosticHandler = { diagnostics.append("\($0)") }
            var resolver: Resolver<Int>?
            let promise = Promise<Int> { resolver = $0 }
            let caught = Recorder<VowError?>()
            promise.catch(on: nil) { caught.append($0 as? VowError) }
            XCTAssertNotNil(resolver)
            resolver = nil
            XCTAssertEqual(caught.elements, [.abandoned])
            XCTAssertEqual(promise.error as? VowError, .abandoned)
            XCTAssertEqual(events.elements, [], "the promise lives on: nothing was deallocated")
            XCTAssertEqual(diagnostics.count, 1)
            XCTAssertTrue(diagnostics.elements.first?.contains("resolver of a pending promise") ?? false)
            XCTAssertTrue(diagnostics.elements.first?.contains("rejected with VowError.abandoned") ?? false)
            #if DEBUG
            XCTAssertTrue(diagnostics.elements.first?.contains("created at VowTests/DiagnosticsTests.swift:") ?? false,
                          "debug builds name the creation site: \(diagnostics.elements)")
            #endif
        }
    }

    func testAResolverDroppedBeforeAnythingWaitsLeavesThePromisePendingUntilSomethingWaits() throws {
        try withConfiguration {
            let events = Recorder<String>()
            let diagnostics = Recorder<String>()
            conf.logHandler = { events.append("\($0)") }
            conf.diagnosticHandler = { diagnostics.append("\($0)") }
            let promise = Promise<Int> { _ in }
            XCTAssertTrue(promise.isPending, "as in PromiseKit, reading a promise does not settle it")
            XCTAssertNil(promise.result)
            XCTAssertEqual(diagnostics.count, 0)
            XCTAssertThrowsError(try promise.wait()) { XCTAssertEqual($0 as? VowError, .abandoned) }
            XCTAssertEqual(diagnostics.count, 1, "abandoned when something first waited")
            XCTAssertEqual(events.elements.filter { $0 != "waitOnMainThread" }, [])
        }
    }

    func testAbandonmentReleasesEveryChainWaitingOnThePromise() {
        withConfiguration {
            conf.diagnosticHandler = { _ in }
            conf.logHandler = { _ in }
            let caught = Recorder<VowError?>()
            var pending: (promise: Promise<Int>, resolver: Resolver<Int>)? = Promise<Int>.pending()
            let chain = pending!.promise.map(on: nil) { $0 + 1 }
            chain.catch(on: nil) { caught.append($0 as? VowError) }
            pending = nil
            XCTAssertEqual(caught.elements, [.abandoned])
        }
    }

    func testASettledResolverDroppedLaterReportsNothing() {
        withConfiguration {
            let reports = Counter()
            conf.diagnosticHandler = { _ in reports.increment() }
            conf.logHandler = { _ in reports.increment() }
            let promise = Promise<Int> { $0.fulfill(1) }
            XCTAssertEqual(promise.valueIfFulfilled, 1)
            XCTAssertEqual(reports.value, 0)
        }
    }

    func testAnUnobservedRejectedPromiseIsReportedOnceWhenDeallocated() {
        withConfiguration {
            let rejections = Recorder<String>()
            conf.unhandledRejectionHandler = { rejections.append("\($0.error)") }
            do {
                let (promise, resolver) = Promise<Int>.pending()
                resolver.reject(TestError(code: 1))
                _ = promise
            }
            XCTAssertEqual(rejections.elements, ["TestError(code: 1)"])
        }
    }

    func testAForgottenCatchAtTheEndOfAChainIsReportedWithItsSite() {
        withConfiguration {
            let rejections = Recorder<UnhandledRejection>()
            conf.unhandledRejectionHandler = { rejections.append($0) }
            do {
                let (root, resolver) = Promise<Int>.pending()
                _ = root.map(on: nil) { $0 + 1 }
                resolver.reject(TestError(code: 2))
            }
            XCTAssertEqual(rejections.count, 1)
            XCTAssertEqual(rejections.elements.first?.error as? TestError, TestError(code: 2))
            #if DEBUG
            XCTAssertTrue("\(rejections.elements[0])".contains("created at VowTests/DiagnosticsTests.swift:"),
                          "the link names where its chain began: \(rejections.elements[0])")
            #endif
        }
    }

    func testHandledRejectionsAndCancellationsAreNotReported() {
        withConfiguration {
            let rejections = Counter()
            conf.unhandledRejectionHandler = { _ in rejections.increment() }
            do {
                Promise<Int>(error: TestError()).catch(on: nil) { _ in }
                _ = Promise<Int>(error: TestError()).recover(on: nil) { _ in Guarantee.value(1) }
                _ = Promise<Int>(error: TestError()).error
                _ = Promise<Int>(error: PMKError.cancelled)
                _ = Promise<Int>(error: CancellationError())
                _ = Promise.value(1)
            }
            XCTAssertEqual(rejections.value, 0)
        }
    }

    func testResolvingTwiceReportsTheIgnoredCallWithTheCreationSite() {
        withConfiguration {
            let diagnostics = Recorder<Diagnostic>()
            conf.diagnosticHandler = { diagnostics.append($0) }
            let (promise, resolver) = Promise<Int>.pending()
            resolver.fulfill(1)
            resolver.fulfill(2)
            XCTAssertEqual(promise.valueIfFulfilled, 1)
            XCTAssertEqual(diagnostics.count, 1)
            guard case .resolvedTwice(let site)? = diagnostics.elements.first else {
                return XCTFail("expected resolvedTwice")
            }
            #if DEBUG
            XCTAssertEqual(site?.file, "VowTests/DiagnosticsTests.swift")
            #else
            XCTAssertNil(site)
            #endif
        }
    }

    func testWaitOnTheMainThreadIsLoggedFirstEvenWhenAlreadySettled() throws {
        try withConfiguration {
            let events = Recorder<String>()
            conf.logHandler = { events.append("\($0)") }
            XCTAssertTrue(Thread.isMainThread)
            let settled = Promise.value(2)
            XCTAssertEqual(try settled.wait(), 2)
            XCTAssertEqual(events.elements, ["waitOnMainThread"])
            let guarantee: Guarantee<Int> = DispatchQueue.global().async(.promise) { 1 }
            XCTAssertEqual(guarantee.wait(), 1)
            XCTAssertEqual(events.elements, ["waitOnMainThread", "waitOnMainThread"])
            let blocking = Promise<Int> { seal in DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { seal.fulfill(3) } }
            XCTAssertEqual(try blocking.wait(), 3)
            XCTAssertEqual(events.count, 3)
        }
    }
}
