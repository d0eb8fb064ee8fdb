import Foundation
import PromiseKit

/// The in-app wallet: balance, and paying an order with it.
final class WalletViewController: ViewController, @unchecked Sendable {
    let balance = Label(name: "wallet.balance")
    let status = Label(name: "wallet.status")
    let spinner = ActivityIndicator(name: "wallet.spinner")
    private let api: APIClient
    private let processor: PaymentProcessing

    init(api: APIClient = .shared, processor: PaymentProcessing = WalletPaymentProcessor()) {
        self.api = api
        self.processor = processor
        super.init(title: "Wallet")
    }

    override func viewDidLoad() {
        refresh().catch { error in
            self.balance.text = describe(error)
        }
    }

    /// The balance; returned so that pull to refresh can wait for it.
    func refresh() -> Promise<Void> {
        spinner.startAnimating()
        return api.request(.wallet, as: Wallet.self).done { wallet in
            self.balance.text = formatPrice(wallet.balance)
        }.ensure {
            self.spinner.stopAnimating()
        }
    }

    /// Pays `amount` from the wallet, then shows the new balance (which may fail on its own).
    func pay(_ amount: Cents) {
        processor.authorize(amount: amount).then { authorization -> Promise<Void> in
            self.status.text = "Paid \(formatPrice(authorization.amount))"
            return self.refresh()
        }.catch { error in
            if case AppError.paymentDeclined = error {
                self.status.text = "Not enough in your wallet"
                return
            }
            self.status.text = describe(error)
        }
    }

    /// The "pay by card instead" link.
    func payByCard(_ amount: Cents) {
        pay(amount, with: CardPaymentProcessor()).done { text in
            self.status.text = "Paid with \(text)"
        }.cauterize()
    }

    /// Pays with whichever processor the shopper picked, from the outside.
    func pay(_ amount: Cents, with processor: PaymentProcessing) -> Promise<String> {
        return processor.authorize(amount: amount).map { authorization in
            "\(processor.name) \(authorization.authorizationID)"
        }
    }
}
