import Dispatch
import Foundation

// Drives FreshCart through every scenario and prints the effects in order, each with the kind
// of queue it happened on. PromiseKitAppTestBedTests compares this output before and after
// migration.

DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
NetworkSession.shared.install { FakeBackend.shared.answer($0) }
Environment.configure()

let login = "POST /login?email=ada@fresh.cart"
let quote = "POST /cart/7/quote"
let cardPayment = "POST /payments/card?amount=998"
let placeOrder = "POST /orders?reservation=r-2&authorization=auth-card"

let adaJSON = "{\"id\":1,\"name\":\"Ada\",\"email\":\"ada@fresh.cart\",\"loyaltyPoints\":120}"

var scenarios: [Scenario] = []

// MARK: - Signing in

func signIn(_ name: String, _ answers: [String: [ServerAnswer]] = [:], password: String = "secret", until: String) -> Scenario {
    Scenario(name: name, answers: answers, signedIn: .nobody) {
        let screen = loginScreen(password: password)
        return [Step(until: until) { screen.signInButton.sendActions() }]
    }
}

scenarios += [
    signIn("sign in", until: "login.spinner stopped"),
    signIn("sign in, wrong password", [login: [.status(403, body: "")]], until: "present alert"),
    signIn("sign in, server down", [login: serverError], until: "present alert"),
    signIn("sign in, offline", [login: offline], until: "present alert"),
    signIn("sign in, empty password", password: "", until: "present alert"),
    signIn("sign in, profile fails", ["GET /me": serverError], until: "present alert"),
    signIn("sign in, login answer unreadable", [login: [.status(200, body: "{}")]], until: "present alert"),
    signIn("sign in, device registration fails", ["POST /me/devices": serverError], until: "cauterized"),
    Scenario(name: "sign in, wrong password, then right", answers: [login: [.status(403, body: ""), .status(200, body: "{\"token\":\"tok-2\",\"userID\":1,\"expiresIn\":60}")]], signedIn: .nobody) {
        let screen = loginScreen()
        return [Step(until: "present alert") { screen.signInButton.sendActions() },
                Step(until: "login.spinner stopped") { tapAlert("Try Again") }]
    },
]

// MARK: - Starting the app

func appStart(_ name: String, _ answers: [String: [ServerAnswer]] = [:], signedIn: SignedIn, until: String) -> Scenario {
    Scenario(name: name, answers: answers, signedIn: signedIn) {
        let coordinator = AppCoordinator(window: ViewController(title: "window"))
        keep(coordinator)
        return [Step(until: until) { coordinator.start() }]
    }
}

scenarios += [
    appStart("start, nobody signed in", signedIn: .nobody, until: "present Sign In"),
    appStart("start, signed in", signedIn: .fresh, until: "home.spinner stopped"),
    appStart("start, session expired and refreshed", signedIn: .expired, until: "home.spinner stopped"),
    appStart("start, refresh fails", ["POST /session/refresh": serverError], signedIn: .expired, until: "present Sign In"),
    appStart("start, profile fails", ["GET /me": serverError], signedIn: .fresh, until: "present Sign In"),
    appStart("start, profile says the session expired", ["GET /me": [.status(401, body: ""), .status(200, body: adaJSON)]], signedIn: .fresh, until: "home.spinner stopped"),
    appStart("start, profile expired and refresh fails", ["GET /me": unauthorized, "POST /session/refresh": serverError], signedIn: .fresh, until: "present Sign In"),
    Scenario(name: "two requests expire at once, one refresh", answers: ["GET /banner": [.status(401, body: ""), .status(200, body: "{\"headline\":\"Plums\"}")], "GET /me": [.status(401, body: ""), .status(200, body: adaJSON)]]) {
        let home = pushed(HomeViewController())
        return [Step(until: "home.spinner stopped") { home.loadViewIfNeeded() }]
    },
    Scenario(name: "prefetch after signing in") {
        let coordinator = AppCoordinator(window: ViewController(title: "window"))
        keep(coordinator)
        return [Step(until: "prefetch over") { coordinator.startPrefetch() }]
    },
    Scenario(name: "prefetch, stores fail", answers: ["GET /stores": serverError]) {
        let coordinator = AppCoordinator(window: ViewController(title: "window"))
        keep(coordinator)
        return [Step(until: "prefetch over") { coordinator.startPrefetch() }]
    },
]

