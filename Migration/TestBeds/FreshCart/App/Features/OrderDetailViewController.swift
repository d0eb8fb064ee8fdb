import Foundation
import PromiseKit

/// One past order: its status, receipt and latest tracking, loaded together; and a suggestion
/// to buy again.
final class OrderDetailViewController: ViewController, @unchecked Sendable {
    let orderID: OrderID
    let summary = Label(name: "order.summary")
    let tracking = Label(name: "order.tracking")
    let suggestion = Label(name: "order.suggestion")
    let spinner = ActivityIndicator(name: "order.spinner")
    private let orders: OrderRepository
    private let reorder: ReorderService

    init(orderID: OrderID, orders: OrderRepository = .shared, reorder: ReorderService = .shared) {
        self.orderID = orderID
        self.orders = orders
        self.reorder = reorder
        super.init(title: "Order #\(orderID)")
    }

    override func viewDidLoad() {
        spinner.startAnimating()
        let receipt = orders.receipts(for: [Order(id: orderID, status: "", total: 0)])
        when(fulfilled: orders.order(orderID), Promise(receipt), orders.tracking(orderID))
            .done { order, receipts, update in
                let lines = receipts.first.map { "\($0.lines) lines" } ?? "no receipt"
                self.summary.text = "#\(order.id) \(order.status), \(lines), \(formatPrice(order.total))"
                self.tracking.text = update.status
            }.ensureThen {
                self.reorder.suggestionText(in: 1).done { text in
                    self.suggestion.text = text
                }
            }.ensure {
                self.spinner.stopAnimating()
            }.catch { error in
                self.summary.text = describe(error)
            }
    }
}
