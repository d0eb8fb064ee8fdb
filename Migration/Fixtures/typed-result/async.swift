import Foundation

enum NetworkError: Error {
    case offline
    case status(Int)
}

struct Quote: Sendable {
    let symbol: String
    let price: Double
}

final class QuoteService: Sendable {
    @available(*, renamed: "quote(for:)")
    func quote(for symbol: String, completion: @escaping @Sendable (Result<Quote, NetworkError>) -> Void) {
        if symbol.isEmpty {
            completion(.failure(.status(404)))
        } else {
            completion(.success(Quote(symbol: symbol, price: 1.5)))
        }
    }

    /// Async alternative to `quote(for:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func quote(for symbol: String) async throws(NetworkError) -> Quote {
        let outcome: Swift.Result<Quote, NetworkError> = await withCheckedContinuation { continuation in
            quote(for: symbol) { result in
                continuation.resume(returning: result)
            }
        }
        return try outcome.get()
    }
}
