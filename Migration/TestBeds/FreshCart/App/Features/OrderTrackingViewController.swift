import Foundation
import PromiseKit

/// A placed order on its way: polls until it is delivered.
final class OrderTrackingViewController: ViewController, @unchecked Sendable {
    let orderID: OrderID
    let status = Label(name: "tracking.status")
    let eta = Label(name: "tracking.eta")
    private let orders: OrderRepository
    private var stopped = false

    init(orderID: OrderID, orders: OrderRepository = .shared) {
        self.orderID = orderID
        self.orders = orders
        super.init(title: "Order \(orderID)")
    }

    override func viewDidLoad() {
        follow()
    }

    func follow() {
        orders.followDelivery(of: orderID, every: 0.01, limit: 4) { [weak self] update in
            guard let self, !self.stopped else { return }
            self.eta.text = update.minutesAway > 0 ? "\(update.minutesAway) min away" : "Arriving"
        }.done { [weak self] last in
            guard let self else { return }
            if self.stopped {
                Analytics.shared.track("tracking left early")
                return
            }
            self.status.text = last.status == "delivered" ? "Delivered" : "Still on its way (\(last.status))"
        }.catch { [weak self] error in
            self?.status.text = "Tracking unavailable: \(describe(error))"
        }
    }

    /// The shopper left the screen: updates that still arrive are ignored.
    func stop() {
        stopped = true
    }
}