// MARK: - Home

func home(_ name: String, _ answers: [String: [ServerAnswer]] = [:], cachedStores: Bool = false, until: String = "home.spinner stopped", then more: ((HomeViewController) -> [Step])? = nil) -> Scenario {
    Scenario(name: name, answers: answers, cachedStores: cachedStores) {
        let screen = HomeViewController()
        _ = NavigationController(root: ViewController(title: "root"))
        var steps = [Step(until: until) { screen.loadViewIfNeeded() }]
        steps += more?(screen) ?? []
        return steps
    }
}

scenarios += [
    home("home"),
    home("home, offline with stores cached", ["GET /stores": offline], cachedStores: true),
    home("home, offline with nothing cached", ["GET /stores": offline]),
    home("home, stores fail", ["GET /stores": serverError]),
    home("home, banner fails", ["GET /banner": serverError]),
    home("home, points fail", ["GET /me": serverError]),
    home("home, refresh twice while loading") { screen in
        [Step(until: "home.spinner stopped") { screen.refreshButton.sendActions(); screen.refreshButton.sendActions() }]
    },
    home("home, open a closed store") { screen in
        [Step(until: "home.headline") { screen.openStore(at: 2) }]
    },
    home("home, open a store") { screen in
        screen.onOpenStore = { store in Effects.shared.record("open store \(store.name)") }
        return [Step(until: "open store") { screen.openStore(at: 0) }]
    },
]

// MARK: - A store

func store(_ name: String, _ id: StoreID = 1, _ answers: [String: [ServerAnswer]] = [:], until: String = "store.status", then more: ((StoreViewController) -> [Step])? = nil) -> Scenario {
    Scenario(name: name, answers: answers) {
        let screen = StoreViewController(storeID: id)
        _ = NavigationController(root: ViewController(title: "home"))
        var steps = [Step(until: until) { screen.loadViewIfNeeded() }]
        steps += more?(screen) ?? []
        return steps
    }
}

scenarios += [
    store("store", until: "store.status: 3 products"),
    store("store, closed", 2),
    store("store, not found", 5, ["GET /stores/5": notFound]),
    store("store, categories fail", 1, ["GET /stores/1/categories": serverError], until: "store.status: Nothing"),
    store("store, products fail", 1, ["GET /stores/1/products?category=10": serverError], until: "store.status: The server"),
    store("store, products unreadable", 1, ["GET /stores/1/products?category=10": [.status(200, body: "[]")]], until: "store.status: Unexpected"),
    store("store, second category", until: "store.status: 3 products") { screen in
        [Step(until: "store.status: 3 products") { screen.selectCategory(at: 1) }]
    },
    store("store, quick add", until: "store.status: 3 products") { screen in
        [Step(until: "store.status: Added") { screen.quickAdd(at: 1) }]
    },
    store("store, quick add sold out, alternative offered", until: "store.status: 3 products") { screen in
        [Step(until: "Try") { screen.quickAdd(at: 2) }]
    },
    store("store, quick add sold out, alternative fails", 1, ["GET /stores/1/products?category=10": [.status(200, body: "{\"items\":[{\"id\":3,\"name\":\"Saffron\",\"price\":1999,\"inStock\":false,\"categoryID\":10}]}"), .status(500, body: "")]], until: "store.status: 1 products") { screen in
        [Step(until: "is sold out.") { screen.quickAdd(at: 0) }]
    },
    store("store, quick add fails", 1, ["POST /cart/lines/2?quantity=1": serverError], until: "store.status: 3 products") { screen in
        [Step(until: "store.status: The server") { screen.quickAdd(at: 1) }]
    },
    store("store, read the shelf", until: "store.status: 3 products") { screen in
        [Step(until: "Shelf:") { screen.announceShelf(category: 11) }]
    },
]

// MARK: - A product

func product(_ name: String, _ id: ProductID = 1, _ answers: [String: [ServerAnswer]] = [:], until: String = "product.spinner stopped", then more: ((ProductDetailViewController) -> [Step])? = nil) -> Scenario {
    Scenario(name: name, answers: answers) {
        let screen = pushed(ProductDetailViewController(productID: id))
        var steps = [Step(until: until) {}]
        steps += more?(screen) ?? []
        return steps
    }
}

