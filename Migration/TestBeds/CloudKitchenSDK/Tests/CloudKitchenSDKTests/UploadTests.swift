import CloudKitchenSDK
import Foundation
import XCTest

/// Chunked photo uploads: progress, cancellation, validation.
final class UploadTests: SDKTestCase {
    override func setUp() {
        super.setUp()
        transport.stub(.post, "menu-items/m2/photo-uploads", .json(201, #"{"upload_id":"up1"}"#))
        transport.stub(.put, "photo-uploads/up1/chunks", .json(204, ""))
        transport.stub(.post, "photo-uploads/up1/finish", .json(200, #"{"id":"p1","url":"https://cdn.example/p1.jpg","byte_count":10}"#))
    }

    func testAPhotoIsSentInChunksAndReportsProgress() {
        var fractions: [Double] = []
        let result: Result<PhotoAsset, SDKError>? = waitFor { done in
            sdk.uploads.uploadPhoto(Samples.jpeg(bytes: 10), forItem: "m2", chunkSize: 4, progress: { fractions.append($0) }, completion: done)
        }
        XCTAssertEqual(try result?.get().id, "p1")
        XCTAssertEqual(fractions, [0.4, 0.8, 1.0])
        XCTAssertEqual(transport.requests.filter { $0.path == "photo-uploads/up1/chunks" }.map { $0.query["offset"] }, ["0", "4", "8"])
    }

    func testTheReturnedTaskKnowsItsSizeAndProgress() {
        let done = expectation(description: "uploaded")
        let task = sdk.uploads.uploadPhoto(Samples.jpeg(bytes: 10), forItem: "m2") { _ in done.fulfill() }
        XCTAssertEqual(task.totalBytes, 10)
        wait(for: [done], timeout: timeout)
        XCTAssertEqual(task.fractionCompleted, 1)
    }

    func testCancellingTheTaskStopsTheUpload() {
        let done = expectation(description: "stopped")
        var outcome: Result<PhotoAsset, SDKError>?
        let task = sdk.uploads.uploadPhoto(Samples.jpeg(bytes: 10), forItem: "m2", chunkSize: 2) { result in
            outcome = result
            done.fulfill()
        }
        task.cancel()
        wait(for: [done], timeout: timeout)
        guard case .failure(let error)? = outcome else { return XCTFail("uploaded") }
        XCTAssertEqual(error, .cancelled)
        XCTAssertTrue(task.isCancelled)
        XCTAssertEqual(transport.count(of: "photo-uploads/up1/finish"), 0)
    }

    func testAFileThatIsNotAnImageIsRefused() {
        let result: Result<PhotoAsset, SDKError>? = waitFor { done in
            sdk.uploads.uploadPhoto(Data("hello".utf8), forItem: "m2") { done($0) }
        }
        guard case .failure(let error)? = result else { return XCTFail("uploaded") }
        XCTAssertEqual(error, .invalidArgument("not a JPEG or PNG image"))
    }

    func testAnEmptyPhotoIsRefused() {
        let result: Result<PhotoAsset, SDKError>? = waitFor { done in
            sdk.uploads.uploadPhoto(Data(), forItem: "m2", completion: done)
        }
        guard case .failure(let error)? = result else { return XCTFail("uploaded") }
        XCTAssertEqual(error, .invalidArgument("nothing to upload"))
    }

    func testAFailedChunkEndsTheUpload() {
        let failing = FakeTransport()
        failing.stub(.get, "handshake", .json(200, "{}"))
        failing.stub(.post, "menu-items/m2/photo-uploads", .json(201, #"{"upload_id":"up1"}"#))
        failing.stub(.put, "photo-uploads/up1/chunks", .json(413, #"{"error":"too large"}"#))
        transport = failing
        guard let client = connectSDK() else { return }
        let result: Result<PhotoAsset, SDKError>? = waitFor { done in
            client.uploads.uploadPhoto(Samples.jpeg(bytes: 8), forItem: "m2", completion: done)
        }
        guard case .failure(let error)? = result else { return XCTFail("uploaded") }
        XCTAssertEqual(error, .http(status: 413, message: "too large"))
    }

    func testDeletingAPhotoReturnsACancellableHandle() {
        transport.stub(.delete, "menu-items/m2/photo", .json(204, ""))
        let done = expectation(description: "deleted")
        var received: Error?
        let handle: Cancellable = sdk.uploads.deletePhoto(forItem: "m2") { error in
            received = error
            done.fulfill()
        }
        wait(for: [done], timeout: timeout)
        XCTAssertNil(received)
        XCTAssertFalse(handle.isCancelled)
    }

    func testDeletingAPhotoWithoutAHandler() {
        transport.stub(.delete, "menu-items/m2/photo", .json(204, ""))
        sdk.uploads.deletePhoto(forItem: "m2")
        waitUntil { self.transport.count(of: "menu-items/m2/photo") == 1 }
        XCTAssertEqual(transport.count(of: "menu-items/m2/photo"), 1)
    }
}
