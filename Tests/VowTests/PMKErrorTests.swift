import Foundation
import XCTest
@testable import Vow

/// `PMKError` is a `LocalizedError` whose sentences are PromiseKit's, word for word.
final class PMKErrorTests: XCTestCase {

    func testEveryCaseDescribesItselfInPromiseKitsWords() {
        let expected: [(PMKError, String)] = [
            (.invalidCallingConvention, "A closure was called with an invalid calling convention, probably (nil, nil)"),
            (.returnedSelf, "A promise handler returned itself"),
            (.badInput, "Bad input was provided to a PromiseKit function"),
            (.cancelled, "The asynchronous sequence was cancelled"),
            (.compactMap(42, String.self), "Could not `compactMap<String>`: 42"),
            (.emptySequence, "The first or last element was requested for an empty sequence"),
            (.noWinner, "All thenables passed to race(fulfilled:) were rejected"),
        ]
        for (error, sentence) in expected {
            XCTAssertEqual(error.debugDescription, sentence)
            XCTAssertEqual(error.errorDescription, sentence)
            XCTAssertEqual(error.localizedDescription, sentence)
            XCTAssertEqual("\(error)", sentence)
        }
    }

    // Deprecated like the case it builds, so that naming the case does not warn.
    @available(*, deprecated)
    func testTheDeprecatedFlatMapCaseDescribesItselfInPromiseKitsWords() {
        XCTAssertEqual(PMKError.flatMap(42, String.self).debugDescription, "Could not `flatMap<String>`: 42")
        XCTAssertEqual(PMKError.flatMap("x", Int.self).localizedDescription, "Could not `flatMap<Int>`: x")
    }

    func testTheSentenceReachesCodeThatOnlyKnowsLocalizedError() {
        let error: any Error = PMKError.returnedSelf
        XCTAssertEqual((error as? LocalizedError)?.errorDescription, "A promise handler returned itself")
        XCTAssertEqual(error.localizedDescription, "A promise handler returned itself")
        XCTAssertEqual((error as NSError).localizedDescription, "A promise handler returned itself")
    }

    func testTheEngineRejectsWithTheseErrors() {
        XCTAssertEqual(race(fulfilled: [Promise<Int>]()).error?.localizedDescription,
                       "Bad input was provided to a PromiseKit function")
        XCTAssertEqual(race(fulfilled: [Promise<Int>(error: TestError())]).error?.localizedDescription,
                       "All thenables passed to race(fulfilled:) were rejected")
        let neither = Promise<Int> { $0.resolve(Int?.none, nil) }
        XCTAssertEqual(neither.error?.localizedDescription,
                       "A closure was called with an invalid calling convention, probably (nil, nil)")
    }
}
