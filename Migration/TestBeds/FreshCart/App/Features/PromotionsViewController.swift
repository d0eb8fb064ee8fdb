import Foundation
import PromiseKit

/// Promotions: the banner, a live price of the cart, and coupon codes typed by hand.
final class PromotionsViewController: ViewController, @unchecked Sendable {
    let headline = Label(name: "promos.headline")
    let price = Label(name: "promos.price")
    let status = Label(name: "promos.status")
    private let catalog: CatalogRepository
    private let promo: PromoService
    private let cart: CartRepository

    init(catalog: CatalogRepository = .shared, promo: PromoService = .shared, cart: CartRepository = .shared) {
        self.catalog = catalog
        self.promo = promo
        self.cart = cart
        super.init(title: "Promotions")
    }

    override func viewDidLoad() {
        catalog.banner().done { banner in
            self.headline.text = banner.headline
        }
        cart.cart().done { cart in
            self.promo.publishQuote(for: cart) { result in
                DispatchQueue.main.async {
                    switch result {
                    case .fulfilled(let quote): self.price.text = "Cart total \(formatPrice(quote.total))"
                    case .rejected(let error): self.price.text = describe(error)
                    }
                }
            }
        }.catch { error in
            self.price.text = describe(error)
        }
    }

    /// The shopper pasted a list of codes.
    func redeemTapped(_ text: String) {
        redeem(text.components(separatedBy: ",")).cauterize()
    }

    /// Several codes at once ("SPRING, FRESH"): the valid ones are kept, the rest reported.
    func redeem(_ codes: [String]) -> Promise<[Coupon]> {
        let checks = codes.map { code in
            promo.validate(code).map { Optional($0) }.recover { error -> Guarantee<Coupon?> in
                Effects.shared.record("promos: skipped \(code)")
                return Guarantee.value(nil)
            }
        }
        return when(fulfilled: checks.map { Promise($0) }).map { coupons in
            coupons.compactMap { $0 }
        }.get { coupons in
            self.status.text = coupons.isEmpty ? "No valid codes" : "Saved " + coupons.map(\.code).joined(separator: ", ")
        }
    }
}
