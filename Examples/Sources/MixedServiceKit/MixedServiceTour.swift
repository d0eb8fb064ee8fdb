import ExampleSupport
import Vow

/// What serving a batch of requests came to.
public struct BatchSummary: Sendable, Equatable {
    /// The requests' product IDs in the order their responses were ready.
    public var completionOrder: [Int] = []
    /// How many responses had each status.
    public var responsesByStatus: [Int: Int] = [:]
    /// Pages served without a price, because pricing timed out.
    public var servedWithoutPrice = 0

    public init() {}
}

/// The MixedService program: a batch of requests handled concurrently by the async handler, each
/// response printed as soon as it is ready.
public enum MixedServiceTour {
    /// The requests the program serves: product 4 does not exist; product 3's pricing is stuck.
    public static let requests = [1, 2, 3, 4, 5].map(ProductPageRequest.init(productID:))

    /// Serves `requests` with a fresh repository and handler, and says what happened.
    public static func run(transcript: Transcript) async -> BatchSummary {
        let handler = ProductPageHandler(repository: CatalogRepository(transcript: transcript))
        transcript.say("serving product pages \(requests.map(\.productID)), all at once")
        do {
            let summary = try await serve(requests, with: handler, transcript: transcript)
            transcript.say("completion order \(summary.completionOrder): "
                + "\(summary.responsesByStatus[200, default: 0]) served (\(summary.servedWithoutPrice) without a price), "
                + "\(summary.responsesByStatus[404, default: 0]) not found")
            return summary
        } catch {
            // Only cancelling the Task that runs `run` gets here.
            transcript.say("stopped: \(error)")
            return BatchSummary()
        }
    }

    /// Handles every request concurrently and reports each response in the order it is ready.
    ///
    /// - Throws: `CancellationError` if the calling Task is cancelled while responses are awaited.
    public static func serve(
        _ requests: [ProductPageRequest],
        with handler: ProductPageHandler,
        transcript: Transcript
    ) async throws -> BatchSummary {
        // Each request runs in its own Task, owned by a guarantee (a response never fails: errors
        // became statuses), so they all start now and run concurrently.
        let responses = requests.map { request in
            Guarantee { await handler.respond(to: request) }
        }
        var summary = BatchSummary()
        // `values` yields each response as soon as it is ready, whatever the order of the array:
        // a slow request does not hold up the report of a fast one queued behind it. (For promises
        // that can fail, `values` throws the first rejection and `results` yields every outcome.)
        for try await response in responses.values {
            summary.completionOrder.append(response.productID)
            summary.responsesByStatus[response.status, default: 0] += 1
            if response.body.contains("(price unavailable)") {
                summary.servedWithoutPrice += 1
            }
            transcript.say("request \(response.productID) | \(response.status) \(response.body)")
        }
        return summary
    }
}
