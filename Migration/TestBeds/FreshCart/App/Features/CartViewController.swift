import Foundation
import PromiseKit

/// The cart: lines, a coupon field, and the checkout button.
final class CartViewController: ViewController, @unchecked Sendable {
    let table = TableView(name: "cart.lines")
    let summary = Label(name: "cart.summary")
    let status = Label(name: "cart.status")
    let couponField = TextField()
    let applyCouponButton = Button(title: "Apply")
    let checkoutButton = Button(title: "Checkout")
    let spinner = ActivityIndicator(name: "cart.spinner")
    let model: CartViewModel
    var onCheckout: ((Cart) -> Void)?

    init(model: CartViewModel = CartViewModel()) {
        self.model = model
        super.init(title: "Cart")
    }

    override func viewDidLoad() {
        model.onChange = { [weak self] in
            guard let self else { return }
            self.table.reload(self.model.rows)
            self.summary.text = self.model.summary
        }
        applyCouponButton.addAction { [weak self] in
            guard let self = self else { return }
            self.applyCoupon()
        }
        checkoutButton.addAction {
            guard let cart = self.model.cart else { return }
            self.onCheckout?(cart)
        }
        reload()
    }

    func reload() {
        spinner.startAnimating()
        model.load().done { cart in
            self.checkoutButton.isEnabled = !cart.isEmpty
            if cart.isEmpty {
                self.status.text = "Your cart is empty."
            }
        }.ensure {
            self.spinner.stopAnimating()
        }.catch { error in
            self.status.text = describe(error)
        }
    }

    func applyCoupon() {
        applyCouponButton.isEnabled = false
        model.apply(coupon: couponField.text).done { coupon in
            self.status.text = "\(coupon.code) saves \(formatPrice(coupon.discount))"
            self.summary.text = self.model.summary
        }.ensure {
            self.applyCouponButton.isEnabled = true
        }.catch { error in
            self.status.text = describe(error)
        }
    }

    /// Swipe to delete.
    func removeLine(at index: Int) {
        guard let line = model.cart?.lines[safe: index] else { return }
        model.remove(line.productID).reportErrors(to: status)
    }
}

extension Array {
    subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
