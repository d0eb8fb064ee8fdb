import Vow

// The middle layer: a repository written when the codebase used promises everywhere. It wraps the
// callback backend in promises that a token can cancel, and its newest method, written after the
// reviews service went async, reaches that async code with `Promise { try await ... }`.
//
// The HTTP handlers above it are async; they await these promises through Vow's bridges.

/// A product the catalog sells.
public struct Product: Sendable, Equatable, Codable {
    public let id: Int
    public let name: String
    /// In whole euros.
    public let price: Int

    public init(id: Int, name: String, price: Int) {
        self.id = id
        self.name = name
        self.price = price
    }
}

/// What the repository adds to the backend's errors.
public enum CatalogError: Error, Equatable {
    case productNotFound(Int)
}

/// A product's reviews, summed up.
public struct ReviewDigest: Sendable, Equatable, Codable {
    public let product: Product
    /// `nil` when there are no reviews.
    public let averageStars: Double?
    public let reviews: [Review]

    public init(product: Product, reviews: [Review]) {
        self.product = product
        self.reviews = reviews
        averageStars = reviews.isEmpty ? nil : Double(reviews.map(\.stars).reduce(0, +)) / Double(reviews.count)
    }
}

/// The catalog's promise-based repository.
///
/// Every method takes a `CancellationToken`. Cancelling it rejects the returned promise at once
/// with `VowError.cancelled` and stops the work behind it: the backend call (`BackendCall.cancel()`)
/// or the async Task. The repository counts the promises it has handed out that are still pending,
/// and the backend calls it has stopped through a token, so the tests (and `GET /legacy`) can see
/// that nothing is left behind.
public final class CatalogRepository: Sendable {
    public let backend: CatalogBackend
    public let reviewsService: ReviewsService
    private let log: ServiceLog
    private let pending = CallCounter()
    private let stoppedThroughTokens = CallCounter()

    public init(backend: CatalogBackend, reviewsService: ReviewsService, log: ServiceLog) {
        self.backend = backend
        self.reviewsService = reviewsService
        self.log = log
    }

    /// Promises made by this repository that have not settled yet.
    public var promisesPending: Int {
        pending.value
    }

    /// Backend calls stopped because their promise's token was cancelled.
    public var callsStoppedThroughTokens: Int {
        stoppedThroughTokens.value
    }

    // MARK: - Callbacks wrapped in promises

    /// The product with `id`; rejects with `CatalogError.productNotFound` if there is none.
    public func product(id: Int, cancellation token: CancellationToken?) -> Promise<Product> {
        tracked(Promise(cancellation: token) { seal in
            let call = backend.fetchProduct(id: id) { record, error in
                if let record {
                    seal.fulfill(Product(id: record.id, name: record.name, price: record.price))
                } else {
                    // The backend's convention: neither a record nor an error means "no such product".
                    seal.reject(error ?? CatalogError.productNotFound(id))
                }
            }
            seal.onCancel { self.stop(call, "lookup of product \(id)") }
        })
    }

    /// How many of product `productID` the warehouse holds; rejects with `BackendError.unavailable`
    /// if that warehouse's stock system is down.
    public func stock(productID: Int, warehouse: String, cancellation token: CancellationToken?) -> Promise<Int> {
        tracked(Promise(cancellation: token) { seal in
            let call = backend.fetchStock(productID: productID, warehouse: warehouse) { result in
                seal.resolve(result)
            }
            seal.onCancel { self.stop(call, "stock lookup of product \(productID) in \(warehouse)") }
        })
    }

    /// Counts product `productID` shelf by shelf (slow: `shelves` steps of the backend's timing).
    public func auditStock(productID: Int, shelves: Int, cancellation token: CancellationToken?) -> Promise<Int> {
        tracked(Promise(cancellation: token) { seal in
            let call = backend.auditStock(productID: productID, shelves: shelves) { result in
                seal.resolve(result)
            }
            seal.onCancel { self.stop(call, "audit of product \(productID)") }
        })
    }

    // MARK: - Promises over new async code

    /// The product's reviews, summed up: a promise chain, like the rest of this layer, that calls
    /// the async reviews service through `Promise(cancellation:) { try await ... }`.
    ///
    /// Cancelling `token` rejects the promise at once and cancels whichever step is running: the
    /// backend lookup through its call, or the reviews Task (which stops at its next `await`).
    public func reviewDigest(productID: Int, cancellation token: CancellationToken?) -> Promise<ReviewDigest> {
        tracked(product(id: productID, cancellation: token).then(on: nil) { [reviewsService, log] product in
            self.tracked(Promise(cancellation: token) {
                try await withTaskCancellationHandler {
                    try await reviewsService.reviews(forProduct: product.id)
                } onCancel: {
                    log("repo    | token cancelled: the Task fetching the reviews of product \(product.id) is cancelled")
                }
            }).map(on: nil) { reviews in
                ReviewDigest(product: product, reviews: reviews)
            }
        })
    }

    // MARK: - Bookkeeping

    /// Counts `promise` as pending until it settles.
    private func tracked<T: Sendable>(_ promise: Promise<T>) -> Promise<T> {
        pending.increment()
        // `pipe(to:)` observes the outcome without making a new promise. It counts as handling a
        // rejection, which is fine here: every caller awaits the promise anyway.
        promise.pipe(to: { [pending] _ in pending.decrement() })
        return promise
    }

    /// A promise's token was cancelled: stop the backend call behind it.
    private func stop(_ call: BackendCall, _ what: String) {
        stoppedThroughTokens.increment()
        log("repo    | token cancelled: stopping the \(what)")
        call.cancel()
    }
}
