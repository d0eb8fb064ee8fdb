import ExampleSupport
import MixedServiceKit
import Vow
import XCTest

/// The MixedService example does what its printout claims.
final class MixedServiceTests: XCTestCase {
    private let transcript = Transcript(echo: false)
    private lazy var handler = ProductPageHandler(repository: CatalogRepository(transcript: transcript))

    func testHandlerFansOutToEveryWarehouseAndKeepsTheirOrder() async throws {
        let page = try await handler.handle(ProductPageRequest(productID: 1))

        XCTAssertEqual(page, ProductPage(productID: 1, name: "Kettle", price: 25, stock: [7, 7, 6]))
    }

    func testPricingThatMissesTheDeadlineIsCancelledAndThePageServedWithoutAPrice() async throws {
        let page = try await handler.handle(ProductPageRequest(productID: 3))

        XCTAssertEqual(page, ProductPage(productID: 3, name: "Desk", price: nil, stock: [9, 9, 8]))
        XCTAssertEqual(transcript.lines, ["repository | price lookup for Desk cancelled"])
    }

    func testAMissingProductThrowsTheRepositoryError() async {
        do {
            _ = try await handler.handle(ProductPageRequest(productID: 4))
            XCTFail("product 4 does not exist")
        } catch {
            XCTAssertEqual(error as? CatalogError, .productNotFound(4))
        }
    }

    func testErrorsBecomeStatusesInTheResponse() async {
        let found = await handler.respond(to: ProductPageRequest(productID: 2))
        let missing = await handler.respond(to: ProductPageRequest(productID: 4))

        XCTAssertEqual(found, Response(productID: 2, status: 200, body: "Lamp $40, in stock: Berlin 8, Dublin 8, Osaka 7"))
        XCTAssertEqual(missing, Response(productID: 4, status: 404, body: "product 4 not found"))
    }

    func testTheBatchIsReportedInCompletionOrderWithASummary() async {
        let summary = await MixedServiceTour.run(transcript: transcript)

        var expected = BatchSummary()
        expected.completionOrder = [4, 1, 2, 3, 5]
        expected.responsesByStatus = [200: 4, 404: 1]
        expected.servedWithoutPrice = 1
        XCTAssertEqual(summary, expected)
        XCTAssertEqual(transcript.lines, [
            "serving product pages [1, 2, 3, 4, 5], all at once",
            "request 4 | 404 product 4 not found",
            "request 1 | 200 Kettle $25, in stock: Berlin 7, Dublin 7, Osaka 6",
            "request 2 | 200 Lamp $40, in stock: Berlin 8, Dublin 8, Osaka 7",
            "repository | price lookup for Desk cancelled",
            "request 3 | 200 Desk (price unavailable), in stock: Berlin 9, Dublin 9, Osaka 8",
            "request 5 | 200 Chair $95, in stock: Berlin 11, Dublin 11, Osaka 10",
            "completion order [4, 1, 2, 3, 5]: 4 served (1 without a price), 1 not found",
        ])
    }

    func testCancellingTheConsumerEndsTheStream() async {
        let task = Task { [handler, transcript] in
            try await MixedServiceTour.serve(MixedServiceTour.requests, with: handler, transcript: transcript)
        }
        await transcript.waitUntilSaid(startingWith: "request 1 |")
        task.cancel()

        let outcome = await task.result
        XCTAssertThrowsError(try outcome.get()) { error in
            XCTAssertTrue(error is CancellationError)
        }
        XCTAssertFalse(transcript.lines.contains { $0.hasPrefix("request 5 |") })
    }
}
