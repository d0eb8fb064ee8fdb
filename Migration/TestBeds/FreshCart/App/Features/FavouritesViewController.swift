import Foundation
import PromiseKit

/// Saved products, with their prices, and a stock check before adding them all.
final class FavouritesViewController: ViewController, @unchecked Sendable {
    let list = TableView(name: "favourites.list")
    let status = Label(name: "favourites.status")
    let addAllButton = Button(title: "Add All")
    private let catalog: CatalogRepository
    private let inventory: InventoryService
    private let cart: CartRepository
    private var favourites: [ProductID] = [1, 2, 3]

    init(catalog: CatalogRepository = .shared, inventory: InventoryService = .shared, cart: CartRepository = .shared) {
        self.catalog = catalog
        self.inventory = inventory
        self.cart = cart
        super.init(title: "Favourites")
    }

    override func viewDidLoad() {
        addAllButton.addAction { [unowned self] in
            self.addAll()
        }
        catalog.favouritePrices().done { prices in
            self.list.reload(prices.map(formatPrice))
            self.status.text = "\(prices.count) favourites"
        }.catch { error in
            self.status.text = describe(error)
        }
    }

    /// Checks stock for every favourite, then adds the ones in stock.
    func addAll() {
        addAllButton.isEnabled = false
        inventory.inStock(favourites).then { available -> Promise<Cart> in
            guard !available.isEmpty else { throw AppError.outOfStock("Everything") }
            return self.cart.addAll(available)
        }.done { cart in
            self.status.text = "Cart has \(cart.lines.count) lines"
        }.ensure {
            self.addAllButton.isEnabled = true
        }.catch { error in
            self.status.text = describe(error)
        }
    }

    /// Shows the products themselves, one request each.
    func showDetails() {
        catalog.products(favourites).mapValues { "\($0.name) \(formatPrice($0.price))" }.done { rows in
            self.list.reload(rows)
        }.cauterize()
    }
}