scenarios += [
    product("product", until: "product.rating"),
    product("product, not found", 8, ["GET /products/8": notFound]),
    product("product, sold out", 3, until: "product.rating"),
    product("product, reviews fail", 1, ["GET /products/1/reviews": serverError], until: "product.rating"),
    product("product, no reviews", 1, ["GET /products/1/reviews": [.status(200, body: "{\"items\":[]}")]], until: "product.rating"),
    product("product, add to cart", until: "product.rating") { screen in
        [Step(until: "product.status") { screen.addButton.sendActions() }]
    },
    product("product, add to cart fails", 1, ["POST /cart/lines/1?quantity=1": serverError], until: "product.rating") { screen in
        [Step(until: "product.status") { screen.addButton.sendActions() }]
    },
    product("product, rate", until: "product.rating") { screen in
        [Step(until: "product.status") { screen.rate(5) }]
    },
    product("product, rate out of range", until: "product.rating") { screen in
        [Step(until: "product.status") { screen.rate(9) }]
    },
    product("product, rating fails", 1, ["POST /products/1/reviews?stars=4": serverError], until: "product.rating") { screen in
        [Step(until: "product.status") { screen.rate(4) }]
    },
]

// MARK: - The cart

func cart(_ name: String, _ answers: [String: [ServerAnswer]] = [:], until: String = "cart.spinner stopped", then more: ((CartViewController) -> [Step])? = nil) -> Scenario {
    Scenario(name: name, answers: answers) {
        let screen = CartViewController()
        screen.onCheckout = { cart in Effects.shared.record("checkout \(cart.lines.count) lines") }
        var steps = [Step(until: until) { _ = NavigationController(root: screen) }]
        steps += more?(screen) ?? []
        return steps
    }
}

let emptyCart: [ServerAnswer] = [.status(200, body: "{\"id\":7,\"storeID\":1,\"lines\":[]}")]

scenarios += [
    cart("cart"),
    cart("cart, empty", ["GET /cart": emptyCart]),
    cart("cart, fails", ["GET /cart": serverError]),
    cart("cart, pricing fails, subtotal shown", [quote: serverError]),
    cart("cart, coupon", then: { screen in
        [Step(until: "cart.status") { screen.couponField.text = "FRESH"; screen.applyCouponButton.sendActions() }]
    }),
    cart("cart, unknown coupon", ["GET /coupons/OLD": notFound], then: { screen in
        [Step(until: "cart.status") { screen.couponField.text = "OLD"; screen.applyCouponButton.sendActions() }]
    }),
    cart("cart, blank coupon", then: { screen in
        [Step(until: "cart.status") { screen.couponField.text = "  "; screen.applyCouponButton.sendActions() }]
    }),
    cart("cart, remove a line", then: { screen in
        [Step(until: "cart.summary") { screen.removeLine(at: 1) }]
    }),
    cart("cart, remove fails", ["DELETE /cart/lines/2": serverError], then: { screen in
        [Step(until: "cart.status") { screen.removeLine(at: 1) }]
    }),
    cart("cart, checkout", then: { screen in
        [Step(until: "checkout 2 lines") { screen.checkoutButton.sendActions() }]
    }),
]

// MARK: - Checkout

func checkoutScenario(_ name: String, _ answers: [String: [ServerAnswer]] = [:], hooks: [String: @Sendable () -> Void] = [:], coupon: String? = nil, payment: PaymentProcessing = CardPaymentProcessor(), until: String, then more: [Step] = []) -> Scenario {
    Scenario(name: name, answers: answers, hooks: hooks) {
        let screen = checkout(coupon: coupon, payment: payment)
        return [Step(until: until) { screen.placeButton.sendActions() }] + more
    }
}

/// The Cancel button of the checkout on screen, tapped while a request is in flight.
let tapCancel: @Sendable () -> Void = {
    (Stage.checkout?.navigation.viewControllers.last as? CheckoutViewController)?.cancelButton.sendActions()
}

