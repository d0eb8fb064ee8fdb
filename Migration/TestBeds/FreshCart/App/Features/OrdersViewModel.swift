import Foundation
import PromiseKit

/// Past orders with their receipts, and "order again".
final class OrdersViewModel: @unchecked Sendable {
    private let orders: OrderRepository
    private let cart: CartRepository
    private(set) var rows: [String] = []

    init(orders: OrderRepository = .shared, cart: CartRepository = .shared) {
        self.orders = orders
        self.cart = cart
    }

    /// The orders, then their receipts; an order without a receipt still shows.
    func load() -> Promise<[String]> {
        return orders.orders().then { orders -> Guarantee<[String]> in
            self.orders.receipts(for: orders).map { receipts in
                orders.map { order in
                    let receipt = receipts.first(where: { $0.orderID == order.id })
                    return "#\(order.id) \(order.status) \(formatPrice(order.total))" + (receipt.map { ", \($0.lines) lines" } ?? "")
                }
            }
        }.get { rows in
            self.rows = rows
        }.log("orders")
    }

    /// Puts every product of a past order back in the cart.
    func orderAgain(_ id: OrderID) -> Promise<Cart> {
        return firstly {
            orders.productIDs(of: id)
        }.then { ids in
            self.cart.addAll(ids)
        }
    }

    /// Puts back what is still sold; says how many could not be added.
    func orderAgainWhatIsAvailable(_ id: OrderID) -> Promise<String> {
        return orders.productIDs(of: id).then { ids in
            self.cart.addAvailable(ids)
        }.map { outcome in
            outcome.failed == 0 ? "Added \(outcome.added) items" : "Added \(outcome.added) items; \(outcome.failed) no longer sold"
        }
    }
}
