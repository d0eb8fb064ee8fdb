import Dispatch
import Vow

/// The services, after the default mode gave each its promise and async alternatives (they hand
/// their handlers to `DispatchQueue`, so they keep them).
final class ShopServices: Sendable {
    @available(*, renamed: "cart(user:)")
    func cart(user: String, completion: @escaping @Sendable (Swift.Result<[String], Error>) -> Void) {
        Trace.shared.record("cart(\(user)) called")
        serviceQueue.async {
            completion(Script.shared.fails("cart") ? .failure(ShopError.failed("cart")) : .success(["tea", "cake"]))
        }
    }

    /// Async alternative to `cart(user:completion:)`, added by vow-migrate.
    func cart(user: String) async throws -> [String] {
        try await withCheckedThrowingContinuation { continuation in
            cart(user: user) { result in
                continuation.resume(with: result)
            }
        }
    }

    /// Promise-based alternative to `cart(user:completion:)`, added by vow-migrate.
    func cart(user: String) -> Promise<[String]> {
        Promise { seal in
            cart(user: user) { result in
                seal.resolve(result)
            }
        }
    }

    @available(*, renamed: "price(of:)")
    func price(of items: [String], completion: @escaping @Sendable (Int?, Error?) -> Void) {
        Trace.shared.record("price(\(items.count) items) called")
        serviceQueue.async {
            if Script.shared.fails("price") {
                completion(nil, ShopError.failed("price"))
            } else {
                completion(Script.shared.fails("expensive") ? 5_000 : items.count * 3, nil)
            }
        }
    }

    /// Async alternative to `price(of:completion:)`, added by vow-migrate.
    func price(of items: [String]) async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            price(of: items) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: PMKError.invalidCallingConvention)
                }
            }
        }
    }

    /// Promise-based alternative to `price(of:completion:)`, added by vow-migrate.
    func price(of items: [String]) -> Promise<Int> {
        Promise { seal in
            price(of: items) { value, error in
                seal.resolve(value, error)
            }
        }
    }

    @available(*, renamed: "place(total:)")
    func place(total: Int, completion: @escaping @Sendable (Swift.Result<Order, Error>) -> Void) {
        Trace.shared.record("place(\(total)) called")
        serviceQueue.async {
            completion(Script.shared.fails("place") ? .failure(ShopError.failed("place")) : .success(Order(id: 7, total: total)))
        }
    }

    /// Async alternative to `place(total:completion:)`, added by vow-migrate.
    func place(total: Int) async throws -> Order {
        try await withCheckedThrowingContinuation { continuation in
            place(total: total) { result in
                continuation.resume(with: result)
            }
        }
    }

    /// Promise-based alternative to `place(total:completion:)`, added by vow-migrate.
    func place(total: Int) -> Promise<Order> {
        Promise { seal in
            place(total: total) { result in
                seal.resolve(result)
            }
        }
    }

    @available(*, renamed: "charge(_:)")
    func charge(_ order: Order, completion: @escaping @Sendable (Error?) -> Void) {
        Trace.shared.record("charge(\(order.id)) called")
        serviceQueue.async {
            completion(Script.shared.fails("charge") ? ShopError.failed("charge") : nil)
        }
    }

    /// Async alternative to `charge(_:completion:)`, added by vow-migrate.
    func charge(_ order: Order) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            charge(order) { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
            }
        }
    }

    /// Promise-based alternative to `charge(_:completion:)`, added by vow-migrate.
    func charge(_ order: Order) -> Promise<Void> {
        Promise { seal in
            charge(order) { error in
                seal.resolve(error)
            }
        }
    }

    @available(*, renamed: "queueLength()")
    func queueLength(completion: @escaping @Sendable (Int) -> Void) {
        Trace.shared.record("queueLength called")
        serviceQueue.async {
            completion(Script.shared.fails("queue") ? 0 : 2)
        }
    }

    /// Async alternative to `queueLength(completion:)`, added by vow-migrate.
    func queueLength() async -> Int {
        await withCheckedContinuation { continuation in
            queueLength { value in
                continuation.resume(returning: value)
            }
        }
    }

    /// Promise-based alternative to `queueLength(completion:)`, added by vow-migrate.
    func queueLength() -> Guarantee<Int> {
        Guarantee { resolve in
            queueLength { value in
                resolve(value)
            }
        }
    }
}

/// Functions built on the services by nesting callbacks; `--replace` converts them into flat
/// promise chains (or straight-line `async` code) over the services' alternatives.
final class Shop: Sendable {
    let services = ShopServices()

    // Four callbacks deep, with effects and a check between them, and values read several steps later.
    func buy(user: String, completion: @escaping @Sendable (Swift.Result<Receipt, Error>) -> Void) {
        services.cart(user: user) { result in
            switch result {
            case .success(let items):
                let note = "\(items.count) items for \(user)"
                Trace.shared.record("pricing \(note)")
                self.services.price(of: items) { total, error in
                    guard let total else {
                        completion(.failure(error ?? ShopError.empty))
                        return
                    }
                    guard total < 1_000 else {
                        completion(.failure(ShopError.failed("over the limit")))
                        return
                    }
                    self.services.place(total: total) { result in
                        switch result {
                        case .success(let order):
                            Trace.shared.record("placed \(order.id) for \(user)")
                            self.services.charge(order) { error in
                                if let error {
                                    completion(.failure(error))
                                    return
                                }
                                if order.total > 100 {
                                    completion(.failure(ShopError.empty))
                                } else {
                                    completion(.success(Receipt(order: order, note: note)))
                                }
                            }
                        case .failure(let error):
                            completion(.failure(error))
                        }
                    }
                }
            case .failure(let error):
                completion(.failure(error))
            }
        }
    }

    // A step that cannot fail, then one that can.
    func quote(completion: @escaping @Sendable (Swift.Result<Int, Error>) -> Void) {
        services.queueLength { length in
            Trace.shared.record("\(length) waiting")
            self.services.price(of: Array(repeating: "tea", count: length)) { total, error in
                guard let total else {
                    completion(.failure(error ?? ShopError.empty))
                    return
                }
                completion(.success(total + length))
            }
        }
    }

    // Only steps that cannot fail.
    func waitTwice(completion: @escaping @Sendable (Int) -> Void) {
        services.queueLength { first in
            self.services.queueLength { second in
                completion(first + second)
            }
        }
    }
}
