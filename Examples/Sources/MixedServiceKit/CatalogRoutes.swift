import Hummingbird
import Vow

// The newest HTTP layer: async route handlers over the promise repository.
//
// Each handler awaits the repository's promises with `try await promise.value`, and hands the
// repository a token from `withCancellationToken`, so that when the request's Task is cancelled
// (its client disconnected) the legacy work stops instead of running on for nobody. The same
// token also carries a deadline: legacy work that takes too long is stopped and answered with 504.

/// A product page: the product and its stock in every warehouse.
public struct ProductPage: Sendable, Equatable, Codable, ResponseEncodable {
    public let product: Product
    /// Items per warehouse, keyed by warehouse name.
    public let stock: [String: Int]

    public init(product: Product, stock: [String: Int]) {
        self.product = product
        self.stock = stock
    }
}

/// The outcome of a stock audit.
public struct AuditReport: Sendable, Equatable, Codable, ResponseEncodable {
    public let productID: Int
    public let shelves: Int
    public let items: Int

    public init(productID: Int, shelves: Int, items: Int) {
        self.productID = productID
        self.shelves = shelves
        self.items = items
    }
}

/// What `GET /legacy` reports: the leftovers of every request so far, all zero when idle.
public struct LegacyStatus: Sendable, Equatable, Codable, ResponseEncodable {
    /// Promises the repository has handed out that have not settled.
    public let promisesPending: Int
    /// Backend calls whose completion has not run.
    public let backendCallsInFlight: Int
    /// Async review fetches still running.
    public let reviewFetchesInFlight: Int
    /// Backend calls stopped through a cancelled token, since the service started.
    public let callsStoppedThroughTokens: Int

    public init(promisesPending: Int, backendCallsInFlight: Int, reviewFetchesInFlight: Int, callsStoppedThroughTokens: Int) {
        self.promisesPending = promisesPending
        self.backendCallsInFlight = backendCallsInFlight
        self.reviewFetchesInFlight = reviewFetchesInFlight
        self.callsStoppedThroughTokens = callsStoppedThroughTokens
    }

    /// The status of `repository`, the backend and the reviews service behind it, now.
    public init(of repository: CatalogRepository) {
        self.init(
            promisesPending: repository.promisesPending,
            backendCallsInFlight: repository.backend.callsInFlight,
            reviewFetchesInFlight: repository.reviewsService.fetchesInFlight,
            callsStoppedThroughTokens: repository.callsStoppedThroughTokens
        )
    }

    /// `true` when nothing is pending or in flight.
    public var isIdle: Bool {
        promisesPending == 0 && backendCallsInFlight == 0 && reviewFetchesInFlight == 0
    }
}

extension ReviewDigest: ResponseEncodable {}

/// Thrown when legacy work does not finish within the service's deadline; answered with 504.
public struct LegacyDeadlineExceeded: Error, Equatable {
    public let seconds: Double
}

/// The service's routes.
public struct CatalogRoutes: Sendable {
    /// The most shelves an audit may count.
    public static let maximumShelves = 100

    let repository: CatalogRepository
    /// How long a request's legacy work may take, in seconds.
    let legacyDeadline: Double

    /// Registers every route on `router`.
    func add(to router: Router<some RequestContext>) {
        router.get("/") { _, _ in
            """
            MixedService: async handlers over a promise repository over callbacks.
              GET /products/{id}                  a product and its stock (try 1, 4, 6, 7, x)
              GET /products/{id}/audit?shelves=N  a slow legacy audit: disconnect to cancel it
              GET /products/{id}/reviews          promise code over async code (3 is slow)
              GET /legacy                         pending promises and calls in flight

            """
        }
        router.get("/products/:id") { _, context in
            try await productPage(id: productID(in: context))
        }
        router.get("/products/:id/audit") { request, context in
            try await audit(productID: productID(in: context), shelves: shelves(in: request))
        }
        router.get("/products/:id/reviews") { _, context in
            try await reviews(productID: productID(in: context))
        }
        router.get("/legacy") { _, _ in
            LegacyStatus(of: repository)
        }
    }

