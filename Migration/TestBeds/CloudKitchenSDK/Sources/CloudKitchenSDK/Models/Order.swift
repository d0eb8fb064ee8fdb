import Foundation

/// Where an order is in its life.
public enum OrderStatus: String, Codable {
    case received, preparing, ready, pickedUp = "picked_up", delivered, cancelled
}

/// One line of an order.
public struct OrderLine: Codable, Equatable {
    public var itemID: String
    public var quantity: Int
    public var note: String?

    enum CodingKeys: String, CodingKey {
        case itemID = "itemId", quantity, note
    }

    public init(itemID: String, quantity: Int, note: String? = nil) {
        self.itemID = itemID
        self.quantity = quantity
        self.note = note
    }
}

/// What the app sends to place an order.
public struct OrderDraft: Codable {
    public var kitchenID: String
    public var lines: [OrderLine]
    public var tipCents: Int

    enum CodingKeys: String, CodingKey {
        case kitchenID = "kitchenId", lines, tipCents
    }

    public init(kitchenID: String, lines: [OrderLine], tipCents: Int = 0) {
        self.kitchenID = kitchenID
        self.lines = lines
        self.tipCents = tipCents
    }

    func validate() -> SDKError? {
        if lines.isEmpty { return .invalidArgument("an order needs at least one line") }
        if lines.contains(where: { $0.quantity < 1 }) { return .invalidArgument("quantities must be positive") }
        if tipCents < 0 { return .invalidArgument("the tip cannot be negative") }
        return nil
    }
}

/// A placed order, as the platform returns it.
public final class Order: Codable {
    public let id: String
    public let kitchenID: String
    public var lines: [OrderLine]
    public var status: OrderStatus
    public var totalCents: Int
    /// Local only: edits not yet pushed by the sync engine.
    public var hasLocalChanges = false

    enum CodingKeys: String, CodingKey {
        case id, kitchenID = "kitchenId", lines, status, totalCents
    }

    public init(id: String, kitchenID: String, lines: [OrderLine], status: OrderStatus, totalCents: Int) {
        self.id = id
        self.kitchenID = kitchenID
        self.lines = lines
        self.status = status
        self.totalCents = totalCents
    }
}

/// A page of results and the cursor of the next one.
public struct Page<Element: Decodable>: Decodable {
    public var items: [Element]
    public var nextCursor: String?
}