scenarios += [
    checkoutScenario("checkout", until: "tracking.status"),
    checkoutScenario("checkout with a coupon", coupon: "FRESH", until: "tracking.status"),
    checkoutScenario("checkout, coupon invalid, priced without", ["GET /coupons/OLD": notFound], coupon: "OLD", until: "tracking.status"),
    checkoutScenario("checkout, cart fails", ["GET /cart": serverError], until: "present alert"),
    checkoutScenario("checkout, cart empty", ["GET /cart": emptyCart], until: "present alert"),
    checkoutScenario("checkout, a product sold out", ["GET /products/2": [.status(200, body: "{\"id\":2,\"name\":\"Milk\",\"price\":199,\"inStock\":false,\"categoryID\":11}")]], until: "present alert"),
    checkoutScenario("checkout, stock check fails", ["GET /products/1": serverError], until: "present alert"),
    checkoutScenario("checkout, pricing fails", [quote: serverError], until: "present alert"),
    checkoutScenario("checkout, slots fail", ["GET /stores/1/slots": serverError], until: "present alert"),
    checkoutScenario("checkout, no free slot", ["GET /stores/1/slots": [.status(200, body: "{\"items\":[{\"id\":1,\"window\":\"9-10\",\"available\":false}]}")]], until: "present alert"),
    checkoutScenario("checkout, reserving fails", ["POST /slots/2/reserve": serverError], until: "present alert"),
    checkoutScenario("checkout, payment fails once, retried", [cardPayment: [.status(503, body: ""), .status(200, body: "{\"authorizationID\":\"auth-card\",\"amount\":998}")]], until: "tracking.status"),
    checkoutScenario("checkout, payment fails twice, retry later", [cardPayment: [.status(503, body: ""), .status(503, body: ""), .status(200, body: "{\"authorizationID\":\"auth-card\",\"amount\":998}")]], until: "present alert", then: [Step(until: "tracking.status") { tapAlert("Retry") }]),
    checkoutScenario("checkout, card declined, pay with wallet", [cardPayment: [.status(402, body: "")]], until: "present alert", then: [Step(until: "tracking.status") { tapAlert("Use Wallet") }]),
    checkoutScenario("checkout, wallet too low", ["GET /wallet": [.status(200, body: "{\"balance\":100}")]], payment: WalletPaymentProcessor(), until: "present alert"),
    checkoutScenario("checkout, wallet fails", ["GET /wallet": serverError], payment: WalletPaymentProcessor(), until: "present alert"),
    checkoutScenario("checkout, placing fails", [placeOrder: serverError], until: "present alert"),
    checkoutScenario("checkout, placing and releasing fail", [placeOrder: serverError, "DELETE /reservations/r-2": serverError], until: "present alert"),
    checkoutScenario("checkout, confirmation fails", ["GET /orders/42": serverError], until: "confirmation unavailable"),
    checkoutScenario("checkout, cancelled while pricing", hooks: [quote: tapCancel], until: "checkout.result"),
    checkoutScenario("checkout, cancelled while paying", hooks: [cardPayment: tapCancel], until: "checkout.result"),
    checkoutScenario("checkout, cancelled while checking stock", hooks: ["GET /products/2": tapCancel], until: "checkout.result"),
    checkoutScenario("checkout, session expires while paying", [cardPayment: unauthorized.prefix(1) + [.status(200, body: "{\"authorizationID\":\"auth-card\",\"amount\":998}")]], until: "tracking.status"),
]

// MARK: - Orders

func orders(_ name: String, _ answers: [String: [ServerAnswer]] = [:], until: String = "orders.spinner stopped", then more: ((OrdersViewController) -> [Step])? = nil) -> Scenario {
    Scenario(name: name, answers: answers) {
        let screen = pushed(OrdersViewController())
        return [Step(until: until) {}] + (more?(screen) ?? [])
    }
}

scenarios += [
    orders("orders"),
    orders("orders, fail", ["GET /orders": serverError]),
    orders("orders, a receipt fails", ["GET /orders/41/receipt": serverError]),
    orders("orders, order again") { screen in
        [Step(until: "orders.status: Cart has") { screen.orderAgain(41) }]
    },
    orders("orders, order again, a product is gone, add the rest", ["POST /cart/lines/2?quantity=1": notFound]) { screen in
        [Step(until: "present alert") { screen.orderAgain(41) },
         Step(until: "orders.status: Added") { tapAlert("Add What Is Available") }]
    },
    orders("orders, order again, receipt fails", ["GET /orders/39/receipt": serverError]) { screen in
        [Step(until: "present alert") { screen.orderAgain(39) }]
    },
]

