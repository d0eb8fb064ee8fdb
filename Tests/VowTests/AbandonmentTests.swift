import Dispatch
import Foundation
import XCTest
@testable import Vow

/// A promise whose resolver is dropped: rejected as abandoned when something waits on it, pending
/// (as in PromiseKit) while nothing does, and never a waiter left hanging, however the two race.
final class AbandonmentTests: XCTestCase {

    func testEveryWayOfWaitingOnAnOrphanGetsAbandonedAtOnce() async {
        await withConfigurationAsync {
            conf.diagnosticHandler = { _ in }
            conf.logHandler = { _ in }
            let orphan = Promise<Int>.pending().promise
            XCTAssertTrue(orphan.isPending)

            let caught = Recorder<String>()
            orphan.catch(on: nil) { caught.append("catch \($0)") }
            XCTAssertEqual(caught.elements, ["catch \(VowError.abandoned)"])
            XCTAssertEqual(when(fulfilled: [Promise<Int>.pending().promise]).error as? VowError, .abandoned)
            XCTAssertEqual(Promise<Int>.pending().promise.map(on: nil) { $0 }.error as? VowError, .abandoned)
            do {
                _ = try await Promise<Int>.pending().promise.value
                XCTFail("expected VowError.abandoned")
            } catch {
                XCTAssertEqual(error as? VowError, .abandoned)
            }
        }
    }

    func testTheDiagnosticIsSentOnceWhenTheOrphanIsFirstWaitedOn() {
        withConfiguration {
            let diagnostics = Recorder<Diagnostic>()
            conf.diagnosticHandler = { diagnostics.append($0) }
            conf.logHandler = { _ in }
            let orphan = Promise<Int>.pending().promise
            XCTAssertEqual(diagnostics.count, 0)
            orphan.catch(on: nil) { _ in }
            orphan.catch(on: nil) { _ in }
            XCTAssertEqual(diagnostics.count, 1)
            guard case .abandoned? = diagnostics.elements.first else { return XCTFail("\(diagnostics.elements)") }
        }
    }

    func testAnOrphanThatWasWaitedOnIsNotLoggedAsAPendingPromiseWhenItGoes() {
        withConfiguration {
            let events = Recorder<String>()
            conf.logHandler = { events.append("\($0)") }
            conf.diagnosticHandler = { _ in }
            do {
                let orphan = Promise<Int>.pending().promise
                orphan.catch(on: nil) { _ in }
            }
            XCTAssertEqual(events.elements, [])
        }
    }

