import ExampleSupport
import Vow

// The new layer: request handlers written with async/await, on top of the promise-based
// repository. They await its promises with `try await ... .value`, and use Vow's combinators where
// promises say it best: `when(fulfilled:)` to fan out, `race` to put a deadline on a call.

/// A request for a product page.
public struct ProductPageRequest: Sendable, Equatable {
    public let productID: Int

    public init(productID: Int) {
        self.productID = productID
    }
}

/// What a product page shows.
public struct ProductPage: Sendable, Equatable {
    public let productID: Int
    public let name: String
    /// `nil` when pricing did not answer in time: the page is still served, without a price.
    public let price: Int?
    /// Stock per warehouse, in `CatalogRepository.warehouses` order.
    public let stock: [Int]

    public init(productID: Int, name: String, price: Int?, stock: [Int]) {
        self.productID = productID
        self.name = name
        self.price = price
        self.stock = stock
    }
}

/// What the service answers a request with, as an HTTP handler would.
public struct Response: Sendable, Equatable {
    public let productID: Int
    /// 200, 404 for a product that does not exist, 500 for anything unexpected.
    public let status: Int
    public let body: String

    public init(productID: Int, status: Int, body: String) {
        self.productID = productID
        self.status = status
        self.body = body
    }
}

/// Builds product pages from the repository.
public struct ProductPageHandler: Sendable {
    /// Thrown by the timer that races the pricing call.
    struct PricingTimedOut: Error {}

    private let repository: CatalogRepository
    private let pricingTimeout: Double

    /// - Parameter pricingTimeout: How long a page waits for its price before going without.
    public init(repository: CatalogRepository, pricingTimeout: Double = 0.15) {
        self.repository = repository
        self.pricingTimeout = pricingTimeout
    }

    /// The page for `request`.
    ///
    /// - Throws: `CatalogError.productNotFound` from the repository, unchanged.
    public func handle(_ request: ProductPageRequest) async throws -> ProductPage {
        let product = try await repository.product(id: request.productID).value

        // Fan out: ask every warehouse at once. `when(fulfilled:)` gives the counts in the order
        // asked, however they arrive, and rejects as soon as any one lookup does.
        let stockLookups = CatalogRepository.warehouses.map { warehouse in
            repository.stock(productID: product.id, warehouse: warehouse)
        }
        let stock = try await when(fulfilled: stockLookups).value

        return ProductPage(productID: product.id, name: product.name, price: try await price(of: product), stock: stock)
    }

    /// The response to `request`: the page, or the error turned into a status, as the service's
    /// outermost layer does (a request never "fails" towards the client; it gets a 404).
    public func respond(to request: ProductPageRequest) async -> Response {
        do {
            let page = try await handle(request)
            let stock = zip(CatalogRepository.warehouses, page.stock).map { "\($0) \($1)" }.joined(separator: ", ")
            let price = page.price.map { "$\($0)" } ?? "(price unavailable)"
            return Response(productID: request.productID, status: 200, body: "\(page.name) \(price), in stock: \(stock)")
        } catch CatalogError.productNotFound(let id) {
            return Response(productID: request.productID, status: 404, body: "product \(id) not found")
        } catch {
            return Response(productID: request.productID, status: 500, body: "\(error)")
        }
    }

    /// The product's price, or `nil` if pricing takes longer than `pricingTimeout`; other pricing
    /// errors are thrown.
    private func price(of product: Product) async throws -> Int? {
        // `race` settles as the first of its promises to settle; it does not stop the loser by
        // itself. `cancelling:` then cancels `pricing`: if the deadline won, that cancels the
        // pricing call through its token (if the price won, it changes nothing).
        let pricing = CancellationTokenSource()
        let lookup = repository.price(productID: product.id, cancellation: pricing.token)
        let deadline = after(seconds: pricingTimeout).map(on: nil) { _ -> Int in throw PricingTimedOut() }
        do {
            return try await race(lookup, deadline, cancelling: pricing).value
        } catch is PricingTimedOut {
            return nil
        }
    }
}