// MARK: - Search

func search(_ name: String, _ answers: [String: [ServerAnswer]] = [:], until: String, _ action: @escaping (SearchViewController) -> Void) -> Scenario {
    Scenario(name: name, answers: answers) {
        let screen = pushed(SearchViewController())
        return [Step(until: until) { action(screen) }]
    }
}

scenarios += [
    search("search as you type", until: "search.status") { screen in
        screen.textDidChange("m"); screen.textDidChange("mi"); screen.textDidChange("mil")
    },
    search("search, nothing found", until: "search.status") { $0.textDidChange("zz") },
    search("search fails", ["GET /search?q=ap": serverError], until: "search.status") { $0.textDidChange("ap") },
    search("search key", until: "search.results") { $0.submit("Eg") },
    search("search key, then cancel", until: "search.status") { screen in
        screen.submit("Ap"); screen.cancelSearch()
    },
    search("search key twice, the first is dropped", until: "search.results") { screen in
        screen.submit("Br"); screen.submit("Mi")
    },
    search("suggestions", until: "search.suggestions") { $0.loadSuggestions("a") },
    search("suggestions, slow server", ["GET /search?q=b": [.delayed(milliseconds: 600, .status(200, body: "{\"items\":[]}"))]], until: "search.suggestions") { $0.loadSuggestions("b") },
]

// MARK: - Tracking

/// `leaveEarly`: the shopper leaves the screen while the first update is in flight.
func tracking(_ name: String, _ answers: [String: [ServerAnswer]] = [:], until: String, leaveEarly: Bool = false) -> Scenario {
    let leave: @Sendable () -> Void = { (Stage.kept.last as? OrderTrackingViewController)?.stop() }
    return Scenario(name: name, answers: answers, hooks: leaveEarly ? ["GET /orders/42/tracking": leave] : [:]) {
        let screen = OrderTrackingViewController(orderID: 42)
        keep(screen)
        return [Step(until: until) { _ = NavigationController(root: screen) }]
    }
}

let onTheWay: [ServerAnswer] = [
    .status(200, body: "{\"orderID\":42,\"status\":\"packing\",\"minutesAway\":30}"),
    .status(200, body: "{\"orderID\":42,\"status\":\"on the way\",\"minutesAway\":10}"),
    .status(200, body: "{\"orderID\":42,\"status\":\"delivered\",\"minutesAway\":0}"),
]

scenarios += [
    tracking("tracking", ["GET /orders/42/tracking": onTheWay], until: "tracking.status"),
    tracking("tracking, never delivered", ["GET /orders/42/tracking": Array(onTheWay.prefix(2))], until: "tracking.status"),
    tracking("tracking fails midway", ["GET /orders/42/tracking": Array(onTheWay.prefix(1)) + serverError], until: "tracking.status"),
    tracking("tracking, left the screen", ["GET /orders/42/tracking": onTheWay], until: "tracking left early", leaveEarly: true),
]

// MARK: - Links

func link(_ name: String, _ url: String, _ answers: [String: [ServerAnswer]] = [:], until: String) -> Scenario {
    Scenario(name: name, answers: answers) {
        let router = DeepLinkRouter(navigation: NavigationController(root: ViewController(title: "home")))
        keep(router)
        return [Step(until: until) { router.openShowingErrors(url) }]
    }
}

scenarios += [
    link("link to a store", "freshcart://store/1", until: "analytics: link store"),
    link("link to a closed store", "freshcart://store/2", until: "links.banner"),
    link("link to a product", "freshcart://product/4", until: "analytics: link product"),
    link("link to a product that is gone", "freshcart://product/8", ["GET /products/8": notFound], until: "analytics: link product"),
    link("link to an order", "freshcart://order/42", ["GET /orders/42/tracking": onTheWay], until: "tracking.status"),
    link("link to a coupon", "freshcart://coupon/SPRING", until: "links.banner"),
    link("link to a coupon, server down", "freshcart://coupon/SPRING", ["GET /coupons/SPRING": serverError], until: "links.banner: The server"),
    link("link that is not ours", "https://example.com", until: "links.banner"),
]

