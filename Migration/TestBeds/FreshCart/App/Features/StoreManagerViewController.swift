import Foundation
import PromiseKit

/// The store manager's tools, in the same app: stock reports, a product lookup that asks both
/// catalog sources, and the last receipt with the delivered totals.
final class StoreManagerViewController: ViewController, @unchecked Sendable {
    let report = Label(name: "manager.report")
    let lookup = Label(name: "manager.lookup")
    let totals = Label(name: "manager.totals")
    private let inventory: InventoryService
    private let reorder: ReorderService

    init(inventory: InventoryService = .shared, reorder: ReorderService = .shared) {
        self.inventory = inventory
        self.reorder = reorder
        super.init(title: "Manager")
    }

    func sendReport(for ids: [ProductID]) {
        inventory.sendStockReport(for: ids).done { count in
            self.report.text = "\(count) in stock, report sent"
        }.catch { error in
            self.report.text = describe(error)
        }
    }

    func lookUp(_ id: ProductID) {
        inventory.fastestProduct(id).done { product in
            self.lookup.text = product.name
        }.catch { error in
            self.lookup.text = describe(error)
        }
    }

    func showTotals() {
        reorder.lastReceipt().then { receipt in
            self.reorder.deliveredTotals().map { "receipt \(receipt.orderID), totals: \($0)" }
        }.done { text in
            self.totals.text = text
        }.catch { error in
            self.totals.text = describe(error)
        }
    }
}
