import Foundation

struct Invoice: Sendable {
    let total: Decimal
}

final class BillingAPI: Sendable {
    @available(*, renamed: "invoice(number:)")
    func invoice(number: String, completion: @escaping @Sendable (Result<Invoice, Error>) -> Void) {
        completion(.success(Invoice(total: 42)))
    }

    /// Async alternative to `invoice(number:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func invoice(number: String) async throws -> Invoice {
        try await withCheckedThrowingContinuation { continuation in
            invoice(number: number) { result in
                continuation.resume(with: result)
            }
        }
    }

    @available(*, renamed: "markPaid(number:)")
    func markPaid(number: String, completion: @escaping @Sendable (Swift.Result<Void, any Error>) -> Void) {
        completion(.success(()))
    }

    /// Async alternative to `markPaid(number:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func markPaid(number: String) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            markPaid(number: number) { result in
                continuation.resume(with: result)
            }
        }
    }
}