// MARK: - Settings, favourites, wallet, profile, inventory

func screen<Screen: ViewController>(_ name: String, _ answers: [String: [ServerAnswer]] = [:], pushGranted: Bool = true, make: @escaping () -> Screen, until: String, then more: ((Screen) -> [Step])? = nil) -> Scenario {
    Scenario(name: name, answers: answers, pushGranted: pushGranted) {
        let screen = pushed(make())
        return [Step(until: until) {}] + (more?(screen) ?? [])
    }
}

scenarios += [
    screen("order updates on", make: { SettingsViewController() }, until: "push Settings") { settings in
        [Step(until: "settings.notifications") { settings.notificationsButton.sendActions() }]
    },
    screen("order updates refused", pushGranted: false, make: { SettingsViewController() }, until: "push Settings") { settings in
        [Step(until: "settings.notifications") { settings.notificationsButton.sendActions() }]
    },
    screen("order updates, registration fails", ["POST /me/devices": serverError], make: { SettingsViewController() }, until: "push Settings") { settings in
        [Step(until: "settings.notifications") { settings.notificationsButton.sendActions() }]
    },
    screen("order updates asked twice", make: { SettingsViewController() }, until: "push Settings") { settings in
        [Step(until: "settings.notifications") { settings.notificationsButton.sendActions() },
         Step(until: "settings.notifications") { settings.notificationsButton.sendActions() }]
    },
    screen("diagnostics", make: { SettingsViewController() }, until: "push Settings") { settings in
        [Step(until: "settings.diagnostics") { settings.runDiagnostics() }]
    },
    screen("diagnostics, banner fails", ["GET /banner": serverError], make: { SettingsViewController() }, until: "push Settings") { settings in
        [Step(until: "settings.diagnostics") { settings.runDiagnostics() }]
    },
    screen("favourites", make: { FavouritesViewController() }, until: "favourites.status"),
    screen("favourites, one product gone", ["GET /products/2": notFound], make: { FavouritesViewController() }, until: "favourites.status"),
    screen("favourites, list fails", ["GET /me/favourites": serverError], make: { FavouritesViewController() }, until: "favourites.status"),
    screen("favourites, add all", make: { FavouritesViewController() }, until: "favourites.status") { favourites in
        [Step(until: "favourites.status: Cart") { favourites.addAllButton.sendActions() }]
    },
    screen("favourites, add all, stock check fails", ["GET /products/3": serverError], make: { FavouritesViewController() }, until: "favourites.status") { favourites in
        [Step(until: "button Add All enabled") { favourites.addAllButton.sendActions() }]
    },
    screen("favourites, details", make: { FavouritesViewController() }, until: "favourites.status") { favourites in
        [Step(until: "favourites.list shows") { favourites.showDetails() }]
    },
    screen("wallet", make: { WalletViewController() }, until: "wallet.spinner stopped"),
    screen("wallet fails", ["GET /wallet": serverError], make: { WalletViewController() }, until: "wallet.balance"),
    screen("wallet, pay", make: { WalletViewController() }, until: "wallet.spinner stopped") { wallet in
        [Step(until: "wallet.spinner stopped") { wallet.pay(1200) }]
    },
    screen("wallet, pay more than the balance", make: { WalletViewController() }, until: "wallet.spinner stopped") { wallet in
        [Step(until: "wallet.status") { wallet.pay(9000) }]
    },
    screen("wallet, pay by card", make: { WalletViewController() }, until: "wallet.spinner stopped") { wallet in
        [Step(until: "Paid with") { wallet.payByCard(500) }]
    },
    screen("profile", make: { ProfileViewController() }, until: "profile.points"),
    screen("profile fails", ["GET /me": serverError], make: { ProfileViewController() }, until: "profile.points"),
    screen("profile, no address", ["GET /me/addresses": [.status(200, body: "{\"items\":[]}")]], make: { ProfileViewController() }, until: "profile.points") { profile in
        [Step(until: "profile.address: Add") { profile.confirmAddressTapped() }]
    },
    screen("profile, confirm address", make: { ProfileViewController() }, until: "profile.points") { profile in
        [Step(until: "address confirmed") { profile.confirmAddressTapped() }]
    },
    screen("profile, sign out", make: { ProfileViewController() }, until: "profile.points") { profile in
        profile.onSignedOut = { Effects.shared.record("signed out") }
        return [Step(until: "signed out") { profile.signOutButton.sendActions() }]
    },
    screen("reviews", make: { ReviewsViewController(productID: 1) }, until: "reviews.status"),
    screen("reviews, rate", make: { ReviewsViewController(productID: 1) }, until: "reviews.status") { reviews in
        [Step(until: "reviews.status") { reviews.rate(4) }]
    },
    screen("reviews, rating fails", ["POST /products/1/reviews?stars=2": serverError], make: { ReviewsViewController(productID: 1) }, until: "reviews.status") { reviews in
        [Step(until: "reviews.status") { reviews.rate(2) }]
    },
]

