import Foundation
import PromiseKit

/// One store: its categories as tabs and the products of the selected one.
final class StoreViewController: ViewController, @unchecked Sendable {
    let storeID: StoreID
    let tabs = TableView(name: "store.categories")
    let shelf = TableView(name: "store.products")
    let status = Label(name: "store.status")
    let spinner = ActivityIndicator(name: "store.spinner")
    private let catalog: CatalogRepository
    private let cart: CartRepository
    private var categories: [Category] = []
    private var products: [Product] = []
    var onOpenProduct: ((ProductID) -> Void)?

    init(storeID: StoreID, catalog: CatalogRepository = .shared, cart: CartRepository = .shared) {
        self.storeID = storeID
        self.catalog = catalog
        self.cart = cart
        super.init(title: "Store \(storeID)")
    }

    override func viewDidLoad() {
        spinner.startAnimating()
        catalog.openStore(storeID).then { [weak self] store -> Promise<[Category]> in
            guard let self = self else { throw PMKError.cancelled }
            self.title = store.name
            return Promise(self.catalog.categories(in: store.id))
        }.done { [weak self] categories in
            guard let self = self else { return }
            self.categories = categories
            self.tabs.reload(categories.map(\.name))
            guard let first = categories.first else {
                self.status.text = "Nothing on the shelves yet."
                return
            }
            self.select(first)
        }.ensure { [weak self] in
            self?.spinner.stopAnimating()
        }.catch { [weak self] error in
            self?.status.text = describe(error)
        }
    }

    /// The shopper picks a category tab.
    func select(_ category: Category) {
        status.text = "Loading \(category.name)"
        catalog.products(in: storeID, category: category.id).done { [unowned self] products in
            self.products = products
            self.shelf.reload(products.map { "\($0.name) \(formatPrice($0.price))" + ($0.inStock ? "" : " (sold out)") })
            self.status.text = "\(products.count) products"
        }.catch { [unowned self] error in
            self.status.text = describe(error)
        }
    }

    func selectCategory(at index: Int) {
        guard index < categories.count else { return }
        select(categories[index])
    }

    /// "+" on a product row: adds it, then shows the cheapest alternative when it is sold out.
    func quickAdd(at index: Int) {
        guard index < products.count else { return }
        let product = products[index]
        cart.add(product.id).done { cart in
            self.status.text = "Added \(product.name); \(cart.lines.count) in cart"
        }.catch { error in
            guard case AppError.outOfStock = error else {
                self.status.text = describe(error)
                return
            }
            self.catalog.cheapest(in: self.storeID, category: product.categoryID).done { alternative in
                self.status.text = "\(product.name) is sold out. Try \(alternative.name)?"
            }.catch { _ in
                self.status.text = "\(product.name) is sold out."
            }
        }
    }

    /// VoiceOver reads the shelf when the shopper asks.
    func announceShelf(category: Int) {
        readShelf(category: category).done { text in
            self.status.text = "Shelf: \(text)"
        }.cauterize()
    }

    /// The names of what is in stock in the selected category, for the accessibility summary.
    func readShelf(category: Int) -> Promise<String> {
        return catalog.availableNames(in: storeID, category: category).map { names in
            names.isEmpty ? "Nothing in stock" : names.joined(separator: ", ")
        }
    }
}
