import Foundation

struct Order: Sendable {
    let id: Int
    let total: Int
}

struct Receipt: Sendable {
    let order: Order
    let reference: String
    let note: String
}

enum CheckoutError: Error {
    case emptyCart
    case declined
}

final class Checkout: Sendable {
    private let prices: [String: Int] = ["tea": 3, "cake": 4]

    func cart(user: String, completion: @escaping @Sendable (Result<[String], Error>) -> Void) {
        completion(.success(["tea", "cake"]))
    }

    func price(of items: [String], completion: @escaping @Sendable (Result<Int, Error>) -> Void) {
        guard !items.isEmpty else {
            completion(.failure(CheckoutError.emptyCart))
            return
        }
        completion(.success(items.reduce(0) { $0 + (prices[$1] ?? 0) }))
    }

    func place(total: Int, completion: @escaping @Sendable (Order?, Error?) -> Void) {
        completion(Order(id: 7, total: total), nil)
    }

    func charge(_ order: Order, completion: @escaping @Sendable (Error?) -> Void) {
        if order.total > 100 {
            completion(CheckoutError.declined)
        } else {
            completion(nil)
        }
    }

    func queueLength(completion: @escaping @Sendable (Int) -> Void) {
        completion(2)
    }

    // Four callbacks deep, values from several levels up, a local declared between two calls,
    // checks that fail between two calls, and a last step that decides: one flat chain in
    // promise form (the checks throw), the values threaded through tuples.
    func buy(user: String, completion: @escaping @Sendable (Result<Receipt, Error>) -> Void) {
        cart(user: user) { result in
            switch result {
            case .success(let items):
                let note = "\(items.count) items for \(user)"
                self.price(of: items) { result in
                    switch result {
                    case .success(let total):
                        guard total > 0 else {
                            completion(.failure(CheckoutError.emptyCart))
                            return
                        }
                        self.place(total: total) { order, error in
                            guard let order else {
                                completion(.failure(error ?? CheckoutError.declined))
                                return
                            }
                            guard let limit = Optional(100), order.total <= limit else {
                                completion(.failure(CheckoutError.declined))
                                return
                            }
                            self.charge(order) { error in
                                if let error {
                                    completion(.failure(error))
                                    return
                                }
                                if order.total == limit {
                                    completion(.failure(CheckoutError.emptyCart))
                                } else {
                                    completion(.success(Receipt(order: order, reference: "R-\(order.id)", note: note)))
                                }
                            }
                        }
                    case .failure(let error):
                        completion(.failure(error))
                    }
                }
            case .failure(let error):
                completion(.failure(error))
            }
        }
    }

    // A step that cannot fail first, then one that can: the chain becomes a promise.
    func quote(completion: @escaping @Sendable (Result<Int, Error>) -> Void) {
        queueLength { length in
            self.price(of: Array(repeating: "tea", count: length)) { result in
                switch result {
                case .success(let total):
                    completion(.success(total + length))
                case .failure(let error):
                    completion(.failure(error))
                }
            }
        }
    }

    // Only steps that cannot fail: a guarantee chain.
    func waitingTwice(completion: @escaping @Sendable (Int) -> Void) {
        queueLength { first in
            self.queueLength { second in
                completion(first + second)
            }
        }
    }
}
