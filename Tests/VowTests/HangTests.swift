import Dispatch
import Foundation
import XCTest
@testable import Vow

final class HangTests: XCTestCase {

    func testHangReturnsTheValueOfASettledPromiseAtOnce() throws {
        XCTAssertEqual(try hang(Promise.value(4)), 4)
    }

    func testHangThrowsTheErrorOfARejectedPromise() {
        XCTAssertThrowsError(try hang(Promise<Int>(error: TestError(code: 1)))) { error in
            XCTAssertEqual(error as? TestError, TestError(code: 1))
        }
    }

    func testHangWaitsForAPromiseSettledOnAnotherThread() throws {
        let promise = DispatchQueue.global().async(.promise) { () throws -> Int in
            usleep(10_000)
            return 5
        }
        XCTAssertEqual(try hang(promise), 5)
    }

    func testHangOnTheMainThreadDrainsTheMainQueueMeanwhile() throws {
        // XCTest runs tests on the main thread; `wait()` here would deadlock, `hang` does not.
        guard Thread.isMainThread else { throw XCTSkip("needs the main thread") }
        let promise = after(seconds: 0.01).then(on: .main) { () -> Promise<String> in
            XCTAssertTrue(Thread.isMainThread)
            return .value("ran on main")
        }
        XCTAssertEqual(try hang(promise), "ran on main")
    }

    func testHangThrowsAnErrorThatArrivesThroughTheMainQueue() {
        let promise = after(.milliseconds(5)).map(on: .main) { () throws -> Int in throw TestError(code: 2) }
        XCTAssertThrowsError(try hang(promise)) { error in
            XCTAssertEqual(error as? TestError, TestError(code: 2))
        }
    }

    func testHangOnABackgroundThreadRunsThatThreadsRunLoop() {
        let finished = DispatchSemaphore(value: 0)
        let outcome = Recorder<String>()
        let thread = Thread {
            // A timer on this thread's run loop settles the promise: only running the loop fires it.
            let (promise, resolver) = Promise<String>.pending()
            let timer = Timer(timeInterval: 0.01, repeats: false) { _ in resolver.fulfill("timer fired") }
            RunLoop.current.add(timer, forMode: .default)
            do {
                outcome.append(try hang(promise))
            } catch {
                outcome.append("error \(error)")
            }
            finished.signal()
        }
        thread.start()
        XCTAssertEqual(finished.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(outcome.elements, ["timer fired"])
    }
}
