import Foundation
import PromiseKit

/// Coupons and quotes.
final class PromoService: @unchecked Sendable {
    static let shared = PromoService()
    private let api: APIClient

    init(api: APIClient = .shared) {
        self.api = api
    }

    /// A coupon the server accepts; an unknown code is `AppError.invalidCoupon`.
    func validate(_ code: String) -> Promise<Coupon> {
        let trimmed = code.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty {
            return Promise(error: AppError.invalidCoupon(code))
        }
        return api.request(.coupon(trimmed), as: Coupon.self).recover { error -> Promise<Coupon> in
            switch error {
            case APIError.notFound: throw AppError.invalidCoupon(trimmed)
            default: throw error
            }
        }
    }

    func quote(for cart: Cart, coupon: Coupon?) -> Promise<Quote> {
        api.request(.quote(cartID: cart.id, coupon: coupon?.code), as: Quote.self)
    }

    /// The quote with the coupon if it is valid, without it if not.
    func bestQuote(for cart: Cart, code: String?) -> Promise<Quote> {
        guard let code else {
            return quote(for: cart, coupon: nil)
        }
        return validate(code).map { Optional($0) }.recover { error -> Guarantee<Coupon?> in
            Effects.shared.record("promo: \(describe(error))")
            return Guarantee.value(nil)
        }.then { coupon in
            self.quote(for: cart, coupon: coupon)
        }
    }

    /// Hands the quote to a callback-based listener (the price widget still uses callbacks).
    func publishQuote(for cart: Cart, to listener: @escaping @Sendable (PromiseKit.Result<Quote>) -> Void) {
        quote(for: cart, coupon: nil).pipe(to: listener)
    }
}