func manager(_ name: String, _ answers: [String: [ServerAnswer]] = [:], until: String, _ action: @escaping (StoreManagerViewController) -> Void) -> Scenario {
    Scenario(name: name, answers: answers) {
        let screen = pushed(StoreManagerViewController())
        return [Step(until: until) { action(screen) }]
    }
}

scenarios += [
    manager("stock report", until: "manager.report") { $0.sendReport(for: [1, 2, 3]) },
    manager("stock report, upload fails", ["POST /me/devices": serverError], until: "manager.report") { $0.sendReport(for: [1, 3]) },
    manager("stock report, a stock check fails", ["GET /products/2": serverError], until: "manager.report") { $0.sendReport(for: [1, 2, 3]) },
    manager("fastest product", until: "manager.lookup") { $0.lookUp(4) },
    manager("fastest product, primary fails first", ["GET /products/4": serverError], until: "manager.lookup") { $0.lookUp(4) },
    manager("last receipt and totals", until: "manager.totals") { $0.showTotals() },
    manager("last receipt, orders fail", ["GET /orders": serverError], until: "manager.totals") { $0.showTotals() },
    manager("last receipt, receipts fail", ["GET /orders/41/receipt": serverError, "GET /orders/39/receipt": serverError], until: "manager.totals") { $0.showTotals() },
]

// MARK: - Onboarding, addresses, stores, orders, promotions, sessions

func onboarding(_ name: String, _ answers: [String: [ServerAnswer]] = [:], pushGranted: Bool = true, until: String) -> Scenario {
    Scenario(name: name, answers: answers, signedIn: .nobody, pushGranted: pushGranted) {
        let coordinator = OnboardingCoordinator(navigation: NavigationController(root: ViewController(title: "stores")))
        keep(coordinator)
        return [Step(until: until) { coordinator.run() }]
    }
}

let allClosed: [ServerAnswer] = [.status(200, body: "{\"items\":[{\"id\":2,\"name\":\"Corner Market\",\"isOpen\":false,\"deliveryFee\":0}]}")]

