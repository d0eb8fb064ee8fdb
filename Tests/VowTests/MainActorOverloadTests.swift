import Dispatch
import Foundation
import XCTest
import Vow

/// UI state that only the main actor may touch.
@MainActor
private final class Screen {
    var lines: [String] = []

    func load(_ source: Promise<Int>) -> PMKFinalizer {
        source
            .map(on: .mainActor) { value in self.lines.append("map \(value)"); return value + 1 }
            .get(on: .mainActor) { value in self.lines.append("get \(value)") }
            .then(on: .mainActor) { value in self.lines.append("then \(value)"); return Promise.value(value) }
            .ensure { @MainActor in self.lines.append("ensure") }
            .done { @MainActor value in self.lines.append("done \(value)") }
            .catch { @MainActor error in self.lines.append("catch \(error)") }
    }
}

final class MainActorOverloadTests: XCTestCase {

    @MainActor
    func testMainActorHandlersRunOnTheMainActorInOrder() async {
        let screen = Screen()
        let finished = expectation(description: "finally")
        screen.load(Promise.value(1)).finally { @MainActor in
            screen.lines.append("finally")
            finished.fulfill()
        }
        await fulfillment(of: [finished], timeout: 10)
        XCTAssertEqual(screen.lines, ["map 1", "get 2", "then 2", "ensure", "done 2", "finally"])
    }

    @MainActor
    func testARejectionReachesTheMainActorCatch() async {
        let screen = Screen()
        let finished = expectation(description: "finally")
        screen.load(Promise(error: TestError(code: 4))).finally(on: .mainActor) { finished.fulfill() }
        await fulfillment(of: [finished], timeout: 10)
        XCTAssertEqual(screen.lines, ["ensure", "catch TestError(code: 4)"])
    }

    func testOnMainAndTheDefaultKeepPromiseKitsSendableHandlers() {
        // `.main` is DispatchQueue.main: an ordinary @Sendable handler, callable from anywhere.
        let finished = expectation(description: "done")
        Promise.value(1).map(on: .main) { $0 + 1 }.done(on: .main) { value in
            XCTAssertEqual(value, 2)
            finished.fulfill()
        }.cauterize()
        wait(for: [finished], timeout: 10)
    }

    func testLongChainsOfLiteralClosuresStillTypeCheck() {
        // A guard on the overload set: each overload viable at every link multiplies the type
        // checker's work. These chains must keep compiling in well under a second.
        let numbers = Promise.value(3).map(on: nil) { $0 * 10 }.map(on: nil) { $0 + 1 }.map(on: nil) { $0 - 1 }
            .map(on: nil) { $0 * 2 }.map(on: nil) { $0 / 3 }.map(on: nil) { "\($0)" }
        XCTAssertEqual(numbers.valueIfFulfilled, "20")
        let mixed = Promise.value(3).then(on: nil) { Promise.value($0 * 2) }.get(on: nil) { _ in }.map(on: nil) { $0 + 1 }
            .recover(on: nil) { _ in Promise.value(-1) }.ensure(on: nil) {}.map(on: nil) { "\($0)" }
        XCTAssertEqual(mixed.valueIfFulfilled, "7")
    }
}
