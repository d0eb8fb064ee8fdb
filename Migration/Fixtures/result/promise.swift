import Foundation
import Vow

struct Invoice: Sendable {
    let total: Decimal
}

final class BillingAPI: Sendable {
    func invoice(number: String, completion: @escaping @Sendable (Swift.Result<Invoice, Error>) -> Void) {
        completion(.success(Invoice(total: 42)))
    }

    /// Promise-based alternative to `invoice(number:completion:)`, added by vow-migrate.
    func invoice(number: String) -> Promise<Invoice> {
        Promise { seal in
            invoice(number: number) { result in
                seal.resolve(result)
            }
        }
    }

    func markPaid(number: String, completion: @escaping @Sendable (Swift.Result<Void, any Error>) -> Void) {
        completion(.success(()))
    }

    /// Promise-based alternative to `markPaid(number:completion:)`, added by vow-migrate.
    func markPaid(number: String) -> Promise<Void> {
        Promise { seal in
            markPaid(number: number) { result in
                seal.resolve(result)
            }
        }
    }
}
