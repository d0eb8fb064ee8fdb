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
}

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
