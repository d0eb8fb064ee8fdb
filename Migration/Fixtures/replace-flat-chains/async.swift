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

    nonisolated(nonsending) func cart(user: String) async throws -> [String] {
        return ["tea", "cake"]
    }

    nonisolated(nonsending) func price(of items: [String]) async throws -> Int {
        guard !items.isEmpty else {
            throw CheckoutError.emptyCart
        }
        return items.reduce(0) { $0 + (prices[$1] ?? 0) }
    }

    nonisolated(nonsending) func place(total: Int) async throws -> Order {
        return Order(id: 7, total: total)
    }

    nonisolated(nonsending) func charge(_ order: Order) async throws {
        if order.total > 100 {
            throw CheckoutError.declined
        } else {
            return
        }
    }

    nonisolated(nonsending) func queueLength() async -> Int {
        return 2
    }

    // Four callbacks deep, values from several levels up, a local declared between two calls,
    // checks that fail between two calls, and a last step that decides: one flat chain in
    // promise form (the checks throw), the values threaded through tuples.
    nonisolated(nonsending) func buy(user: String) async throws -> Receipt {
        let items = try await cart(user: user)
        let note = "\(items.count) items for \(user)"
        let total = try await self.price(of: items)
        guard total > 0 else {
            throw CheckoutError.emptyCart
        }
        let order = try await self.place(total: total)
        guard let limit = Optional(100), order.total <= limit else {
            throw CheckoutError.declined
        }
        try await self.charge(order)
        if order.total == limit {
            throw CheckoutError.emptyCart
        } else {
            return Receipt(order: order, reference: "R-\(order.id)", note: note)
        }
    }

    // A step that cannot fail first, then one that can: the chain becomes a promise.
    nonisolated(nonsending) func quote() async throws -> Int {
        let length = await queueLength()
        let total = try await self.price(of: Array(repeating: "tea", count: length))
        return total + length
    }

    // Only steps that cannot fail: a guarantee chain.
    nonisolated(nonsending) func waitingTwice() async -> Int {
        let first = await queueLength()
        let second = await self.queueLength()
        return first + second
    }
}