    // MARK: - Handlers

    /// The product, then its stock in every warehouse at once.
    func productPage(id: Int) async throws -> ProductPage {
        try await withLegacyToken { token in
            let product = try await repository.product(id: id, cancellation: token).value

            // Fan out to every warehouse. `when(fulfilled:cancelling:)` keeps the order asked and,
            // as soon as one lookup fails, cancels `lookups`, which stops the others.
            let lookups = CancellationTokenSource(linkedTo: [token])
            let counts = try await when(
                fulfilled: CatalogBackend.warehouses.map { warehouse in
                    repository.stock(productID: id, warehouse: warehouse, cancellation: lookups.token)
                },
                cancelling: lookups
            ).value
            return ProductPage(product: product, stock: Dictionary(uniqueKeysWithValues: zip(CatalogBackend.warehouses, counts)))
        }
    }

    /// A slow legacy audit: the route to disconnect from, to watch the work stop.
    func audit(productID: Int, shelves: Int) async throws -> AuditReport {
        try await withLegacyToken { token in
            // Make sure the product exists first, so a typo is a 404 rather than a long wait.
            _ = try await repository.product(id: productID, cancellation: token).value
            let items = try await repository.auditStock(productID: productID, shelves: shelves, cancellation: token).value
            return AuditReport(productID: productID, shelves: shelves, items: items)
        }
    }

    /// The other direction: the repository's promise chain calls the async reviews service, and
    /// this async handler awaits the chain. The token crosses both bridges: cancelling it cancels
    /// the promise, whose token cancels the reviews Task.
    func reviews(productID: Int) async throws -> ReviewDigest {
        try await withLegacyToken { token in
            try await repository.reviewDigest(productID: productID, cancellation: token).value
        }
    }

    // MARK: - Cancellation and deadline

    /// Runs `body` with a token for the legacy work it starts. The token is cancelled when the
    /// request's Task is (the client went away) or when `legacyDeadline` passes, whichever comes
    /// first; either way the legacy work given the token stops.
    ///
    /// - Throws: `LegacyDeadlineExceeded` if the deadline stopped the work; otherwise what `body`
    ///   throws (a `CancellationError` or `VowError.cancelled` when the Task was cancelled).
    func withLegacyToken<Value>(_ body: (CancellationToken) async throws -> Value) async throws -> Value {
        // `withCancellationToken` turns the Task's cancellation into a token: awaiting a promise
        // alone would only stop *waiting* for it, and leave the work behind it running.
        try await withCancellationToken { requestToken in
            let deadline = CancellationTokenSource(linkedTo: [requestToken])
            deadline.cancel(after: legacyDeadline)
            // Work that finishes in time disarms the timer rather than leave it to fire for nothing.
            defer { deadline.cancel(after: .never) }
            do {
                return try await body(deadline.token)
            } catch where error.isCancelled && deadline.isCancellationRequested && !requestToken.isCancellationRequested {
                throw LegacyDeadlineExceeded(seconds: legacyDeadline)
            }
        }
    }

    // MARK: - Input

    private func productID(in context: some RequestContext) throws -> Int {
        let text = context.parameters.get("id") ?? ""
        guard let id = Int(text), id > 0 else {
            throw HTTPError(.badRequest, message: "A product id is a positive whole number, not '\(text)'.")
        }
        return id
    }

    private func shelves(in request: Request) throws -> Int {
        guard let text = request.uri.queryParameters["shelves"] else {
            return 10
        }
        guard let shelves = Int(text), (1...Self.maximumShelves).contains(shelves) else {
            throw HTTPError(.badRequest, message: "shelves must be a whole number from 1 to \(Self.maximumShelves), not '\(text)'.")
        }
        return shelves
    }
}
