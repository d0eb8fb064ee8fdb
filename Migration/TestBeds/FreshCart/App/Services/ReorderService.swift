import Foundation
import PromiseKit

/// "Buy it again": suggestions from recent orders.
final class ReorderService: @unchecked Sendable {
    static let shared = ReorderService()
    private let orders: OrderRepository
    private let catalog: CatalogRepository

    init(orders: OrderRepository = .shared, catalog: CatalogRepository = .shared) {
        self.orders = orders
        self.catalog = catalog
    }

    /// The delivered orders' totals, newest first.
    func deliveredTotals() -> Promise<[Cents]> {
        return orders.orders()
            .filterValues { $0.status == "delivered" }
            .compactMapValues { $0.total > 0 ? $0.total : nil }
    }

    /// The first past order that still has a receipt.
    func lastReceipt() -> Promise<Receipt> {
        return orders.orders().thenMap { order in
            self.orders.receipts(for: [order])
        }.map { receipts in
            receipts.flatMap { $0 }
        }.firstValue
    }

    /// A product to suggest: the cheapest in stock of the first category of the shopper's store.
    func suggestion(in store: StoreID) -> Promise<Product> {
        return Promise(catalog.categories(in: store)).then { categories -> Promise<Product> in
            guard let first = categories.first else { throw AppError.outOfStock("Everything") }
            return self.catalog.cheapest(in: store, category: first.id)
        }
    }

    /// The suggestion's name, or a friendly default: never fails.
    func suggestionText(in store: StoreID) -> Guarantee<String> {
        return suggestion(in: store)
            .map { "Buy \($0.name) again?" }
            .recover { _ in Guarantee.value("Discover something new") }
    }
}
