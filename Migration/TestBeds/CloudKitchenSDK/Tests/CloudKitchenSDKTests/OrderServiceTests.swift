import CloudKitchenSDK
import Foundation
import XCTest

/// Placing, cancelling, following and rating orders.
final class OrderServiceTests: SDKTestCase {
    private let draft = OrderDraft(kitchenID: "k1", lines: [OrderLine(itemID: "m2", quantity: 2)], tipCents: 150)

    func testPlacingAnOrderReturnsTheServersOrder() {
        transport.stub(.post, "orders", .json(201, Samples.order("o1")))
        let result: Result<Order, SDKError>? = waitFor { done in sdk.orders.placeOrder(draft, completion: done) }
        let order = try? result?.get()
        XCTAssertEqual(order?.id, "o1")
        XCTAssertEqual(order?.status, .received)
        XCTAssertEqual(order?.totalCents, 2400)
        XCTAssertEqual(transport.requests.last?.headers["Authorization"], "Bearer access-1")
    }

    func testTheDraftIsSentAsSnakeCaseJSON() throws {
        transport.stub(.post, "orders", .json(201, Samples.order("o1")))
        _ = waitFor { (done: @escaping (Result<Order, SDKError>) -> Void) in sdk.orders.placeOrder(draft) { done($0) } }
        let body = try XCTUnwrap(transport.requests.last?.body)
        let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        XCTAssertEqual(object?["tip_cents"] as? Int, 150)
        XCTAssertEqual(object?["kitchen_id"] as? String, "k1")
    }

    func testAnEmptyOrderIsRefusedLocally() {
        let result: Result<Order, SDKError>? = waitFor { done in
            sdk.orders.placeOrder(OrderDraft(kitchenID: "k1", lines: []), completion: done)
        }
        guard case .failure(let error)? = result else { return XCTFail("placed") }
        XCTAssertEqual(error, .invalidArgument("an order needs at least one line"))
    }

    func testAServerErrorIsRetriedUpToTheConfiguredAttempts() {
        transport.stub(.post, "orders", .json(503, "{}"))
        transport.stub(.post, "orders", .json(503, "{}"))
        transport.stub(.post, "orders", .json(201, Samples.order("o2")))
        let result: Result<Order, SDKError>? = waitFor { done in sdk.orders.placeOrder(draft, completion: done) }
        XCTAssertEqual(try result?.get().id, "o2")
        XCTAssertEqual(transport.count(of: "orders"), 3)
    }

    func testRateLimitingIsReportedWithTheWait() {
        transport.stub(.post, "orders", .json(429, "{}", headers: ["Retry-After": "12"]))
        let result: Result<Order, SDKError>? = waitFor { done in sdk.orders.placeOrder(draft, completion: done) }
        guard case .failure(let error)? = result else { return XCTFail("placed") }
        XCTAssertEqual(error, .rateLimited(retryAfter: 12))
    }

    func testAn401RefreshesTheTokenAndRetriesOnce() {
        transport.stub(.post, "orders", .json(401, "{}"))
        transport.stub(.post, "orders", .json(201, Samples.order("o3")))
        transport.stub(.post, "auth/refresh", .json(200, Samples.refreshedToken))
        let result: Result<Order, SDKError>? = waitFor { done in sdk.orders.placeOrder(draft, completion: done) }
        XCTAssertEqual(try result?.get().id, "o3")
        XCTAssertEqual(transport.requests.last?.headers["Authorization"], "Bearer access-2")
    }

    func testCancellingWithAReasonSendsIt() throws {
        transport.stub(.post, "orders/o1/cancel", .json(200, "{}"))
        let error: Error?? = waitFor { done in
            sdk.orders.cancelOrder("o1", reason: "changed my mind") { error in done(error) }
        }
        XCTAssertNil(error ?? nil)
        let body = try XCTUnwrap(transport.requests.last?.body)
        XCTAssertEqual(String(decoding: body, as: UTF8.self), #"{"reason":"changed my mind"}"#)
    }

    func testCancellingWithoutReasonOrHandler() {
        transport.stub(.post, "orders/o1/cancel", .json(200, "{}"))
        sdk.orders.cancelOrder("o1")
        waitUntil { self.transport.count(of: "orders/o1/cancel") == 1 }
        XCTAssertEqual(transport.count(of: "orders/o1/cancel"), 1)
    }

    func testCancellingAStartedOrderIsAConflict() {
        transport.stub(.post, "orders/o1/cancel", .json(409, #"{"error":"order o1"}"#))
        let error: Error?? = waitFor { done in sdk.orders.cancelOrder("o1", completion: done) }
        XCTAssertEqual((error ?? nil) as? SDKError, .conflict("order o1"))
    }

    func testTheStatusWithTypedErrors() {
        transport.stub(.get, "orders/o1", .json(200, Samples.order("o1", status: "picked_up")))
        let result: Result<OrderStatus, SDKError>? = waitFor { done in
            sdk.orders.status(ofOrder: "o1") { (result: Result<OrderStatus, SDKError>) in done(result) }
        }
        XCTAssertEqual(try result?.get(), .pickedUp)
    }

    func testTheStatusWithPlainErrorsKeepsWorking() {
        transport.stub(.get, "orders/o9", .json(404, "{}"))
        let result: Result<OrderStatus, Error>? = waitFor { done in
            sdk.orders.status(ofOrder: "o9") { (result: Result<OrderStatus, Error>) in done(result) }
        }
        guard case .failure(let error)? = result else { return XCTFail("found") }
        XCTAssertEqual(error as? SDKError, .notFound("the resource"))
    }

    func testAllOrdersFollowsTheCursors() {
        transport.stub(.get, "orders", .json(200, #"{"items":[\#(Samples.order("o1")),\#(Samples.order("o2"))],"next_cursor":"c2"}"#))
        transport.stub(.get, "orders", .json(200, #"{"items":[\#(Samples.order("o3"))],"next_cursor":null}"#))
        let result: Result<[Order], SDKError>? = waitFor { done in sdk.orders.allOrders(pageSize: 2, completion: done) }
        XCTAssertEqual(try result?.get().map(\.id), ["o1", "o2", "o3"])
        XCTAssertEqual(transport.requests.last?.query, ["limit": "2", "after": "c2"])
    }

    func testOnePageWithTheDefaultSize() {
        transport.stub(.get, "orders", .json(200, #"{"items":[],"next_cursor":null}"#))
        let result: Result<Page<Order>, SDKError>? = waitFor { done in sdk.orders.orders { done($0) } }
        XCTAssertEqual(try result?.get().items.count, 0)
        XCTAssertEqual(transport.requests.last?.query, ["limit": "25"])
    }

    func testRatingOutsideOneToFiveIsRefused() {
        let error: Error?? = waitFor { done in sdk.orders.rate(orderID: "o1", stars: 6, completion: done) }
        XCTAssertEqual((error ?? nil) as? SDKError, .invalidArgument("stars must be between 1 and 5"))
    }

    func testARatingWithAComment() throws {
        transport.stub(.post, "orders/o1/rating", .json(201, "{}"))
        let error: Error?? = waitFor { done in
            sdk.orders.rate(orderID: "o1", stars: 5, comment: "great") { done($0) }
        }
        XCTAssertNil(error ?? nil)
        XCTAssertEqual(String(decoding: try XCTUnwrap(transport.requests.last?.body), as: UTF8.self), #"{"comment":"great","stars":5}"#)
    }
}
