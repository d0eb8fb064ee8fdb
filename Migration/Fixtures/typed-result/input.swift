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
    func quote(for symbol: String, completion: @escaping @Sendable (Result<Quote, NetworkError>) -> Void) {
        if symbol.isEmpty {
            completion(.failure(.status(404)))
        } else {
            completion(.success(Quote(symbol: symbol, price: 1.5)))
        }
    }
}
