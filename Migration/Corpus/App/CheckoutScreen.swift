import Dispatch
import Foundation
import Vow

/// The checkout screen: the cart, its price, stock, payment and the receipt.
final class CheckoutViewModel: @unchecked Sendable {
    let users: UserService
    let checkout: CheckoutService
    let store: Store
    private let lock = NSLock()
    private var lastReceipt: Receipt?

    init(users: UserService, checkout: CheckoutService, store: Store) {
        self.users = users
        self.checkout = checkout
        self.store = store
    }

    func log(_ text: String) {
        EffectTrace.shared.record("Checkout: \(text)", final: false)
    }

    func show(_ text: String) {
        EffectTrace.shared.record("Checkout: \(text)", final: true)
    }

    func present(_ error: Error) {
        EffectTrace.shared.record("Checkout: alert \(error)", final: true)
    }

    func remember(_ receipt: Receipt) {
        lock.lock()
        lastReceipt = receipt
        lock.unlock()
    }

    // Five callbacks deep: user, cart, price, payment, the receipt by mail; one alert for every
    // failure and the confirmation on the main queue.
    func checkOut(token: String) {
        users.user(token: token) { result in
            switch result {
            case .failure(let error):
                self.present(error)
            case .success(let user):
                self.checkout.cart(for: user) { result in
                    switch result {
                    case .failure(let error):
                        self.present(error)
                    case .success(let cart):
                        self.log("\(cart.items.count) items")
                        self.checkout.price(cart) { price, error in
                            if let error { self.present(error); return }
                            self.checkout.pay(price!, token: token) { result in
                                switch result {
                                case .failure(let error):
                                    self.present(error)
                                case .success(let receipt):
                                    self.remember(receipt)
                                    self.checkout.sendReceipt(receipt) { error in
                                        if let error { self.present(error); return }
                                        DispatchQueue.main.async {
                                            self.show("paid \(receipt.amount) \(price!.currency) for \(user.name), receipt \(receipt.number)")
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    // Stock is a Bool: `false` is "out of stock", with its own message; the cart is read again
    // two steps later.
    func reserveAndPay(for user: User, token: String) {
        checkout.cart(for: user) { result in
            switch result {
            case .success(let cart):
                self.checkout.reserve(cart.items) { available in
                    if !available {
                        self.show("sorry, \(cart.items.joined(separator: " and ")) sold out")
                        return
                    }
                    self.checkout.price(cart) { price, error in
                        if let error { self.present(error); return }
                        self.checkout.pay(price!, token: token) { result in
                            switch result {
                            case .success(let receipt):
                                self.show("\(cart.items.count) items reserved and paid: \(receipt.number)")
                            case .failure(let error):
                                self.present(error)
                            }
                        }
                    }
                }
            case .failure(let error):
                self.present(error)
            }
        }
    }

    // Each step says what failed.
    func priceCheck(for user: User) {
        checkout.cart(for: user) { result in
            switch result {
            case .success(let cart):
                self.checkout.price(cart) { price, error in
                    if let error {
                        self.show("no price for \(cart.items.count) items: \(error)")
                        return
                    }
                    self.show("total \(price!.total) \(price!.currency)")
                }
            case .failure(let error):
                self.show("cart unavailable: \(error)")
            }
        }
    }

    // A coupon decides which callback runs: called on some paths only, left alone.
    func applyCoupon(for user: User) {
        checkout.cart(for: user) { result in
            switch result {
            case .success(let cart):
                if let coupon = cart.coupon {
                    self.checkout.price(cart) { price, error in
                        if let error { self.present(error); return }
                        self.show("\(coupon): \(price!.total - 1)")
                    }
                } else {
                    self.show("no coupon")
                }
            case .failure(let error):
                self.present(error)
            }
        }
    }

    // A missing price means "free": the callback reads it as optional, left alone.
    func quickTotal(of cart: Cart) {
        checkout.price(cart) { price, error in
            if let error { self.present(error); return }
            if let price {
                self.show("\(price.total)")
            } else {
                self.show("free")
            }
        }
    }

    // A retry loop around a callback: left alone.
    func payInTwoParts(token: String) {
        for part in 1...2 {
            checkout.pay(Price(total: part, currency: "EUR"), token: token) { result in
                switch result {
                case .success(let receipt): self.show("part \(part): \(receipt.number)")
                case .failure(let error): self.show("part \(part) failed: \(error)")
                }
            }
        }
    }

    // `default:` hides which failures go where: left alone.
    func cartBadge(for user: User) {
        checkout.cart(for: user) { result in
            switch result {
            case .success(let cart): self.show("\(cart.items.count)")
            default: self.show("-")
            }
        }
    }

    // `$0`: not read, left alone.
    func resend(_ receipt: Receipt) {
        checkout.sendReceipt(receipt) {
            self.show($0 == nil ? "sent again" : "not sent")
        }
    }

    // An existing promise chain.
    func greet(token: String) {
        firstly {
            users.refreshToken(token)
        }.map { fresh in
            fresh.uppercased()
        }.done { shout in
            self.show("welcome back, \(shout)")
        }.catch { error in
            self.present(error)
        }
    }

    // Saves the cart for later, then reads how many carts are stored.
    func saveForLater(_ cart: Cart) {
        store.save(Data(cart.items.joined(separator: ",").utf8), for: "cart") { error in
            if let error {
                self.show("not saved: \(error)")
            } else {
                self.store.count { count in
                    self.show("\(count) saved things")
                }
            }
        }
    }
}