scenarios += [
    onboarding("onboarding", until: "store.status: 3 products"),
    onboarding("onboarding, updates refused", pushGranted: false, until: "store.status: 3 products"),
    onboarding("onboarding, no store open", ["GET /stores": allClosed], until: "onboarding.status: No store"),
    onboarding("onboarding, stores fail", ["GET /stores": serverError], until: "onboarding.status: The server"),
    screen("addresses", make: { AddressBookViewController() }, until: "addresses.list"),
    screen("addresses, none", ["GET /me/addresses": [.status(200, body: "{\"items\":[]}")]], make: { AddressBookViewController() }, until: "addresses.status"),
    screen("addresses fail", ["GET /me/addresses": serverError], make: { AddressBookViewController() }, until: "addresses.status"),
    screen("addresses, make default", make: { AddressBookViewController() }, until: "addresses.list") { book in
        [Step(until: "analytics: Ada changed address") { book.makeDefault(at: 1) }]
    },
    screen("addresses, make default, profile fails", ["GET /me": serverError], make: { AddressBookViewController() }, until: "addresses.list") { book in
        [Step(until: "analytics: address changed") { book.makeDefault(at: 1) }]
    },
    screen("addresses, make default, removed elsewhere", ["GET /me/addresses": [.status(200, body: "{\"items\":[{\"id\":1,\"label\":\"Home\",\"street\":\"1 Elm Street\",\"isDefault\":true},{\"id\":2,\"label\":\"Work\",\"street\":\"9 Mill Road\",\"isDefault\":false}]}"), .status(200, body: "{\"items\":[{\"id\":1,\"label\":\"Home\",\"street\":\"1 Elm Street\",\"isDefault\":true}]}")]], make: { AddressBookViewController() }, until: "addresses.list") { book in
        [Step(until: "addresses.list") { book.makeDefault(at: 1) }]
    },
    screen("stores", make: { StoreListViewController() }, until: "stores.spinner stopped"),
    screen("stores fail", ["GET /stores": serverError], make: { StoreListViewController() }, until: "stores.status"),
    screen("stores, filter and open", make: { StoreListViewController() }, until: "stores.spinner stopped") { list in
        [Step(until: "stores.status") { list.filter("barn") },
         Step(until: "opened") { list.open(at: 0) { Effects.shared.record("opened \($0.name)") } }]
    },
    screen("stores, refresh twice", make: { StoreListViewController() }, until: "stores.spinner stopped") { list in
        [Step(until: "stores.spinner stopped") { list.refresh(); list.refresh() }]
    },
    screen("stores, open one that is slow", ["GET /stores/1": [.delayed(milliseconds: 800, .status(200, body: "{}"))]], make: { StoreListViewController() }, until: "stores.spinner stopped") { list in
        [Step(until: "stores.status: The server took too long") { list.open(at: 0) { Effects.shared.record("opened \($0.name)") } }]
    },
    screen("order detail", make: { OrderDetailViewController(orderID: 41) }, until: "order.spinner stopped"),
    screen("order detail, tracking fails", ["GET /orders/41/tracking": serverError], make: { OrderDetailViewController(orderID: 41) }, until: "order.spinner stopped"),
    screen("order detail, no suggestion", ["GET /stores/1/categories": serverError], make: { OrderDetailViewController(orderID: 41) }, until: "order.spinner stopped"),
    screen("order list screen", make: { ListViewController(source: OrdersViewModel()) }, until: "list.status"),
    screen("recently viewed", make: { ListViewController(source: RecentlyViewed(ids: [1, 3])) }, until: "list.status"),
    screen("recently viewed, nothing", make: { ListViewController(source: RecentlyViewed(ids: [])) }, until: "list.status"),
    screen("recently viewed fails", ["GET /products/3": serverError], make: { ListViewController(source: RecentlyViewed(ids: [1, 3])) }, until: "list.status"),
    screen("promotions", make: { PromotionsViewController() }, until: "promos.price"),
    screen("promotions, pricing fails", [quote: serverError], make: { PromotionsViewController() }, until: "promos.price"),
    screen("promotions, redeem codes", ["GET /coupons/OLD": notFound], make: { PromotionsViewController() }, until: "promos.price") { promos in
        [Step(until: "promos.status") { promos.redeemTapped("SPRING,OLD, ") }]
    },
]

func account(_ name: String, _ answers: [String: [ServerAnswer]] = [:], until: String, _ action: @escaping (AccountViewController) -> Void) -> Scenario {
    Scenario(name: name, answers: answers) {
        let screen = pushed(AccountViewController())
        return [Step(until: until) { action(screen) }]
    }
}

scenarios += [
    account("sign out everywhere", until: "account.status") { $0.signOutEverywhereButton.sendActions() },
    account("sign out everywhere, server down", ["POST /me/devices": serverError, "DELETE /reservations/all": serverError], until: "account.status") { $0.signOutEverywhereButton.sendActions() },
    account("switch account", until: "account.spinner stopped") { $0.switchAccount(email: "bo@fresh.cart", password: "pw") },
    account("switch account, login fails", ["POST /login?email=bo@fresh.cart": [.status(403, body: "")]], until: "account.status") { $0.switchAccount(email: "bo@fresh.cart", password: "pw") },
    account("switch account, no password", until: "account.status") { $0.switchAccount(email: "bo@fresh.cart", password: "") },
    account("email check", until: "account.status") { $0.emailChanged(" Ada@Fresh.Cart ") },
    account("email check fails", until: "account.status") { $0.emailChanged("ada") },
]

let allScenarios = scenarios
Thread.detachNewThread {
    for scenario in allScenarios {
        let effects = scenario.run()
        print("== \(scenario.name)")
        for line in effects { print(line) }
    }
    exit(0)
}
dispatchMain()
