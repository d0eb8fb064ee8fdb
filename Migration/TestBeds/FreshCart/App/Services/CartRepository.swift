import Foundation
import PromiseKit

/// The shopper's cart, kept on the server. The repository keeps the last cart it saw, so that
/// screens can show it at once while a change is on its way.
final class CartRepository: @unchecked Sendable {
    static let shared = CartRepository()
    private let api: APIClient
    private let catalog: CatalogRepository
    private(set) var current: Cart?

    init(api: APIClient = .shared, catalog: CatalogRepository = .shared) {
        self.api = api
        self.catalog = catalog
    }

    func forget() {
        current = nil
    }

    /// The cart; the last one seen when the server cannot be reached.
    func cart() -> Promise<Cart> {
        return api.request(.cart, as: Cart.self).get { cart in
            self.current = cart
        }.recoverWith {
            self.current
        }
    }

    /// Adds a product after checking it is in stock; the cart as the server now has it.
    func add(_ productID: ProductID, quantity: Int = 1) -> Promise<Cart> {
        return firstly {
            catalog.product(productID)
        }.map { product -> Product in
            guard product.inStock else { throw AppError.outOfStock(product.name) }
            return product
        }.then { product in
            self.api.request(.addToCart(product.id, quantity: quantity), as: Cart.self)
        }.get { cart in
            self.current = cart
        }.tap { result in
            if case .fulfilled(let cart) = result {
                Analytics.shared.track("cart now has \(cart.lines.count) lines")
            }
        }
    }

    func remove(_ productID: ProductID) -> Promise<Cart> {
        return api.perform(.removeFromCart(productID)).then { _ in
            self.cart()
        }
    }

    /// Adds every product of a past order at once; fails if any of them fails.
    func addAll(_ productIDs: [ProductID]) -> Promise<Cart> {
        let additions = productIDs.map { id in
            api.perform(.addToCart(id, quantity: 1))
        }
        return when(fulfilled: additions).then { _ -> Promise<Cart> in
            self.cart()
        }
    }

    /// Adds what it can: the products that could not be added are named in the answer.
    func addAvailable(_ productIDs: [ProductID]) -> Guarantee<(added: Int, failed: Int)> {
        let additions = productIDs.map { id in
            api.perform(.addToCart(id, quantity: 1))
        }
        return when(resolved: additions).map { results in
            let added = results.filter { $0.isFulfilled }.count
            return (added: added, failed: results.count - added)
        }
    }

    /// The cart, checked line by line against the catalog: every product must still be in stock.
    func validatedCart() -> Promise<Cart> {
        return cart().then { cart -> Promise<Cart> in
            guard !cart.isEmpty else { throw AppError.emptyCart }
            let checks = cart.lines.map { line in
                self.catalog.product(line.productID).done { product in
                    guard product.inStock else { throw AppError.outOfStock(product.name) }
                }
            }
            return when(fulfilled: checks).map { cart }
        }
    }
}
