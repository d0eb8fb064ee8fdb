import Foundation
import PromiseKit

/// The checkout: a progress label per step, a Cancel button, and the confirmation.
final class CheckoutViewController: ViewController, @unchecked Sendable {
    let progress = Label(name: "checkout.progress")
    let result = Label(name: "checkout.result")
    let cancelButton = Button(title: "Cancel")
    let placeButton = Button(title: "Place Order")
    let spinner = ActivityIndicator(name: "checkout.spinner")
    var coupon: String?
    var payment: PaymentProcessing
    var onPlaced: ((Order) -> Void)?
    private let service: CheckoutService
    private var session: CheckoutSession?

    init(payment: PaymentProcessing = CardPaymentProcessor(), service: CheckoutService = .shared) {
        self.payment = payment
        self.service = service
        super.init(title: "Checkout")
    }

    override func viewDidLoad() {
        placeButton.addAction { [weak self] in
            self?.placeOrder()
        }
        cancelButton.addAction { [weak self] in
            self?.session?.cancel()
            self?.progress.text = "Cancelling"
        }
    }

    func placeOrder() {
        guard session == nil else { return }
        let session = CheckoutSession { [weak self] step in
            guard let self else { return }
            DispatchQueue.main.async {
                self.progress.text = step.rawValue.capitalized
            }
        }
        self.session = session
        placeButton.isEnabled = false
        spinner.startAnimating()
        service.checkout(coupon: coupon, payment: payment, session: session)
            .log("checkout")
            .done { order in
                self.result.text = "Order \(order.id) placed: \(formatPrice(order.total))"
                self.onPlaced?(order)
            }.ensure {
                self.spinner.stopAnimating()
                self.placeButton.isEnabled = true
                self.session = nil
            }.catch(policy: .allErrors) { error in
                if case PMKError.cancelled = error {
                    self.result.text = "Checkout cancelled"
                    return
                }
                self.showFailure(error)
            }
    }

    private func showFailure(_ error: Error) {
        let alert = UIAlertController(title: "Checkout failed", message: describe(error))
        alert.addAction(UIAlertAction(title: "OK", style: .cancel))
        if isTransient(error) {
            alert.addAction(UIAlertAction(title: "Retry", style: .default) { [weak self] _ in
                self?.placeOrder()
            })
        }
        if case AppError.paymentDeclined = error {
            alert.addAction(UIAlertAction(title: "Use Wallet", style: .default) { [weak self] _ in
                guard let self else { return }
                self.payment = WalletPaymentProcessor()
                self.placeOrder()
            })
        }
        present(alert, animated: true)
    }
}
