import Foundation

struct Session: Codable, Equatable {
    var token: String
    var userID: Int
    var expiresIn: Int
}

struct User: Codable, Equatable {
    var id: Int
    var name: String
    var email: String
    var loyaltyPoints: Int
}

struct Address: Codable, Equatable {
    var id: Int
    var label: String
    var street: String
    var isDefault: Bool
}

struct Store: Codable, Equatable {
    var id: StoreID
    var name: String
    var isOpen: Bool
    var deliveryFee: Cents
}

struct Category: Codable, Equatable {
    var id: Int
    var name: String
}

struct Product: Codable, Equatable {
    var id: ProductID
    var name: String
    var price: Cents
    var inStock: Bool
    var categoryID: Int
}

struct Banner: Codable, Equatable {
    var headline: String
}

struct CartLine: Codable, Equatable {
    var productID: ProductID
    var name: String
    var quantity: Int
    var price: Cents

    var total: Cents { quantity * price }
}

struct Cart: Codable, Equatable {
    var id: Int
    var storeID: StoreID
    var lines: [CartLine]

    var subtotal: Cents { lines.reduce(0) { $0 + $1.total } }
    var isEmpty: Bool { lines.isEmpty }
}

struct Quote: Codable, Equatable {
    var subtotal: Cents
    var deliveryFee: Cents
    var discount: Cents
    var total: Cents
}

struct DeliverySlot: Codable, Equatable {
    var id: Int
    var window: String
    var available: Bool
}

struct Reservation: Codable, Equatable {
    var slotID: Int
    var reservationID: String
}

struct PaymentAuthorization: Codable, Equatable {
    var authorizationID: String
    var amount: Cents
}

struct Order: Codable, Equatable {
    var id: OrderID
    var status: String
    var total: Cents
}

struct Receipt: Codable, Equatable {
    var orderID: OrderID
    var lines: Int
    var total: Cents
}

struct Coupon: Codable, Equatable {
    var code: String
    var discount: Cents
}

struct Review: Codable, Equatable {
    var productID: ProductID
    var stars: Int
    var text: String
}

struct TrackingUpdate: Codable, Equatable {
    var orderID: OrderID
    var status: String
    var minutesAway: Int
}

struct Wallet: Codable, Equatable {
    var balance: Cents
}
