import Foundation
import PromiseKit

/// A way to pay. The checkout does not care which.
protocol PaymentProcessing: Sendable {
    var name: String { get }
    func authorize(amount: Cents) -> Promise<PaymentAuthorization>
}

/// Cards are authorized by the payment endpoint; a slow answer is retried once.
struct CardPaymentProcessor: PaymentProcessing {
    let name = "card"
    let api: APIClient

    init(api: APIClient = .shared) {
        self.api = api
    }

    func authorize(amount: Cents) -> Promise<PaymentAuthorization> {
        let api = self.api
        return Promise.retry(times: 2) {
            api.request(.authorizePayment(method: "card", amount: amount), as: PaymentAuthorization.self)
        }.recover { error -> Promise<PaymentAuthorization> in
            if case APIError.status(402) = error { throw AppError.paymentDeclined }
            throw error
        }
    }
}

/// The in-app wallet: the balance must cover the amount before the payment is asked for.
struct WalletPaymentProcessor: PaymentProcessing {
    let name = "wallet"
    let api: APIClient

    init(api: APIClient = .shared) {
        self.api = api
    }

    func authorize(amount: Cents) -> Promise<PaymentAuthorization> {
        let api = self.api
        return api.request(.wallet, as: Wallet.self).then { wallet -> Promise<PaymentAuthorization> in
            guard wallet.balance >= amount else {
                return Promise(error: AppError.paymentDeclined)
            }
            return api.request(.authorizePayment(method: "wallet", amount: amount), as: PaymentAuthorization.self)
        }
    }
}
