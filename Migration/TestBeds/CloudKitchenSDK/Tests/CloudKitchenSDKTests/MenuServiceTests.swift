import CloudKitchenSDK
import Foundation
import XCTest

/// Menus, dish search, availability and quotes.
final class MenuServiceTests: SDKTestCase {
    override func setUp() {
        super.setUp()
        transport.stub(.get, "kitchens/k1/menu", .json(200, Samples.menu))
    }

    func testAMenuKeepsItsSectionsAndPutsSoldOutDishesLast() {
        let result: Result<Menu, SDKError>? = waitFor { done in sdk.menus.menu(for: "k1", completion: done) }
        let menu = try? result?.get()
        XCTAssertEqual(menu?.sections.map(\.title), ["Mains", "Drinks"])
        XCTAssertEqual(menu?.sections.first?.items.map(\.id), ["m2", "m1"])
        XCTAssertEqual(menu?.allItems.count, 3)
    }

    func testTheMenuDateIsRead() {
        let result: Result<Menu, SDKError>? = waitFor { done in
            sdk.menus.menu(for: "k1") { result in done(result) }
        }
        XCTAssertEqual(try result?.get().updatedAt, ISO8601DateFormatter().date(from: "2026-03-01T12:00:00Z"))
    }

    func testCacheOnlyWithoutACachedMenuIsNotFound() {
        let result: Result<Menu, SDKError>? = waitFor { done in
            sdk.menus.menu(for: "k1", cachePolicy: .cacheOnly, completion: done)
        }
        guard case .failure(.notFound)? = result else { return XCTFail("expected notFound, got \(String(describing: result))") }
        XCTAssertEqual(transport.count(of: "kitchens/k1/menu"), 0)
    }

    func testSearchSendsTheTrimmedQueryAndTheDefaultLimit() {
        transport.stub(.get, "menu-items/search", .json(200, "[\(Samples.item("m2", price: 950))]"))
        let result: Result<[MenuItem], SDKError>? = waitFor { done in
            sdk.menus.search("  ramen ", completion: done)
        }
        XCTAssertEqual(try result?.get().map(\.id), ["m2"])
        XCTAssertEqual(transport.requests.last?.query, ["q": "ramen", "limit": "20"])
    }

    func testSearchInOneKitchenWithALimitCutsTheAnswer() {
        let items = (1...5).map { Samples.item("x\($0)", price: 100 * $0) }.joined(separator: ",")
        transport.stub(.get, "menu-items/search", .json(200, "[\(items)]"))
        let result: Result<[MenuItem], SDKError>? = waitFor { done in
            sdk.menus.search("x", in: "k1", limit: 2) { done($0) }
        }
        XCTAssertEqual(try result?.get().map(\.priceCents), [100, 200])
        XCTAssertEqual(transport.requests.last?.query["kitchen"], "k1")
    }

    func testAnEmptySearchAnswersAtOnceWithNothing() {
        let before = transport.requests.count
        var answered: [MenuItem]?
        sdk.menus.search("   ") { result in answered = try? result.get() }
        XCTAssertEqual(answered?.count, 0)
        XCTAssertEqual(transport.requests.count, before)
    }

    func testAnItemArrivesAsValueOrError() {
        transport.stub(.get, "menu-items/d1", .json(200, Samples.item("d1", price: 300)))
        transport.stub(.get, "menu-items/gone", .json(404, "{}"))
        let found: MenuItem?? = waitFor { done in sdk.menus.item(id: "d1") { item, _ in done(item) } }
        XCTAssertEqual(found??.priceCents, 300)
        let missing: Error?? = waitFor { done in sdk.menus.item(id: "gone") { _, error in done(error) } }
        XCTAssertEqual((missing ?? nil) as? SDKError, .notFound("the resource"))
    }

    func testSettingAvailabilitySendsAPatchAndDropsCachedMenus() {
        transport.stub(.patch, "menu-items/m1", .json(200, "{}"))
        _ = waitFor { (done: @escaping (Result<Menu, SDKError>) -> Void) in sdk.menus.menu(for: "k1", completion: done) }
        XCTAssertEqual(sdk.cache.count, 1)
        let error: Error?? = waitFor { done in sdk.menus.setAvailability(true, itemID: "m1", completion: done) }
        XCTAssertNil(error ?? nil)
        XCTAssertEqual(transport.requests.last?.method, .patch)
        XCTAssertEqual(String(decoding: transport.requests.last?.body ?? Data(), as: UTF8.self), #"{"is_available":true}"#)
        XCTAssertEqual(sdk.cache.count, 0)
    }

    func testSettingAvailabilityWithoutAHandler() {
        transport.stub(.patch, "menu-items/m1", .json(200, "{}"))
        sdk.menus.setAvailability(false, itemID: "m1")
        waitUntil { self.transport.count(of: "menu-items/m1") == 1 }
        XCTAssertEqual(transport.count(of: "menu-items/m1"), 1)
    }

    func testAQuoteAddsAvailableDishesTimesTheirQuantities() {
        let total: Int?? = waitFor { done in
            sdk.menus.quote([OrderLine(itemID: "m2", quantity: 2), OrderLine(itemID: "d1", quantity: 3)], kitchenID: "k1") { total, _ in
                done(total)
            }
        }
        XCTAssertEqual(total ?? nil, 2_800)
    }

    func testAQuoteWithASoldOutDishFails() {
        let error: Error?? = waitFor { done in
            sdk.menus.quote([OrderLine(itemID: "m1", quantity: 1)], kitchenID: "k1") { _, error in done(error) }
        }
        XCTAssertEqual((error ?? nil) as? SDKError, .notFound("dish m1"))
    }
}
