// The newest layer: a service written after the team moved to async/await. It knows nothing of
// promises; the promise repository reaches it through `Promise { try await ... }`.

/// A customer review.
public struct Review: Sendable, Equatable, Codable {
    public let stars: Int
    public let text: String

    public init(stars: Int, text: String) {
        self.stars = stars
        self.text = text
    }
}

/// What the reviews service can fail with.
public enum ReviewsError: Error, Equatable {
    case sourcesUnavailable(productID: Int)
}

/// Gathers a product's reviews from several review sources, one after another.
///
/// Made-up but fixed data: products 1, 5 and 6 have reviews; 2 Lamp's sources are down; 3 Desk's
/// reviews are spread over `slowProductSources` sources (a slow request worth walking away from);
/// any other product has none.
public final class ReviewsService: Sendable {
    static let reviews: [Int: [Review]] = [
        1: [Review(stars: 5, text: "Boils in a minute"), Review(stars: 4, text: "Loud but quick")],
        3: [Review(stars: 3, text: "Wobbles a little")],
        5: [Review(stars: 4, text: "Comfortable")],
        6: [Review(stars: 5, text: "Seats four"), Review(stars: 5, text: "Worth the wait"), Review(stars: 2, text: "Late delivery")],
    ]
    static let sourcesDown: Set<Int> = [2]
    static let slowProductID = 3

    private let sources: Int
    private let slowProductSources: Int
    private let perSource: Duration
    private let log: ServiceLog
    private let inFlight = CallCounter()

    /// - Parameters:
    ///   - sources: How many sources are asked for an ordinary product.
    ///   - slowProductSources: How many are asked for product 3.
    ///   - perSource: How long one source takes to answer.
    public init(sources: Int = 3, slowProductSources: Int = 100, perSource: Duration = .milliseconds(100), log: ServiceLog) {
        self.sources = sources
        self.slowProductSources = slowProductSources
        self.perSource = perSource
        self.log = log
    }

    /// Fetches running now.
    public var fetchesInFlight: Int {
        inFlight.value
    }

    /// The reviews of product `productID`, once every source has answered.
    ///
    /// Honours cancellation the async way: `Task.sleep` throws `CancellationError` when the Task
    /// is cancelled, and the loop stops there.
    ///
    /// - Throws: `ReviewsError.sourcesUnavailable`, or `CancellationError` if the Task is cancelled.
    public func reviews(forProduct productID: Int) async throws -> [Review] {
        inFlight.increment()
        defer { inFlight.decrement() }
        if Self.sourcesDown.contains(productID) {
            throw ReviewsError.sourcesUnavailable(productID: productID)
        }
        let sources = productID == Self.slowProductID ? slowProductSources : sources
        var asked = 0
        do {
            while asked < sources {
                try await Task.sleep(for: perSource)
                asked += 1
            }
        } catch {
            log("async   | reviews of product \(productID): stopped after \(asked) of \(sources) sources, \(type(of: error))")
            throw error
        }
        return Self.reviews[productID] ?? []
    }
}
