import Foundation
import PromiseKit

/// Stock levels. The catalog has a mirror that answers for the same products: whichever is
/// faster wins, and stock checks for a whole cart run side by side on a background queue.
final class InventoryService: @unchecked Sendable {
    static let shared = InventoryService()
    private let api: APIClient
    private let worker = DispatchQueue(label: "inventory")

    init(api: APIClient = .shared) {
        self.api = api
    }

    /// The product from whichever source answers first.
    func fastestProduct(_ id: ProductID) -> Promise<Product> {
        let primary = api.request(.product(id), as: Product.self)
        let mirror = api.request(.product(id + 1000), as: Product.self).map { product in
            Product(id: id, name: product.name, price: product.price, inStock: product.inStock, categoryID: product.categoryID)
        }
        return race(primary, mirror)
    }

    /// Which of `ids` are in stock, checked together; any failure fails the whole check.
    func inStock(_ ids: [ProductID]) -> Promise<[ProductID]> {
        let checks = ids.map { id in
            api.request(.product(id), as: Product.self)
        }
        return when(fulfilled: checks).map(on: worker) { products in
            products.filter { $0.inStock }.map(\.id)
        }
    }

    /// A stock report for the store manager, sent once the counts are ready; the report is
    /// marked sent even when sending fails, after the upload was at least tried.
    func sendStockReport(for ids: [ProductID]) -> Promise<Int> {
        return inStock(ids).then(on: worker) { available -> Promise<Int> in
            Effects.shared.record("inventory: \(available.count) of \(ids.count) in stock")
            return self.api.perform(.registerDevice, body: "report=\(available.count)").map { available.count }
        }.ensureThen {
            Analytics.shared.send("stock-report")
        }
    }
}