    func testDroppingTheResolverWhileAnotherThreadAttachesAHandlerNeverLeavesItWaiting() {
        withConfiguration {
            conf.diagnosticHandler = { _ in }
            conf.logHandler = { _ in }
            let trials = 2_000
            let ran = Counter()
            for trial in 1...trials {
                let (promise, holder) = ResolverHolder.pending()
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    if index == 0 {
                        holder.drop()
                    } else {
                        promise.catch(on: nil) { _ in ran.increment() }
                    }
                }
                XCTAssertEqual(ran.value, trial, "the handler ran, whichever side came first")
            }
        }
    }

    // MARK: Promise(ifAbandoned: .stayPending), for callbacks that answer nothing on some path

    func testAPromiseThatStaysPendingRunsNoHandlerAndReportsNothingWhenItsResolverGoes() {
        withConfiguration {
            let reports = Recorder<String>()
            conf.diagnosticHandler = { reports.append("diagnostic \($0)") }
            conf.logHandler = { reports.append("log \($0)") }
            conf.unhandledRejectionHandler = { reports.append("unhandled \($0.error)") }
            let ran = Recorder<String>()
            weak var released: Tracked?
            do {
                var drop: Resolver<Int>?
                let promise = Promise<Int>(ifAbandoned: .stayPending) { seal in drop = seal }
                let tracked = Tracked()
                released = tracked
                promise.map(on: nil) { value -> Int in _ = tracked; ran.append("map"); return value }
                    .ensure(on: nil) { ran.append("ensure") }
                    .catch(on: nil) { ran.append("catch \($0)") }
                drop = nil
                XCTAssertNil(drop)
                XCTAssertTrue(promise.isPending, "nothing settles it")
                promise.catch(on: nil) { ran.append("late catch \($0)") }
                XCTAssertTrue(promise.isPending)
            }
            XCTAssertNil(released, "the chain's handlers are released with the promise")
            XCTAssertEqual(ran.elements, [])
            XCTAssertEqual(reports.elements, [])
        }
    }

    func testAPromiseThatStaysPendingSettlesAsAnyOtherWhileItsResolverLives() {
        withConfiguration {
            let fulfilled = Promise<Int>(ifAbandoned: .stayPending) { $0.fulfill(7) }
            XCTAssertEqual(fulfilled.valueIfFulfilled, 7)
            let thrown = Promise<Int>(ifAbandoned: .stayPending) { _ in throw TestError(code: 9) }
            XCTAssertEqual(thrown.error as? TestError, TestError(code: 9))
            let (gate, open) = Guarantee<Void>.pending()
            let later = Promise<String>(ifAbandoned: .stayPending) { seal in
                gate.done(on: nil) { seal.fulfill("later") }
            }
            XCTAssertTrue(later.isPending)
            open(())
            XCTAssertEqual(later.valueIfFulfilled, "later")
        }
    }

    func testACancellablePromiseThatStaysPendingIsStillCancelledByItsToken() {
        withConfiguration {
            let reports = Recorder<String>()
            conf.diagnosticHandler = { reports.append("diagnostic \($0)") }
            conf.logHandler = { reports.append("log \($0)") }
            let source = CancellationTokenSource()
            let caught = Recorder<String>()
            var drop: Resolver<Int>?
            let cancelled = Promise<Int>(cancellation: source.token, ifAbandoned: .stayPending) { seal in drop = seal }
            cancelled.catch(on: nil, policy: .allErrors) { caught.append("\($0)") }
            drop = nil
            XCTAssertNil(drop)
            XCTAssertTrue(cancelled.isPending, "a dropped resolver leaves it pending")
            source.cancel()
            XCTAssertEqual(caught.elements, ["\(VowError.cancelled)"])
            XCTAssertEqual(reports.elements, [])
        }
    }

    func testReportIsTheDefaultAbandonment() {
        withConfiguration {
            let diagnostics = Recorder<String>()
            conf.diagnosticHandler = { diagnostics.append("\($0)") }
            conf.logHandler = { _ in }
            let caught = Recorder<String>()
            Promise<Int>(ifAbandoned: .report) { _ in }.catch(on: nil) { caught.append("\($0)") }
            XCTAssertEqual(caught.elements, ["\(VowError.abandoned)"])
            XCTAssertEqual(diagnostics.count, 1)
        }
    }

    func testAGuaranteeThatStaysPendingIsNotLoggedWhenItsResolverGoes() {
        withConfiguration {
            let events = Recorder<String>()
            conf.logHandler = { events.append("\($0)") }
            let ran = Recorder<Int>()
            do {
                var drop: (@Sendable (Int) -> Void)?
                let silent = Guarantee<Int>(ifAbandoned: .stayPending) { drop = $0 }
                silent.done(on: nil) { ran.append($0) }
                drop = nil
                XCTAssertNil(drop)
                XCTAssertTrue(silent.isPending)
            }
            XCTAssertEqual(events.elements, [])
            _ = Guarantee<Int>(ifAbandoned: .report) { _ in }
            XCTAssertEqual(events.elements, ["\(LogEvent.pendingGuaranteeDeallocated)"])
            XCTAssertEqual(Guarantee<Int>(ifAbandoned: .stayPending) { $0(3) }.valueIfFulfilled, 3)
            XCTAssertEqual(ran.elements, [])
        }
    }
}

/// Something whose release a test can see through a `weak` reference.
private final class Tracked: Sendable {}

/// Holds a resolver until one thread drops it.
private final class ResolverHolder: @unchecked Sendable {
    // @unchecked: only `drop()` touches it, from one thread.
    private var resolver: Resolver<Int>?

    private init(_ resolver: Resolver<Int>) {
        self.resolver = resolver
    }

    /// A pending promise whose only resolver reference is in the holder.
    static func pending() -> (Promise<Int>, ResolverHolder) {
        let (promise, resolver) = Promise<Int>.pending()
        return (promise, ResolverHolder(resolver))
    }

    func drop() {
        resolver = nil
    }
}

/// `withConfiguration` for async tests.
private func withConfigurationAsync(_ body: () async throws -> Void) async rethrows {
    let saved = (conf.logHandler, conf.diagnosticHandler, conf.unhandledRejectionHandler)
    defer { (conf.logHandler, conf.diagnosticHandler, conf.unhandledRejectionHandler) = saved }
    try await body()
}
