import CloudKitchenSDK
import Foundation
import XCTest

/// Thumbnails through the transport and the SDK's response check.
final class ThumbnailTests: SDKTestCase {
    private var loader: ThumbnailLoader!

    override func setUp() {
        super.setUp()
        loader = ThumbnailLoader(transport: transport)
    }

    func testAThumbnailIsTheResponseBody() {
        transport.stub(.get, "menu-items/m2/thumbnail", .response(HTTPResponse(status: 200, body: Samples.jpeg(bytes: 8))))
        let result: Result<Data, SDKError>? = waitFor { done in
            loader.thumbnail(forItem: "m2", completion: done)
        }
        XCTAssertEqual(try result?.get(), Samples.jpeg(bytes: 8))
    }

    func testAMissingThumbnailIsNotFound() {
        transport.stub(.get, "menu-items/m9/thumbnail", .json(404, #"{"error":"no thumbnail"}"#))
        let result: Result<Data, SDKError>? = waitFor { done in
            loader.thumbnail(forItem: "m9", completion: done)
        }
        guard case .failure(let error)? = result else { return XCTFail("loaded") }
        XCTAssertEqual(error, .notFound("no thumbnail"))
    }

    func testABodyThatIsNotAnImageIsADecodingError() {
        transport.stub(.get, "menu-items/m2/thumbnail", .json(200, "{}"))
        let result: Result<Data, SDKError>? = waitFor { done in
            loader.thumbnail(forItem: "m2", completion: done)
        }
        guard case .failure(let error)? = result else { return XCTFail("loaded") }
        XCTAssertEqual(error, .decoding("not an image"))
    }

    func testANetworkFailureIsReported() {
        transport.stub(.get, "menu-items/m2/thumbnail", .failure(URLError(.notConnectedToInternet)))
        let result: Result<Data, SDKError>? = waitFor { done in
            loader.thumbnail(forItem: "m2", completion: done)
        }
        guard case .failure(.network)? = result else { return XCTFail("\(String(describing: result))") }
    }

    func testARequestCancelledUnderneathIsNotAnswered() {
        transport.stub(.get, "menu-items/m2/thumbnail", .failure(URLError(.cancelled)))
        let answered = expectation(description: "answered")
        answered.isInverted = true
        loader.thumbnail(forItem: "m2") { _ in answered.fulfill() }
        wait(for: [answered], timeout: 0.2)
        XCTAssertEqual(transport.count(of: "menu-items/m2/thumbnail"), 1)
    }
}
