import XCTest

@testable import Vow

/// The box's handler storage (DESIGN.md section 2): registration order, and removable handlers.
final class BoxTests: XCTestCase {
    func testRemovingAHandlerKeepsTheOthersInRegistrationOrder() {
        let (promise, resolver) = Promise<Int>.pending()
        let order = OrderLog()
        promise.box.observe { _ in order.append("first") }
        let second = promise.box.observeRemovably { _ in order.append("second") }
        promise.box.observe { _ in order.append("third") }
        let fourth = promise.box.observeRemovably { _ in order.append("fourth") }

        promise.box.removeHandler(try! XCTUnwrap(second))
        XCTAssertEqual(promise.box.handlerCount, 3)
        resolver.fulfill(1)

        XCTAssertEqual(order.entries, ["first", "third", "fourth"])
        XCTAssertNotNil(fourth)
    }

    func testRemovingTheOnlyHandlerEmptiesTheBoxAndNumberingStartsAgain() {
        let (promise, resolver) = Promise<Int>.pending()
        let order = OrderLog()
        let only = promise.box.observeRemovably { _ in order.append("removed") }
        promise.box.removeHandler(only!)
        XCTAssertEqual(promise.box.storedHandlerSlots, 0)

        let next = promise.box.observeRemovably { _ in order.append("kept") }
        XCTAssertEqual(next, only)
        resolver.fulfill(1)

        XCTAssertEqual(order.entries, ["kept"])
    }

    func testRemovingAfterTheBoxSealedDoesNothing() {
        let (promise, resolver) = Promise<Int>.pending()
        let order = OrderLog()
        let key = promise.box.observeRemovably { result in order.append("ran \((try? result.get()) ?? -1)") }
        resolver.fulfill(4)

        promise.box.removeHandler(key!)

        XCTAssertEqual(order.entries, ["ran 4"])
        XCTAssertNil(promise.box.observeRemovably { _ in order.append("at once") })
        XCTAssertEqual(order.entries, ["ran 4", "at once"])
    }

    func testRemovingAKeyTwiceOrAnUnknownKeyChangesNothing() {
        let (promise, resolver) = Promise<Int>.pending()
        let order = OrderLog()
        let first = promise.box.observeRemovably { _ in order.append("first") }!
        let second = promise.box.observeRemovably { _ in order.append("second") }!
        _ = promise.box.observeRemovably { _ in order.append("third") }

        promise.box.removeHandler(second)
        promise.box.removeHandler(second)
        promise.box.removeHandler(999)
        XCTAssertEqual(promise.box.handlerCount, 2)
        resolver.fulfill(0)

        XCTAssertEqual(order.entries, ["first", "third"])
        XCTAssertEqual(first, 0)
    }

    func testHolesAreReclaimedSoSlotsStayWithinTwiceTheLiveHandlers() {
        let (promise, resolver) = Promise<Int>.pending()
        let ran = OrderLog()
        var keys: [UInt32] = []
        for index in 0..<10_000 {
            keys.append(promise.box.observeRemovably { _ in ran.append("\(index)") }!)
        }
        // Remove all but every hundredth, front to back (the holes are not at the end).
        for (index, key) in keys.enumerated() where index % 100 != 0 {
            promise.box.removeHandler(key)
        }

        XCTAssertEqual(promise.box.handlerCount, 100)
        XCTAssertLessThanOrEqual(promise.box.storedHandlerSlots, 2 * 100 + 16)
        resolver.fulfill(0)
        XCTAssertEqual(ran.entries, stride(from: 0, to: 10_000, by: 100).map { "\($0)" })
    }
}

/// A thread-safe list of strings, for recording the order handlers run in.
private final class OrderLog: Sendable {
    private let storage = LockedState<[String]>([])

    func append(_ entry: String) {
        storage.withLock { $0.append(entry) }
    }

    var entries: [String] {
        storage.withLock { $0 }
    }
}
