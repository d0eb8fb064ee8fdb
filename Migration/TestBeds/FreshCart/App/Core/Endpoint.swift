import Foundation

/// Every request the app makes, with its method and path.
enum Endpoint: Equatable {
    case login(email: String)
    case refreshSession
    case me
    case addresses
    case stores
    case store(StoreID)
    case categories(StoreID)
    case products(StoreID, category: Int)
    case product(ProductID)
    case banner
    case search(String)
    case cart
    case addToCart(ProductID, quantity: Int)
    case removeFromCart(ProductID)
    case quote(cartID: Int, coupon: String?)
    case coupon(String)
    case slots(StoreID)
    case reserveSlot(Int)
    case releaseSlot(String)
    case wallet
    case authorizePayment(method: String, amount: Cents)
    case placeOrder(reservation: String, authorization: String)
    case orders
    case order(OrderID)
    case receipt(OrderID)
    case tracking(OrderID)
    case reviews(ProductID)
    case postReview(ProductID, stars: Int)
    case favourites
    case registerDevice

    var method: String {
        switch self {
        case .login, .refreshSession, .addToCart, .quote, .reserveSlot, .authorizePayment, .placeOrder, .postReview, .registerDevice:
            return "POST"
        case .removeFromCart, .releaseSlot:
            return "DELETE"
        default:
            return "GET"
        }
    }

    var path: String {
        switch self {
        case .login(let email): return "/login?email=\(email)"
        case .refreshSession: return "/session/refresh"
        case .me: return "/me"
        case .addresses: return "/me/addresses"
        case .stores: return "/stores"
        case .store(let id): return "/stores/\(id)"
        case .categories(let store): return "/stores/\(store)/categories"
        case .products(let store, let category): return "/stores/\(store)/products?category=\(category)"
        case .product(let id): return "/products/\(id)"
        case .banner: return "/banner"
        case .search(let text): return "/search?q=\(text)"
        case .cart: return "/cart"
        case .addToCart(let id, let quantity): return "/cart/lines/\(id)?quantity=\(quantity)"
        case .removeFromCart(let id): return "/cart/lines/\(id)"
        case .quote(let cart, let coupon): return "/cart/\(cart)/quote" + (coupon.map { "?coupon=\($0)" } ?? "")
        case .coupon(let code): return "/coupons/\(code)"
        case .slots(let store): return "/stores/\(store)/slots"
        case .reserveSlot(let slot): return "/slots/\(slot)/reserve"
        case .releaseSlot(let reservation): return "/reservations/\(reservation)"
        case .wallet: return "/wallet"
        case .authorizePayment(let method, let amount): return "/payments/\(method)?amount=\(amount)"
        case .placeOrder(let reservation, let authorization): return "/orders?reservation=\(reservation)&authorization=\(authorization)"
        case .orders: return "/orders"
        case .order(let id): return "/orders/\(id)"
        case .receipt(let id): return "/orders/\(id)/receipt"
        case .tracking(let id): return "/orders/\(id)/tracking"
        case .reviews(let id): return "/products/\(id)/reviews"
        case .postReview(let id, let stars): return "/products/\(id)/reviews?stars=\(stars)"
        case .favourites: return "/me/favourites"
        case .registerDevice: return "/me/devices"
        }
    }
}
