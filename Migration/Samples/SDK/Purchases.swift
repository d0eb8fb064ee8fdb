import Foundation

/// A store-kit style wrapper: products, purchases, restores, receipts.
final class PurchaseManager: @unchecked Sendable {
    private let http: HTTPClient
    private let queue = DispatchQueue(label: "sdk.purchases")
    private var products: [String: Product] = [:]
    private var transactions: [Transaction] = []

    init(http: HTTPClient) {
        self.http = http
    }

    /// Loads product details; the SDK's own convention: products first, error second.
    func requestProducts(identifiers: Set<String>, completion: @escaping Store.ProductsCompletion) {
        queue.async { [self] in
            let found = identifiers.sorted().map { identifier in
                products[identifier] ?? Product(identifier: identifier, displayName: identifier.capitalized, price: 0.99)
            }
            for product in found { products[product.identifier] = product }
            completion(found, found.isEmpty ? SDKError.notFound : nil)
        }
    }

    /// Buys a product; a typed `Result`.
    func purchase(_ product: Product, quantity: Int = 1, completion: @escaping Store.PurchaseCompletion) {
        queue.async { [self] in
            guard quantity > 0 else {
                completion(.failure(.purchaseFailed(reason: "quantity")))
                return
            }
            let transaction = Transaction(identifier: UUID().uuidString, productIdentifier: product.identifier, purchasedAt: Date())
            transactions.append(transaction)
            completion(.success(transaction))
        }
    }

    /// Restores earlier purchases.
    func restorePurchases(completion: @escaping @Sendable (Result<[Transaction], Error>) -> Void) {
        queue.async { [self] in
            completion(.success(transactions))
        }
    }

    /// Finishes a transaction.
    func finish(_ transaction: Transaction, completion: @escaping VoidCompletion) {
        queue.async { [self] in
            transactions.removeAll { $0.identifier == transaction.identifier }
            completion(nil)
        }
    }

    /// The receipt and whether it was refreshed from the server.
    func receipt(refresh: Bool, completion: @escaping @Sendable (_ receipt: Receipt?, _ refreshed: Bool, _ error: Error?) -> Void) {
        queue.async { [self] in
            completion(Receipt(data: Data(), transactions: transactions), refresh, nil)
        }
    }

    /// Validates the receipt with the server.
    func validate(_ receipt: Receipt, completion: @escaping @Sendable (_ valid: Bool, _ error: Error?) -> Void) {
        http.post("/receipts/validate", body: receipt.data) { error in
            completion(error == nil, error)
        }
    }

    /// Whether the user may buy at all.
    func canMakePayments(completion: @escaping @Sendable (Bool) -> Void) {
        queue.async {
            completion(true)
        }
    }

    /// Observes transaction updates for the app's lifetime: an event registration.
    func onTransactionUpdate(_ handler: @escaping @Sendable (Transaction) -> Void) {
        queue.async { [self] in
            for transaction in transactions { handler(transaction) }
        }
    }

    /// Buys and finishes in one step, handing its handler to `finish`.
    func purchaseAndFinish(_ product: Product, completion: @escaping VoidCompletion) {
        purchase(product) { [self] result in
            switch result {
            case .success(let transaction):
                finish(transaction, completion: completion)
            case .failure(let error):
                completion(error)
            }
        }
    }

    /// Buys a subscription with an introductory offer; the pair of handlers of older wrappers.
    func subscribe(to product: Product, offer: String?, success: @escaping @Sendable (Transaction) -> Void, failure: @escaping @Sendable (Error) -> Void) {
        purchase(product) { result in
            switch result {
            case .success(let transaction): success(transaction)
            case .failure(let error): failure(error)
            }
        }
    }

    /// Prices in the user's currency, formatted.
    func formattedPrices(for identifiers: [String], completion: @escaping @Sendable ([String: String]) -> Void) {
        requestProducts(identifiers: Set(identifiers)) { products, _ in
            var prices: [String: String] = [:]
            for product in products { prices[product.identifier] = "\(product.price)" }
            completion(prices)
        }
    }

    /// Reports a purchase to analytics and returns how many are queued: not a handle.
    func track(_ transaction: Transaction, completion: @escaping VoidCompletion) -> Int {
        queue.async {
            completion(nil)
        }
        return 1
    }
}

extension PurchaseManager {
    /// Refunds a transaction; the server's answer comes back as data.
    func requestRefund(for transaction: Transaction, reason: String, completion: @escaping @Sendable (Data?, Error?) -> Void) {
        http.data(at: "/refunds/\(transaction.identifier)") { data, error in
            completion(data, error)
        }
    }

    /// Products and the transactions already made for them.
    func catalog(completion: @escaping @Sendable (_ products: [Product]?, _ owned: [Transaction]?, _ error: Error?) -> Void) {
        requestProducts(identifiers: ["pro", "plus"]) { [self] products, error in
            if let error {
                completion(nil, nil, error)
                return
            }
            restorePurchases { result in
                switch result {
                case .success(let owned): completion(products, owned, nil)
                case .failure(let error): completion(nil, nil, error)
                }
            }
        }
    }
}
