import ExampleSupport
import Foundation
import Vow

// The old layer: a repository written when the codebase used promises everywhere. It stays
// promise-based; the new async handlers on top of it await its promises.

/// A product the catalog sells.
public struct Product: Sendable, Equatable {
    public let id: Int
    public let name: String
}

/// What the repository can fail with.
public enum CatalogError: Error, Equatable {
    case productNotFound(Int)
}

/// The catalog's data store, with a simulated network latency on every call.
public final class CatalogRepository: Sendable {
    /// The warehouses every product is stocked in, and how long each takes to answer.
    public static let warehouses = ["Berlin", "Dublin", "Osaka"]
    static let warehouseLatency = ["Berlin": 0.01, "Dublin": 0.03, "Osaka": 0.02]

    /// Products with how long their lookup takes, their price and how long pricing takes. The Desk's
    /// pricing is stuck (a second), so its handler gives up on it; product 4 does not exist.
    static let catalog: [Int: (product: Product, lookupLatency: Double, price: Int, priceLatency: Double)] = [
        1: (Product(id: 1, name: "Kettle"), 0.01, 25, 0.02),
        2: (Product(id: 2, name: "Lamp"), 0.05, 40, 0.02),
        3: (Product(id: 3, name: "Desk"), 0.01, 180, 1.0),
        5: (Product(id: 5, name: "Chair"), 0.22, 95, 0.02),
    ]
    static let missingProductLatency = 0.02

    private let transcript: Transcript

    public init(transcript: Transcript) {
        self.transcript = transcript
    }

    /// The product with `id`; rejects with `CatalogError.productNotFound`.
    public func product(id: Int) -> Promise<Product> {
        guard let entry = Self.catalog[id] else {
            return answer(after: Self.missingProductLatency) { throw CatalogError.productNotFound(id) }
        }
        return answer(after: entry.lookupLatency) { entry.product }
    }

    /// How many of product `productID` the warehouse holds.
    public func stock(productID: Int, warehouse: String) -> Promise<Int> {
        // A made-up but fixed count, so a reader (and the tests) can check the sums.
        let count = productID + warehouse.count
        return answer(after: Self.warehouseLatency[warehouse] ?? 0) { count }
    }

    /// The product's price, from a slow pricing service that `token` can cancel.
    ///
    /// Unlike the other lookups, this one holds a call worth abandoning, so it takes a token and
    /// cancels the call when the token fires.
    public func price(productID: Int, cancellation token: CancellationToken?) -> Promise<Int> {
        Promise(cancellation: token) { seal in
            guard let entry = Self.catalog[productID] else {
                throw CatalogError.productNotFound(productID)
            }
            let call = PricingCall()
            DispatchQueue.global().asyncAfter(deadline: .now() + entry.priceLatency) {
                if !call.isCancelled {
                    seal.fulfill(entry.price)
                }
            }
            seal.onCancel { [transcript] in
                call.cancel()
                transcript.say("repository | price lookup for \(entry.product.name) cancelled")
            }
        }
    }

    /// Simulates latency with `after(seconds:)`: a timer, not a blocked thread. The answer is
    /// computed `on: nil`, on the timer's thread.
    private func answer<T: Sendable>(after seconds: Double, _ compute: @escaping @Sendable () throws -> T) -> Promise<T> {
        after(seconds: seconds).map(on: nil) { _ in try compute() }
    }
}

/// A call to the pricing service in flight (a real client would hold its HTTP request here).
final class PricingCall: @unchecked Sendable {
    // `@unchecked`: `lock` guards `cancelled`.
    private let lock = NSLock()
    private var cancelled = false

    func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }

    var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }
}
