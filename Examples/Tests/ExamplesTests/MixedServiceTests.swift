import Foundation
import MixedServiceKit
import XCTest

/// MixedService over real HTTP on 127.0.0.1: each test starts the service on a free port, sends
/// requests with a plain HTTP/1.1 client, and stops the service.
final class MixedServiceTests: XCTestCase {
    // MARK: - Answers

    func testAProductPageHasTheProductAndItsStockInEveryWarehouse() async throws {
        try await withRunningService { service in
            let answer = try await service.client.get("/products/1")

            XCTAssertEqual(answer.status, 200)
            XCTAssertEqual(answer.headers["content-type"], "application/json; charset=utf-8")
            XCTAssertEqual(answer.body, #"{"product":{"id":1,"name":"Kettle","price":25},"stock":{"Berlin":7,"Dublin":7,"Osaka":6}}"#)
            XCTAssertEqual(
                try JSONDecoder().decode(ProductPage.self, from: Data(answer.body.utf8)),
                ProductPage(product: Product(id: 1, name: "Kettle", price: 25), stock: ["Berlin": 7, "Dublin": 7, "Osaka": 6])
            )
        }
    }

    func testReviewsComeFromThePromiseLayerCallingTheAsyncService() async throws {
        try await withRunningService { service in
            let answer = try await service.client.get("/products/1/reviews")

            XCTAssertEqual(answer.status, 200)
            XCTAssertEqual(answer.body, #"{"averageStars":4.5,"product":{"id":1,"name":"Kettle","price":25},"#
                + #""reviews":[{"stars":5,"text":"Boils in a minute"},{"stars":4,"text":"Loud but quick"}]}"#)
        }
    }

    func testAnAuditCountsEveryShelf() async throws {
        try await withRunningService { service in
            let answer = try await service.client.get("/products/2/audit?shelves=3")

            XCTAssertEqual(answer.status, 200)
            XCTAssertEqual(answer.body, #"{"items":6,"productID":2,"shelves":3}"#)
            XCTAssertEqual(service.log.lines(startingWith: "legacy"), [
                "legacy  | audit of product 2: counting 3 shelves",
                "legacy  | audit of product 2: done, 6 items",
            ])
        }
    }

    func testTheRootListsTheRoutes() async throws {
        try await withRunningService { service in
            let answer = try await service.client.get("/")

            XCTAssertEqual(answer.status, 200)
            XCTAssertTrue(answer.body.contains("GET /products/{id}/audit?shelves=N"), answer.body)
        }
    }

    // MARK: - Errors as statuses

    func testEachKindOfErrorIsAnsweredWithItsStatus() async throws {
        try await withRunningService { service in
            let expected: [(path: String, status: Int, message: String)] = [
                ("/products/4", 404, "There is no product 4."),
                ("/products/4/reviews", 404, "There is no product 4."),
                ("/products/x", 400, "A product id is a positive whole number, not 'x'."),
                ("/products/0", 400, "A product id is a positive whole number, not '0'."),
                ("/products/1/audit?shelves=0", 400, "shelves must be a whole number from 1 to 100, not '0'."),
                ("/products/1/audit?shelves=many", 400, "shelves must be a whole number from 1 to 100, not 'many'."),
                ("/products/6", 503, "The catalog backend is unavailable (Osaka stock system)."),
                ("/products/2/reviews", 503, "The review sources for product 2 are unavailable."),
            ]
            for (path, status, message) in expected {
                let answer = try await service.client.get(path)
                XCTAssertEqual(answer.status, status, path)
                XCTAssertEqual(answer.body, #"{"error":{"message":"\#(message)"}}"#, path)
                XCTAssertEqual(answer.headers["connection"], "close", path)
            }
            let unknownRoute = try await service.client.get("/nowhere")
            XCTAssertEqual(unknownRoute.status, 404)
        }
    }

    func testLegacyWorkPastTheDeadlineIsStoppedThroughItsTokenAndAnswered504() async throws {
        var configuration = MixedServiceConfiguration.forTests
        configuration.legacyDeadline = 0.2
        try await withRunningService(configuration) { service in
            // Product 7's record is locked: the backend retries until its call is cancelled.
            let answer = try await service.client.get("/products/7")

            XCTAssertEqual(answer.status, 504)
            XCTAssertEqual(answer.body, #"{"error":{"message":"The catalog backend did not answer within 0.2 s."}}"#)
            let idle = await service.statusOnceIdle()
            XCTAssertEqual(idle, LegacyStatus(promisesPending: 0, backendCallsInFlight: 0, reviewFetchesInFlight: 0, callsStoppedThroughTokens: 1))
            XCTAssertEqual(service.log.lines(startingWith: "repo"), ["repo    | token cancelled: stopping the lookup of product 7"])
            XCTAssertEqual(service.log.lines(startingWith: "legacy"), [
                "legacy  | lookup of product 7: gave up waiting for its locked record, call cancelled",
            ])
        }
    }

    // MARK: - A client that disconnects

    func testAClientDisconnectCancelsTheRequestTaskAndTheLegacyAuditStopsThroughItsToken() async throws {
        var configuration = MixedServiceConfiguration.forTests
        configuration.backendTiming.auditShelf = .milliseconds(100)
        try await withRunningService(configuration) { service in
            // 100 shelves take 10 s; the client hangs up as soon as counting has begun.
            try await service.client.getThenDisconnect("/products/3/audit?shelves=100") {
                await service.log.waitUntilSaid(startingWith: "legacy  | audit of product 3: counting 100 shelves")
            }

            let stopped = await service.log.waitUntilSaid(startingWith: "legacy  | audit of product 3: stopped after")
            XCTAssertTrue(stopped, "the audit did not stop: \(service.log.lines)")
            let idle = await service.statusOnceIdle()
            XCTAssertEqual(idle, LegacyStatus(promisesPending: 0, backendCallsInFlight: 0, reviewFetchesInFlight: 0, callsStoppedThroughTokens: 1))
            XCTAssertEqual(service.log.lines(startingWith: "repo"), ["repo    | token cancelled: stopping the audit of product 3"])
            let http = service.log.lines(startingWith: "http    | #1 ")
            XCTAssertEqual(http.count, 3, "\(http)")
            XCTAssertEqual(http.first, "http    | #1 GET /products/3/audit?shelves=100")
            XCTAssertTrue(http.contains("http    | #1 GET /products/3/audit?shelves=100: client disconnected, request Task cancelled"), "\(http)")
            XCTAssertTrue(http.last?.hasPrefix("http    | #1 GET /products/3/audit?shelves=100 -> no response, the request was cancelled (") == true, "\(http)")
            XCTAssertFalse(service.log.lines.contains { $0.contains("done") }, "\(service.log.lines)")
        }
    }

    func testAClientDisconnectCancelsTheAsyncTaskBehindThePromiseLayer() async throws {
        try await withRunningService { service in
            // Product 3's reviews take 2,000 sources (10 s at the tests' pace).
            try await service.client.getThenDisconnect("/products/3/reviews") {
                await service.waitUntil { service.repository.reviewsService.fetchesInFlight == 1 }
            }

            let stopped = await service.log.waitUntilSaid(startingWith: "async   | reviews of product 3: stopped after")
            XCTAssertTrue(stopped, "the reviews fetch did not stop: \(service.log.lines)")
            XCTAssertTrue(
                service.log.lines.contains { $0.hasPrefix("async   | reviews of product 3: stopped after") && $0.hasSuffix("of 2000 sources, CancellationError") },
                "\(service.log.lines)"
            )
            let idle = await service.statusOnceIdle()
            XCTAssertEqual(idle, LegacyStatus(promisesPending: 0, backendCallsInFlight: 0, reviewFetchesInFlight: 0, callsStoppedThroughTokens: 0))
            XCTAssertTrue(service.log.lines.contains("http    | #1 GET /products/3/reviews: client disconnected, request Task cancelled"))
            XCTAssertEqual(service.log.lines(startingWith: "repo"), [
                "repo    | token cancelled: the Task fetching the reviews of product 3 is cancelled",
            ])
        }
    }

    // MARK: - Load

    func testTwoHundredConcurrentRequestsAreAllAnsweredAndLeaveNothingPending() async throws {
        let expected: [(path: String, status: Int, body: String)] = [
            ("/products/1", 200, #"{"product":{"id":1,"name":"Kettle","price":25},"stock":{"Berlin":7,"Dublin":7,"Osaka":6}}"#),
            ("/products/2", 200, #"{"product":{"id":2,"name":"Lamp","price":40},"stock":{"Berlin":8,"Dublin":8,"Osaka":7}}"#),
            ("/products/4", 404, #"{"error":{"message":"There is no product 4."}}"#),
            ("/products/5", 200, #"{"product":{"id":5,"name":"Chair","price":95},"stock":{"Berlin":11,"Dublin":11,"Osaka":10}}"#),
            ("/products/6", 503, #"{"error":{"message":"The catalog backend is unavailable (Osaka stock system)."}}"#),
            ("/products/1/reviews", 200, #"{"averageStars":4.5,"product":{"id":1,"name":"Kettle","price":25},"#
                + #""reviews":[{"stars":5,"text":"Boils in a minute"},{"stars":4,"text":"Loud but quick"}]}"#),
            ("/products/2/reviews", 503, #"{"error":{"message":"The review sources for product 2 are unavailable."}}"#),
            ("/products/5/audit?shelves=2", 200, #"{"items":10,"productID":5,"shelves":2}"#),
        ]
        try await withRunningService(timeLimit: .seconds(120)) { service in
            let answers = try await withThrowingTaskGroup(of: (Int, LoopbackHTTPClient.Answer).self) { group in
                for request in 0..<200 {
                    group.addTask {
                        (request, try await service.client.get(expected[request % expected.count].path))
                    }
                }
                var answers: [Int: LoopbackHTTPClient.Answer] = [:]
                for try await (request, answer) in group {
                    answers[request] = answer
                }
                return answers
            }

            XCTAssertEqual(answers.count, 200)
            for (request, answer) in answers {
                let (path, status, body) = expected[request % expected.count]
                XCTAssertEqual(answer.status, status, "request \(request): \(path)")
                XCTAssertEqual(answer.body, body, "request \(request): \(path)")
            }
            // Nothing left behind: every promise settled, every backend call and Task finished.
            // (Product 6's stock lookups in Berlin and Dublin were stopped through their token
            // once Osaka failed: `when(fulfilled:cancelling:)`.)
            let idle = await service.statusOnceIdle()
            XCTAssertEqual(idle.promisesPending, 0)
            XCTAssertEqual(idle.backendCallsInFlight, 0)
            XCTAssertEqual(idle.reviewFetchesInFlight, 0)
            // The service says the same over HTTP.
            let reported = try await service.client.get("/legacy")
            XCTAssertEqual(try JSONDecoder().decode(LegacyStatus.self, from: Data(reported.body.utf8)), idle)
            XCTAssertEqual(service.log.lines(startingWith: "http    | #").count, 2 * 201)
        }
    }

    // MARK: - The log

    func testEachRequestIsLoggedWhenItArrivesAndWhenItIsAnswered() async throws {
        try await withRunningService { service in
            _ = try await service.client.get("/products/4")
            _ = try await service.client.get("/products/x")

            let http = service.log.lines(startingWith: "http")
            XCTAssertEqual(http.count, 5, "\(http)")
            XCTAssertTrue(http[0].hasPrefix("http    | listening on http://127.0.0.1:"), http[0])
            XCTAssertEqual(http[1], "http    | #1 GET /products/4")
            XCTAssertTrue(http[2].hasPrefix("http    | #1 GET /products/4 -> 404 ("), http[2])
            XCTAssertEqual(http[3], "http    | #2 GET /products/x")
            XCTAssertTrue(http[4].hasPrefix("http    | #2 GET /products/x -> 400 ("), http[4])
        }
    }

    // MARK: - Arguments

    func testThePortComesFromTheArguments() throws {
        XCTAssertEqual(try MixedServiceConfiguration.parse(arguments: []).port, 8080)
        XCTAssertEqual(try MixedServiceConfiguration.parse(arguments: ["--port", "0"]).port, 0)
        XCTAssertEqual(try MixedServiceConfiguration.parse(arguments: ["--port=9000"]).port, 9000)
        XCTAssertEqual(try MixedServiceConfiguration.parse(arguments: []).host, "127.0.0.1")
        for bad in [["--port"], ["--port", "http"], ["--port", "70000"], ["--port=-1"], ["--verbose"]] {
            XCTAssertThrowsError(try MixedServiceConfiguration.parse(arguments: bad), "\(bad)") { error in
                XCTAssertTrue(error is MixedServiceConfiguration.BadArgument, "\(bad): \(error)")
            }
        }
    }
}
