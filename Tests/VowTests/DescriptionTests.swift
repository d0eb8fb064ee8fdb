import XCTest
@testable import Vow

/// `description` and `debugDescription` print PromiseKit's strings.
final class DescriptionTests: XCTestCase {
    private enum Error: Swift.Error { case dummy }

    override func setUp() {
        super.setUp()
        savedHandlers = (conf.logHandler, conf.diagnosticHandler, conf.unhandledRejectionHandler)
        // The rejected promises below are never handled on purpose.
        conf.logHandler = { _ in }
        conf.diagnosticHandler = { _ in }
        conf.unhandledRejectionHandler = { _ in }
    }

    override func tearDown() {
        if let savedHandlers {
            conf.logHandler = savedHandlers.log
            conf.diagnosticHandler = savedHandlers.diagnostic
            conf.unhandledRejectionHandler = savedHandlers.unhandled
        }
        super.tearDown()
    }

    private var savedHandlers: (
        log: @Sendable (LogEvent) -> Void,
        diagnostic: @Sendable (Diagnostic) -> Void,
        unhandled: @Sendable (UnhandledRejection) -> Void
    )?

    func testPromiseKitsOwnDescriptionExamplesPrintTheSame() {
        XCTAssertEqual(Promise<Int>.pending().promise.debugDescription, "Promise<Int>.pending(handlers: 0)")
        XCTAssertEqual(Promise().debugDescription, "Promise<()>.fulfilled(())")
        XCTAssertEqual(Promise<String>(error: Error.dummy).debugDescription, "Promise<String>.rejected(Error.dummy)")

        XCTAssertEqual("\(Promise<Int>.pending().promise)", "Promise(…Int)")
        XCTAssertEqual("\(Promise.value(3))", "Promise(3)")
        XCTAssertEqual("\(Promise<Void>(error: Error.dummy))", "Promise(dummy)")
    }

    func testDebugDescriptionCountsTheHandlersWaitingOnAPendingPromise() {
        let (promise, resolver) = Promise<Int>.pending()
        XCTAssertEqual(promise.debugDescription, "Promise<Int>.pending(handlers: 0)")
        promise.done(on: nil) { _ in }.cauterize()
        XCTAssertEqual(promise.debugDescription, "Promise<Int>.pending(handlers: 1)")
        _ = promise.map(on: nil) { $0 + 1 }
        _ = promise.map(on: nil) { $0 + 2 }
        XCTAssertEqual(promise.debugDescription, "Promise<Int>.pending(handlers: 3)")
        XCTAssertEqual(promise.description, "Promise(…Int)")
        resolver.fulfill(7)
        XCTAssertEqual(promise.debugDescription, "Promise<Int>.fulfilled(7)")
        XCTAssertEqual(promise.description, "Promise(7)")
    }

    func testARejectionPrintsTheErrorsTypeThenTheError() {
        let promise = Promise<[String]>(error: PMKError.badInput)
        XCTAssertEqual(promise.debugDescription,
                       "Promise<Array<String>>.rejected(PMKError.Bad input was provided to a PromiseKit function)")
        XCTAssertEqual(promise.description, "Promise(Bad input was provided to a PromiseKit function)")
        let typed = Promise<Int>(error: TestError(code: 4))
        XCTAssertEqual(typed.debugDescription, "Promise<Int>.rejected(TestError.TestError(code: 4))")
    }

    func testPrintingARejectedPromiseDoesNotCountAsHandlingIt() {
        withConfiguration {
            let rejections = Counter()
            conf.unhandledRejectionHandler = { _ in rejections.increment() }
            do {
                let promise = Promise<Int>(error: TestError(code: 5))
                _ = promise.description
                _ = promise.debugDescription
            }
            XCTAssertEqual(rejections.value, 1)
        }
    }

    func testGuaranteesPrintInTheSamePattern() {
        let (guarantee, resolve) = Guarantee<Int>.pending()
        XCTAssertEqual(guarantee.description, "Guarantee(…Int)")
        XCTAssertEqual(guarantee.debugDescription, "Guarantee<Int>.pending(handlers: 0)")
        guarantee.done(on: nil) { _ in }
        XCTAssertEqual(guarantee.debugDescription, "Guarantee<Int>.pending(handlers: 1)")
        resolve(9)
        XCTAssertEqual(guarantee.description, "Guarantee(9)")
        XCTAssertEqual(guarantee.debugDescription, "Guarantee<Int>.fulfilled(9)")
        XCTAssertEqual(Guarantee().debugDescription, "Guarantee<()>.fulfilled(())")
    }

    func testResultPrintsItsCaseAndPayloadAsPromiseKitsDoes() {
        XCTAssertEqual("\(Vow.Result<Int>.fulfilled(3))", "fulfilled(3)")
        XCTAssertTrue("\(Vow.Result<Int>.rejected(Error.dummy))".hasSuffix(".Error.dummy)"))
    }
}
