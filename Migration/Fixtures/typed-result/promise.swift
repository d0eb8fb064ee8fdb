import Foundation
import Vow

enum NetworkError: Error {
    case offline
    case status(Int)
}

struct Quote: Sendable {
    let symbol: String
    let price: Double
}

final class QuoteService: Sendable {
    func quote(for symbol: String, completion: @escaping @Sendable (Swift.Result<Quote, NetworkError>) -> Void) {
        if symbol.isEmpty {
            completion(.failure(.status(404)))
        } else {
            completion(.success(Quote(symbol: symbol, price: 1.5)))
        }
    }

    /// Promise-based alternative to `quote(for:completion:)`, added by vow-migrate.
    func quote(for symbol: String) -> Promise<Quote> {
        Promise { seal in
            quote(for: symbol) { result in
                seal.resolve(result)
            }
        }
    }
}
