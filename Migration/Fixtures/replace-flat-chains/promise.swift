import Foundation
import Vow

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

    func cart(user: String) -> Promise<[String]> {
        return .value(["tea", "cake"])
    }

    func price(of items: [String]) -> Promise<Int> {
        guard !items.isEmpty else {
            return Promise<Int>(error: CheckoutError.emptyCart)
        }
        return .value(items.reduce(0) { $0 + (prices[$1] ?? 0) })
    }

    func place(total: Int) -> Promise<Order> {
        return .value(Order(id: 7, total: total))
    }

    func charge(_ order: Order) -> Promise<Void> {
        if order.total > 100 {
            return Promise<Void>(error: CheckoutError.declined)
        } else {
            return .value(())
        }
    }

    func queueLength() -> Guarantee<Int> {
        return .value(2)
    }

    // Four callbacks deep, values from several levels up, a local declared between two calls,
    // checks that fail between two calls, and a last step that decides: one flat chain in
    // promise form (the checks throw), the values threaded through tuples.
    func buy(user: String) -> Promise<Receipt> {
        return cart(user: user).then(on: nil) { items in
            let note = "\(items.count) items for \(user)"
            return self.price(of: items).map(on: nil) { (note, $0) }
        }.then(on: nil) { note, total in
            guard total > 0 else {
                throw CheckoutError.emptyCart
            }
            return self.place(total: total).map(on: nil) { (note, $0) }
        }.then(on: nil) { note, order in
            guard let limit = Optional(100), order.total <= limit else {
                throw CheckoutError.declined
            }
            return self.charge(order).map(on: nil) { (note, order, limit, $0) }
        }.then(on: nil) { note, order, limit, _ -> Promise<Receipt> in
            if order.total == limit {
                return Promise<Receipt>(error: CheckoutError.emptyCart)
            } else {
                return .value(Receipt(order: order, reference: "R-\(order.id)", note: note))
            }
        }
    }

    // A step that cannot fail first, then one that can: the chain becomes a promise.
    func quote() -> Promise<Int> {
        return queueLength().then(on: nil) { length in
            return self.price(of: Array(repeating: "tea", count: length)).map(on: nil) { (length, $0) }
        }.map(on: nil) { length, total in
            total + length
        }
    }

    // Only steps that cannot fail: a guarantee chain.
    func waitingTwice() -> Guarantee<Int> {
        return queueLength().then(on: nil) { first in
            return self.queueLength().map(on: nil) { (first, $0) }
        }.map(on: nil) { first, second in
            first + second
        }
    }
}
