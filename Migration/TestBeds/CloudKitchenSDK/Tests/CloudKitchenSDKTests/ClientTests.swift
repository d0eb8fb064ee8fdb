import CloudKitchenSDK
import Foundation
import XCTest

/// The layers under the services, used directly the way apps extend the SDK: a service of their
/// own subclassing `APIClient`, the transport and the cache.
final class ClientTests: SDKTestCase {
    /// An endpoint the SDK does not cover yet, added by an app.
    private final class TipsService: APIClient {
        func tips(forKitchen kitchenID: String, completion: @escaping (Result<[String], SDKError>) -> Void) {
            fetch(HTTPRequest(path: "kitchens/\(kitchenID)/tips"), as: [String].self, completion: completion)
        }

        func like(tip index: Int, kitchenID: String, completion: @escaping VoidCompletion) {
            send(HTTPRequest(method: .post, path: "kitchens/\(kitchenID)/tips/\(index)/like"), completion: completion)
        }

        func ping(completion: @escaping (Int) -> Void) {
            perform(HTTPRequest(path: "ping"), authorized: false) { result in
                completion((try? result.get().status) ?? -1)
            }
        }
    }

    private func tipsService() -> TipsService {
        TipsService(transport: transport, session: sdk.session, cache: sdk.cache, configuration: makeConfiguration())
    }

    func testASubclassDecodesThroughTheInheritedFetch() {
        transport.stub(.get, "kitchens/k1/tips", .json(200, #"["order the broth","come early"]"#))
        // The service answers only while someone holds it, as an app's services are held.
        let service = tipsService()
        let result: Result<[String], SDKError>? = waitFor { done in service.tips(forKitchen: "k1", completion: done) }
        XCTAssertEqual(try result?.get(), ["order the broth", "come early"])
    }

    func testASubclassSendsThroughTheInheritedSend() {
        transport.stub(.post, "kitchens/k1/tips/2/like", .json(204, ""))
        let service = tipsService()
        let error: Error?? = waitFor { done in service.like(tip: 2, kitchenID: "k1") { done($0) } }
        XCTAssertNil(error ?? nil)
        XCTAssertEqual(transport.requests.last?.headers["X-Api-Key"], "test-key")
    }

    func testAnUnauthorizedRequestCarriesNoToken() {
        transport.stub(.get, "ping", .json(200, "{}"))
        let service = tipsService()
        let status: Int? = waitFor { done in service.ping(completion: done) }
        XCTAssertEqual(status, 200)
        XCTAssertNil(transport.requests.last?.headers["Authorization"])
    }

    func testPerformIsCancellableBeforeTheAnswer() {
        transport.stub(.get, "slow", .json(200, "{}"))
        transport.delay = 0.2
        let done = expectation(description: "answered")
        var outcome: Result<HTTPResponse, SDKError>?
        let handle = sdk.kitchens.perform(HTTPRequest(path: "slow")) { result in
            outcome = result
            done.fulfill()
        }
        handle.cancel()
        wait(for: [done], timeout: timeout)
        guard case .failure(let error)? = outcome else { return XCTFail("answered") }
        XCTAssertEqual(error, .cancelled)
    }

    func testATransportErrorIsRetriedAsTransient() {
        transport.stub(.get, "flaky", .failure(URLError(.networkConnectionLost)))
        transport.stub(.get, "flaky", .json(200, "{}"))
        let result: Result<HTTPResponse, SDKError>? = waitFor { done in
            sdk.kitchens.perform(HTTPRequest(path: "flaky"), completion: done)
        }
        XCTAssertEqual(try result?.get().status, 200)
        XCTAssertEqual(transport.count(of: "flaky"), 2)
    }

    func testTheTransportAnswersThroughItsProtocol() {
        let protocolTyped: HTTPTransport = transport
        transport.stub(.get, "hello", .json(200, "hi"))
        let result: Result<HTTPResponse, Error>? = waitFor { done in
            protocolTyped.send(HTTPRequest(path: "hello")) { done($0) }
        }
        XCTAssertEqual(try result?.get().body, Data("hi".utf8))
    }

    func testAnUnstubbedRouteIsA404() {
        let result: Result<HTTPResponse, Error>? = waitFor { done in
            transport.send(HTTPRequest(method: .delete, path: "nowhere"), completion: done)
        }
        XCTAssertEqual(try result?.get().status, 404)
    }

    func testTheCacheServesFreshBodiesAndForgetsOldOnes() {
        var clock = Date(timeIntervalSince1970: 1_000)
        let cache = ResponseCache(lifetime: 10, now: { clock })
        let stored: Void? = waitFor { done in cache.store(Data("a".utf8), forKey: "k", completion: { done(()) }) }
        XCTAssertNotNil(stored)
        let fresh: Data?? = waitFor { done in cache.body(forKey: "k", completion: done) }
        XCTAssertEqual(fresh ?? nil, Data("a".utf8))
        clock = clock.addingTimeInterval(11)
        let stale: Data?? = waitFor { done in cache.body(forKey: "k") { done($0) } }
        XCTAssertNil(stale ?? nil)
        XCTAssertEqual(cache.statistics.hits, 1)
        XCTAssertEqual(cache.statistics.misses, 1)
    }

    func testRemovingCacheEntriesByPrefixCountsThem() {
        let cache = ResponseCache(lifetime: 10)
        cache.store(Data(), forKey: "me")
        cache.store(Data(), forKey: "me/favorites")
        cache.store(Data(), forKey: "kitchens")
        let removed: Int? = waitFor { done in cache.removeEntries(withPrefix: "me", completion: done) }
        XCTAssertEqual(removed, 2)
        XCTAssertEqual(cache.count, 1)
        cache.removeEntries()
        XCTAssertEqual(cache.count, 0)
    }

    func testSigningOutEmptiesTheCache() {
        transport.stub(.post, "auth/sign-out", .json(204, ""))
        sdk.cache.store(Data(), forKey: "me")
        let error: Error?? = waitFor { done in sdk.signOut(completion: done) }
        XCTAssertNil(error ?? nil)
        XCTAssertEqual(sdk.cache.count, 0)
    }

    func testTheLoggerRecordsEachRequest() {
        let sink = MemoryLogSink()
        let configuration = makeConfiguration()
        configuration.logger = sink
        let client = APIClient(transport: transport, session: sdk.session, cache: ResponseCache(lifetime: 1), configuration: configuration)
        transport.stub(.get, "ping", .json(200, "{}"))
        _ = waitFor { (done: @escaping (Result<HTTPResponse, SDKError>) -> Void) in client.perform(HTTPRequest(path: "ping"), completion: done) }
        XCTAssertEqual(sink.lines, ["[debug] GET ping"])
    }

    func testACancellationTokenRunsLateHandlersAtOnce() {
        let token = CancellationToken()
        var calls: [String] = []
        token.onCancel { calls.append("early") }
        token.cancel()
        token.cancel()
        token.onCancel { calls.append("late") }
        XCTAssertEqual(calls, ["early", "late"])
    }

    func testErrorsDescribeThemselvesForUsers() {
        XCTAssertEqual(SDKError.rateLimited(retryAfter: 12).localizedDescription, "Too many requests; retry in 12 s.")
        XCTAssertEqual(SDKError.http(status: 500, message: nil).localizedDescription, "The server answered 500.")
        XCTAssertTrue(SDKError.http(status: 502, message: nil).isTransient)
        XCTAssertFalse(SDKError.notFound("x").isTransient)
    }
}
