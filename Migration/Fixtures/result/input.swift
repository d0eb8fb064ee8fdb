import Foundation

struct Invoice: Sendable {
    let total: Decimal
}

final class BillingAPI: Sendable {
    func invoice(number: String, completion: @escaping @Sendable (Result<Invoice, Error>) -> Void) {
        completion(.success(Invoice(total: 42)))
    }

    func markPaid(number: String, completion: @escaping @Sendable (Swift.Result<Void, any Error>) -> Void) {
        completion(.success(()))
    }
}
