import Foundation
import PromiseKit

/// The order history.
final class OrdersViewController: ViewController, @unchecked Sendable {
    let table = TableView(name: "orders.list")
    let status = Label(name: "orders.status")
    let spinner = ActivityIndicator(name: "orders.spinner")
    let model: OrdersViewModel
    var onTrack: ((OrderID) -> Void)?

    init(model: OrdersViewModel = OrdersViewModel()) {
        self.model = model
        super.init(title: "Orders")
    }

    override func viewDidLoad() {
        spinner.startAnimating()
        model.load().done { rows in
            self.table.reload(rows)
        }.catch { error in
            self.status.text = describe(error)
        }.finally {
            self.spinner.stopAnimating()
        }
    }

    func orderAgain(_ id: OrderID) {
        status.text = "Adding order \(id) to your cart"
        model.orderAgain(id).done { cart in
            self.status.text = "Cart has \(cart.lines.count) lines"
        }.catch { error in
            let alert = UIAlertController(title: "Order again", message: describe(error))
            alert.addAction(UIAlertAction(title: "Add What Is Available", style: .default) { _ in
                self.model.orderAgainWhatIsAvailable(id).done { message in
                    self.status.text = message
                }.cauterize()
            })
            alert.addAction(UIAlertAction(title: "Cancel", style: .cancel))
            self.present(alert, animated: true)
        }
    }
}
