import Foundation
import PromiseKit

/// The checkout flow: checkout screen, then the tracking screen once the order is placed.
final class CheckoutCoordinator: @unchecked Sendable {
    let navigation: NavigationController
    private let orders: OrderRepository
    private(set) var placed: Order?

    init(navigation: NavigationController, orders: OrderRepository = .shared) {
        self.navigation = navigation
        self.orders = orders
    }

    func start(coupon: String? = nil, payment: PaymentProcessing = CardPaymentProcessor()) {
        let checkout = CheckoutViewController(payment: payment)
        checkout.coupon = coupon
        checkout.onPlaced = { [weak self] order in
            self?.placed = order
            self?.confirm(order)
        }
        navigation.push(checkout, animated: true)
    }

    /// The order as the server now has it, then tracking.
    private func confirm(_ order: Order) {
        orders.order(order.id).done { confirmed in
            Effects.shared.record("checkout: confirmed \(confirmed.id) \(confirmed.status)")
            self.navigation.push(OrderTrackingViewController(orderID: confirmed.id), animated: true)
        }.catch { _ in
            // The order is placed either way; tracking can start from the order list later.
            Effects.shared.record("checkout: confirmation unavailable")
        }
    }
}
