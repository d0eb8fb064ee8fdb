import CloudKitchenSDK
import Foundation
import XCTest

/// Finding kitchens, reading one, favourites and opening hours.
final class KitchenServiceTests: SDKTestCase {
    private let here = Location(latitude: 52.52, longitude: 13.40)

    func testKitchensAreSortedNearestFirst() {
        transport.stub(.get, "kitchens", .json(200, Samples.kitchens))
        let result: Result<[Kitchen], SDKError>? = waitFor { done in
            sdk.kitchens.fetchKitchens(near: here, completion: done)
        }
        XCTAssertEqual(try result?.get().map(\.id), ["k1", "k2"])
    }

    func testTheSearchSendsLocationRadiusAndOpenFilter() {
        transport.stub(.get, "kitchens", .json(200, "[]"))
        let result: Result<[Kitchen], SDKError>? = waitFor { done in
            sdk.kitchens.fetchKitchens(near: here, radius: 1_500, openOnly: true) { result in
                done(result)
            }
        }
        XCTAssertEqual(try result?.get().count, 0)
        let query = transport.requests.last?.query
        XCTAssertEqual(query?["radius"], "1500")
        XCTAssertEqual(query?["open"], "true")
        XCTAssertEqual(query?["lat"], "52.52")
    }

    func testANonPositiveRadiusIsRefused() {
        let result: Result<[Kitchen], SDKError>? = waitFor { done in
            sdk.kitchens.fetchKitchens(near: here, radius: 0) { done($0) }
        }
        guard case .failure(let error)? = result else { return XCTFail("searched") }
        XCTAssertEqual(error, .invalidArgument("radius must be positive"))
    }

    func testAKitchenIsReadOnceThenServedFromTheCache() {
        transport.stub(.get, "kitchens/k1", .json(200, Samples.kitchen("k1", name: "Near Ramen")))
        let first: Result<Kitchen, SDKError>? = waitFor { done in sdk.kitchens.kitchen(id: "k1", completion: done) }
        let second: Result<Kitchen, SDKError>? = waitFor { done in sdk.kitchens.kitchen(id: "k1") { done($0) } }
        XCTAssertEqual(try first?.get().name, "Near Ramen")
        XCTAssertEqual(try second?.get().name, "Near Ramen")
        XCTAssertEqual(transport.count(of: "kitchens/k1"), 1)
    }

    func testReloadingIgnoresTheCache() {
        transport.stub(.get, "kitchens/k1", .json(200, Samples.kitchen("k1", name: "Old Name")))
        transport.stub(.get, "kitchens/k1", .json(200, Samples.kitchen("k1", name: "New Name")))
        _ = waitFor { (done: @escaping (Result<Kitchen, SDKError>) -> Void) in sdk.kitchens.kitchen(id: "k1", completion: done) }
        let reloaded: Result<Kitchen, SDKError>? = waitFor { done in
            sdk.kitchens.kitchen(id: "k1", cachePolicy: .reloadIgnoringCache, completion: done)
        }
        XCTAssertEqual(try reloaded?.get().name, "New Name")
    }

    func testAMissingKitchenIsNotFound() {
        transport.stub(.get, "kitchens/zz", .json(404, #"{"error":"kitchen zz"}"#))
        let result: Result<Kitchen, SDKError>? = waitFor { done in sdk.kitchens.kitchen(id: "zz", completion: done) }
        guard case .failure(let error)? = result else { return XCTFail("found") }
        XCTAssertEqual(error, .notFound("kitchen zz"))
    }

    func testAnOpenKitchenGoesToSuccess() {
        transport.stub(.get, "kitchens/k1", .json(200, Samples.kitchen("k1", name: "Near Ramen", open: true)))
        let name: String? = waitFor { done in
            sdk.kitchens.openKitchen(id: "k1", success: { done($0.name) }, failure: { done("failed: \($0)") })
        }
        XCTAssertEqual(name, "Near Ramen")
    }

    func testAClosedKitchenGoesToFailureWithAConflict() {
        transport.stub(.get, "kitchens/k1", .json(200, Samples.kitchen("k1", name: "Near Ramen", open: false)))
        let error: SDKError? = waitFor { done in
            sdk.kitchens.openKitchen(id: "k1", success: { _ in done(.cancelled) }) { error in
                done(error)
            }
        }
        XCTAssertEqual(error, .conflict("Near Ramen is closed"))
    }

    func testAddingAFavoriteWithAndWithoutAHandler() {
        transport.stub(.put, "me/favorites/k1", .json(204, ""))
        transport.stub(.put, "me/favorites/k2", .json(204, ""))
        let error: Error?? = waitFor { done in sdk.kitchens.addFavorite(kitchenID: "k1", completion: done) }
        XCTAssertNil(error ?? nil)
        sdk.kitchens.addFavorite(kitchenID: "k2")
        waitUntil { self.transport.count(of: "me/favorites/k2") == 1 }
        XCTAssertEqual(transport.count(of: "me/favorites/k2"), 1)
    }

    func testRemovingAFavoriteThatIsNotThereIsNotAnError() {
        transport.stub(.delete, "me/favorites/k9", .json(404, "{}"))
        let error: Error?? = waitFor { done in
            sdk.kitchens.removeFavorite(kitchenID: "k9") { error in done(error) }
        }
        XCTAssertNil(error ?? nil)
    }

    func testOpeningHoursComeMondayFirst() {
        transport.stub(.get, "kitchens/k1/hours", .json(200, #"[{"weekday":3,"opens":600,"closes":1320},{"weekday":1,"opens":660,"closes":1380}]"#))
        let result: Result<[OpeningHours], SDKError>? = waitFor { done in
            sdk.kitchens.openingHours(kitchenID: "k1", completion: done)
        }
        let hours = try? result?.get()
        XCTAssertEqual(hours?.map(\.weekday), [1, 3])
        XCTAssertEqual(hours?.first?.contains(minute: 700), true)
        XCTAssertEqual(hours?.first?.contains(minute: 1380), false)
    }
}
