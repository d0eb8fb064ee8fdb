import Foundation
import PromiseKit

/// The steps of a checkout, as the shopper sees them in the progress bar.
enum CheckoutStep: String {
    case validating = "checking your cart"
    case quoting = "pricing"
    case slot = "finding a delivery slot"
    case paying = "paying"
    case placing = "placing the order"
}

/// One checkout in progress. The shopper can cancel it between steps: the next step sees the
/// flag and throws `PMKError.cancelled`, which the screen's `catch(policy: .allErrors)` shows.
final class CheckoutSession: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    let onStep: @Sendable (CheckoutStep) -> Void

    init(onStep: @escaping @Sendable (CheckoutStep) -> Void) {
        self.onStep = onStep
    }

    var isCancelled: Bool {
        lock.lock(); defer { lock.unlock() }
        return cancelled
    }

    func cancel() {
        lock.lock(); cancelled = true; lock.unlock()
    }

    /// Throws if the shopper cancelled; otherwise says which step starts.
    func enter(_ step: CheckoutStep) throws {
        if isCancelled { throw PMKError.cancelled }
        onStep(step)
    }
}

/// Takes a cart to a placed order: validate, quote, reserve a slot, pay, place. A failure after
/// the slot was reserved gives the slot back before the error goes on.
final class CheckoutService: @unchecked Sendable {
    static let shared = CheckoutService()
    private let cart: CartRepository
    private let promo: PromoService
    private let delivery: DeliveryService
    private let orders: OrderRepository

    init(cart: CartRepository = .shared, promo: PromoService = .shared, delivery: DeliveryService = .shared, orders: OrderRepository = .shared) {
        self.cart = cart
        self.promo = promo
        self.delivery = delivery
        self.orders = orders
    }

    func checkout(coupon: String?, payment: PaymentProcessing, session: CheckoutSession) -> Promise<Order> {
        return firstly { () -> Promise<Cart> in
            try session.enter(.validating)
            return cart.validatedCart()
        }.then { cart -> Promise<(Cart, Quote)> in
            try session.enter(.quoting)
            return self.promo.bestQuote(for: cart, code: coupon).map { (cart, $0) }
        }.then { cart, quote -> Promise<(Quote, Reservation)> in
            try session.enter(.slot)
            return self.delivery.firstFreeSlot(for: cart.storeID).then { slot in
                self.delivery.reserve(slot)
            }.map { (quote, $0) }
        }.then { quote, reservation in
            self.pay(quote: quote, reservation: reservation, payment: payment, session: session)
        }.get { order in
            Analytics.shared.track("order \(order.id) placed")
        }
    }

    /// Pays and places the order; on any failure the reservation is released first.
    private func pay(quote: Quote, reservation: Reservation, payment: PaymentProcessing, session: CheckoutSession) -> Promise<Order> {
        return firstly { () -> Promise<PaymentAuthorization> in
            try session.enter(.paying)
            return payment.authorize(amount: quote.total)
        }.then { authorization -> Promise<Order> in
            try session.enter(.placing)
            return self.orders.place(reservation: reservation, authorization: authorization)
        }.recover(policy: .allErrors) { error -> Promise<Order> in
            return self.delivery.release(reservation).then { () -> Promise<Order> in
                Effects.shared.record("checkout: released \(reservation.reservationID)")
                return Promise(error: error)
            }
        }
    }

    /// A quick estimate for the cart badge: the quote, or the subtotal if pricing is slow.
    func estimate(for cart: Cart) -> Guarantee<Cents> {
        let quoted = promo.quote(for: cart, coupon: nil).map { $0.total }
        let fallback = after(seconds: 0.3).map { cart.subtotal }
        return race(quoted.recover { _ in fallback }, fallback)
    }
}
