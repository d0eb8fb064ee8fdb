import Foundation
import XCTest
@testable import Vow

/// Foundation's cancellation errors count as cancellations on every platform, recognised by domain
/// and code as Foundation reports them (on Linux `CocoaError` does not report its domain the Apple
/// way), and the `catch` policy follows.
final class FoundationCancellationTests: XCTestCase {

    func testFoundationsCancellationsAreCancelledWhateverTheirSpelling() {
        let cancellations: [(String, any Error)] = [
            ("CocoaError(.userCancelled)", CocoaError(.userCancelled)),
            ("URLError(.cancelled)", URLError(.cancelled)),
            ("NSError NSURLErrorCancelled", NSError(domain: NSURLErrorDomain, code: NSURLErrorCancelled)),
            ("NSError NSUserCancelledError", NSError(domain: NSCocoaErrorDomain, code: NSUserCancelledError)),
            ("CocoaError(_nsError:)", CocoaError(_nsError: NSError(domain: NSCocoaErrorDomain, code: CocoaError.Code.userCancelled.rawValue))),
            ("URLError(_nsError:)", URLError(_nsError: NSError(domain: NSURLErrorDomain, code: URLError.Code.cancelled.rawValue))),
            ("CocoaError bridged to NSError", CocoaError(.userCancelled) as NSError),
            ("URLError bridged to NSError", URLError(.cancelled) as NSError),
        ]
        for (name, error) in cancellations {
            XCTAssertTrue(error.isCancelled, name)
        }
    }

    func testTheDomainsAndCodesAreTheOnesFoundationReportsHere() {
        let cocoa = CocoaError(.userCancelled) as NSError
        XCTAssertEqual(cocoa.domain, NSCocoaErrorDomain)
        XCTAssertEqual(cocoa.code, NSUserCancelledError)
        let url = URLError(.cancelled) as NSError
        XCTAssertEqual(url.domain, NSURLErrorDomain)
        XCTAssertEqual(url.code, NSURLErrorCancelled)
    }

    func testOtherFoundationErrorsAreNotCancellations() {
        let failures: [(String, any Error)] = [
            ("CocoaError(.coderInvalidValue)", CocoaError(.coderInvalidValue)),
            ("CocoaError(.fileNoSuchFile)", CocoaError(.fileNoSuchFile)),
            ("URLError(.timedOut)", URLError(.timedOut)),
            ("NSError in the URL domain", NSError(domain: NSURLErrorDomain, code: NSURLErrorTimedOut)),
            ("NSError with the cancel code in another domain", NSError(domain: "com.example", code: NSUserCancelledError)),
            ("NSError with the URL cancel code in the Cocoa domain", NSError(domain: NSCocoaErrorDomain, code: NSURLErrorCancelled)),
        ]
        for (name, error) in failures {
            XCTAssertFalse(error.isCancelled, name)
        }
    }

    func testSwiftsAndVowsOwnCancellationsStillCount() {
        XCTAssertTrue(CancellationError().isCancelled)
        XCTAssertTrue(VowError.cancelled.isCancelled)
        XCTAssertTrue(PMKError.cancelled.isCancelled)
        XCTAssertFalse(VowError.abandoned.isCancelled)
        XCTAssertFalse(PMKError.badInput.isCancelled)
    }

    func testCatchSkipsFoundationCancellationsByDefaultAndAllErrorsSeesThem() {
        for error: any Error in [CocoaError(.userCancelled), URLError(.cancelled)] {
            let promise = Promise<Int>(error: error)
            let byDefault = Counter()
            let withAllErrors = Recorder<Bool>()
            let finallyRan = Counter()
            promise.catch(on: nil) { _ in byDefault.increment() }.finally(on: nil) { finallyRan.increment() }
            promise.catch(on: nil, policy: .allErrors) { withAllErrors.append($0.isCancelled) }
            XCTAssertEqual(byDefault.value, 0, "\(error)")
            XCTAssertEqual(withAllErrors.elements, [true], "\(error)")
            XCTAssertEqual(finallyRan.value, 1, "\(error)")
        }
    }

    func testRecoverPassesAFoundationCancellationThroughByDefault() {
        let recovered = Promise<Int>(error: URLError(.cancelled)).recover(on: nil) { _ in Promise.value(1) }
        XCTAssertTrue(recovered.error?.isCancelled ?? false)
        let recoveredAnyway = Promise<Int>(error: URLError(.cancelled)).recover(on: nil, policy: .allErrors) { _ in Promise.value(1) }
        XCTAssertEqual(recoveredAnyway.valueIfFulfilled, 1)
    }

    func testACancelledChainIsNotReportedAsAnUnhandledRejection() {
        withConfiguration {
            let rejections = Counter()
            conf.unhandledRejectionHandler = { _ in rejections.increment() }
            do {
                _ = Promise<Int>(error: CocoaError(.userCancelled)).map(on: nil) { $0 + 1 }
                _ = Promise<Int>(error: URLError(.cancelled))
            }
            XCTAssertEqual(rejections.value, 0)
        }
    }
}
