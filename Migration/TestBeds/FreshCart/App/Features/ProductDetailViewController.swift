import Foundation
import PromiseKit

/// One product: price, rating, reviews, add to cart and rate it.
final class ProductDetailViewController: ViewController, @unchecked Sendable {
    let productID: ProductID
    let name = Label(name: "product.name")
    let rating = Label(name: "product.rating")
    let status = Label(name: "product.status")
    let addButton = Button(title: "Add to Cart")
    let spinner = ActivityIndicator(name: "product.spinner")
    private let catalog: CatalogRepository
    private let reviews: ReviewService
    private let cart: CartRepository

    init(productID: ProductID, catalog: CatalogRepository = .shared, reviews: ReviewService = .shared, cart: CartRepository = .shared) {
        self.productID = productID
        self.catalog = catalog
        self.reviews = reviews
        self.cart = cart
        super.init(title: "Product \(productID)")
    }

    override func viewDidLoad() {
        addButton.addAction { [weak self] in
            guard let self else { return }
            self.addToCart()
        }
        load()
    }

    func load() {
        spinner.startAnimating()
        catalog.product(productID).done { product in
            self.name.text = "\(product.name), \(formatPrice(product.price))"
            self.addButton.isEnabled = product.inStock
            // The rating is secondary: it loads once the product shows.
            self.reviews.averageStars(of: product.id).done { stars in
                guard let stars else {
                    self.rating.text = "No reviews yet"
                    return
                }
                self.rating.text = "\(Int(stars * 10) / 10) stars"
            }
        }.ensure {
            self.spinner.stopAnimating()
        }.catch(policy: .allErrors) { error in
            self.name.text = describe(error)
        }
    }

    func addToCart() {
        addButton.isEnabled = false
        cart.add(productID, quantity: 1)
            .trackActivity(ActivityTracker.shared)
            .done { cart in
                self.status.text = "In your cart: \(cart.lines.map(\.name).joined(separator: ", "))"
            }.ensure {
                self.addButton.isEnabled = true
            }.catch { error in
                self.status.text = describe(error)
            }
    }

    /// The shopper taps a star.
    func rate(_ stars: Int) {
        reviews.post(stars: stars, for: productID).then {
            self.reviews.averageStars(of: self.productID)
        }.done { average in
            self.status.text = "Thanks for rating"
            if let average { self.rating.text = "\(Int(average * 10) / 10) stars" }
        }.catch { error in
            self.status.text = describe(error)
        }
    }
}
