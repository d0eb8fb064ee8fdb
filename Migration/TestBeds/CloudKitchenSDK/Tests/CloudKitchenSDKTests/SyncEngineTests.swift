import CloudKitchenSDK
import Foundation
import XCTest

/// The sync engine: pushes local edits, pulls server changes, asks about conflicts.
final class SyncEngineTests: SDKTestCase {
    private final class Resolver: SyncEngineDelegate {
        let resolution: ConflictResolution
        var passes: [(Int, Int)] = []
        var conflicts: [String] = []

        init(_ resolution: ConflictResolution) {
            self.resolution = resolution
        }

        func syncEngine(_ engine: SyncEngine, didFinishPass pushed: Int, pulled: Int) {
            passes.append((pushed, pulled))
        }

        func syncEngine(_ engine: SyncEngine, resolveConflictFor order: Order, completionHandler: @escaping (ConflictResolution) -> Void) {
            conflicts.append(order.id)
            completionHandler(resolution)
        }
    }

    private func localOrder(_ id: String, edited: Bool) -> Order {
        let order = Order(id: id, kitchenID: "k1", lines: [OrderLine(itemID: "m2", quantity: 3)], status: .received, totalCents: 2850)
        order.hasLocalChanges = edited
        return order
    }

    func testPushingSendsOnlyEditedOrders() {
        transport.stub(.patch, "orders/o1", .json(200, "{}"))
        let edited = localOrder("o1", edited: true)
        let result: Result<Int, SDKError>? = waitFor { done in
            sdk.sync.push([edited, localOrder("o2", edited: false)], completion: done)
        }
        XCTAssertEqual(try result?.get(), 1)
        XCTAssertFalse(edited.hasLocalChanges)
        XCTAssertEqual(transport.count(of: "orders/o2"), 0)
    }

    func testAFailedPushKeepsTheEditForNextTime() {
        transport.stub(.patch, "orders/o1", .json(409, #"{"error":"order o1"}"#))
        let edited = localOrder("o1", edited: true)
        let result: Result<Int, SDKError>? = waitFor { done in sdk.sync.push([edited]) { done($0) } }
        guard case .failure(let error)? = result else { return XCTFail("pushed") }
        XCTAssertEqual(error, .conflict("order o1"))
        XCTAssertTrue(edited.hasLocalChanges)
    }

    func testPullingMergesTheServersOrders() {
        transport.stub(.get, "orders/changes", .json(200, "[\(Samples.order("o1", status: "ready")),\(Samples.order("o5"))]"))
        let result: Result<[Order], SDKError>? = waitFor { done in sdk.sync.pull(completion: done) }
        XCTAssertEqual(try result?.get().count, 2)
        XCTAssertEqual(sdk.sync.orders["o1"]?.status, .ready)
        XCTAssertEqual(Set(sdk.sync.orders.keys), ["o1", "o5"])
    }

    func testTheSecondPullAsksOnlyForNewerChanges() {
        transport.stub(.get, "orders/changes", .json(200, "[]"))
        _ = waitFor { (done: @escaping (Result<[Order], SDKError>) -> Void) in sdk.sync.pull(completion: done) }
        XCTAssertNil(transport.requests.last?.query["since"])
        _ = waitFor { (done: @escaping (Result<[Order], SDKError>) -> Void) in sdk.sync.pull(completion: done) }
        XCTAssertNotNil(transport.requests.last?.query["since"])
    }

    func testAPassPushesThenPullsAndTellsTheDelegate() {
        transport.stub(.patch, "orders/o1", .json(200, "{}"))
        transport.stub(.get, "orders/changes", .json(200, "[\(Samples.order("o7"))]"))
        let resolver = Resolver(.keepLocal)
        sdk.sync.delegate = resolver
        sdk.sync.track([localOrder("o1", edited: true)])
        let error: Error?? = waitFor { done in sdk.sync.sync(completion: done) }
        XCTAssertNil(error ?? nil)
        XCTAssertEqual(transport.requests.suffix(2).map(\.path), ["orders/o1", "orders/changes"])
        XCTAssertEqual(resolver.passes.count, 1)
        XCTAssertEqual(resolver.passes.first?.0, 1)
        XCTAssertEqual(resolver.passes.first?.1, 1)
    }

    func testAConflictKeepsTheLocalEditWhenTheDelegateSaysSo() {
        transport.stub(.patch, "orders/o1", .json(503, "{}"))
        transport.stub(.get, "orders/changes", .json(200, "[\(Samples.order("o1", status: "preparing"))]"))
        let resolver = Resolver(.keepLocal)
        sdk.sync.delegate = resolver
        sdk.sync.track([localOrder("o1", edited: true)])
        _ = waitFor { (done: @escaping (Result<[Order], SDKError>) -> Void) in sdk.sync.pull(completion: done) }
        XCTAssertEqual(resolver.conflicts, ["o1"])
        XCTAssertEqual(sdk.sync.orders["o1"]?.status, .received)
    }

    func testAConflictTakesTheServersOrderWhenTheDelegateSaysSo() {
        transport.stub(.get, "orders/changes", .json(200, "[\(Samples.order("o1", status: "preparing"))]"))
        let resolver = Resolver(.keepServer)
        sdk.sync.delegate = resolver
        sdk.sync.track([localOrder("o1", edited: true)])
        _ = waitFor { (done: @escaping (Result<[Order], SDKError>) -> Void) in sdk.sync.pull { done($0) } }
        XCTAssertEqual(sdk.sync.orders["o1"]?.status, .preparing)
    }

    func testASyncWithoutAHandlerStillRuns() {
        transport.stub(.get, "orders/changes", .json(200, "[\(Samples.order("o8"))]"))
        sdk.sync.sync()
        waitUntil { self.sdk.sync.orders["o8"] != nil }
        sdk.sync.waitUntilIdle()
        XCTAssertEqual(sdk.sync.orders["o8"]?.id, "o8")
    }

    func testASignedOutEnginePassFailsAsNotAuthenticated() {
        let session = AuthSession(transport: transport, store: InMemoryTokenStore())
        let client = APIClient(transport: transport, session: session, cache: ResponseCache(lifetime: 1), configuration: makeConfiguration())
        let engine = SyncEngine(client: client)
        let error: Error?? = waitFor { done in engine.sync { done($0) } }
        XCTAssertEqual((error ?? nil) as? SDKError, .notAuthenticated)
    }
}
