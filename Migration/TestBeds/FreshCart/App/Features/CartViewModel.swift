import Foundation
import PromiseKit

/// The cart screen's state: the lines, the estimate, the coupon.
final class CartViewModel: @unchecked Sendable {
    private let repository: CartRepository
    private let checkout: CheckoutService
    private let promo: PromoService
    private(set) var cart: Cart?
    private(set) var estimate: Cents?
    private(set) var coupon: Coupon?
    var onChange: (() -> Void)?

    init(repository: CartRepository = .shared, checkout: CheckoutService = .shared, promo: PromoService = .shared) {
        self.repository = repository
        self.checkout = checkout
        self.promo = promo
    }

    /// The cart, then its estimate; the estimate never fails the load.
    func load() -> Promise<Cart> {
        return repository.cart().then { cart -> Promise<Cart> in
            self.cart = cart
            return Promise(self.checkout.estimate(for: cart)).map { estimate in
                self.estimate = estimate
                return cart
            }
        }.ensure(on: .main) {
            self.onChange?()
        }
    }

    func remove(_ productID: ProductID) -> Promise<Void> {
        return repository.remove(productID).done { cart in
            self.cart = cart
            self.onChange?()
        }
    }

    func apply(coupon code: String) -> Promise<Coupon> {
        return promo.validate(code).get { coupon in
            self.coupon = coupon
        }
    }

    /// Rows for the table.
    var rows: [String] {
        cart?.lines.map { "\($0.quantity) x \($0.name) \(formatPrice($0.total))" } ?? []
    }

    var summary: String {
        guard let cart else { return "" }
        let total = estimate.map(formatPrice) ?? formatPrice(cart.subtotal)
        return "\(cart.lines.count) items, about \(total)" + (coupon.map { " with \($0.code)" } ?? "")
    }
}
