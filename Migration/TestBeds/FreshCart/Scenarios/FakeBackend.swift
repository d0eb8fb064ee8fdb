import Foundation

/// The FreshCart server as the scenarios want it: every endpoint answers something sensible by
/// default; a scenario overrides single requests ("METHOD /path": a failure status, a slow
/// answer, a sequence of answers) and may run a hook just before a request is answered (the
/// shopper taps Cancel while that request is in flight).
final class FakeBackend: @unchecked Sendable {
    static let shared = FakeBackend()
    private let lock = NSLock()
    private var overrides: [String: [ServerAnswer]] = [:]
    private var hooks: [String: @Sendable () -> Void] = [:]

    /// `answers[key]` are used one per request, the last one for every later request.
    func configure(_ answers: [String: [ServerAnswer]], hooks: [String: @Sendable () -> Void]) {
        lock.lock(); overrides = answers; self.hooks = hooks; lock.unlock()
    }

    func answer(_ request: HTTPRequest) -> ServerAnswer {
        let key = "\(request.method) \(request.path)"
        Effects.shared.record("server: \(key)" + (request.body.map { " \($0)" } ?? ""))
        lock.lock()
        let hook = hooks.removeValue(forKey: key)
        var answer: ServerAnswer?
        if var queued = overrides[key], !queued.isEmpty {
            answer = queued.count > 1 ? queued.removeFirst() : queued[0]
            overrides[key] = queued
        }
        lock.unlock()
        if let hook { DispatchQueue.main.sync { hook() } }
        return answer ?? defaultAnswer(request)
    }

    // MARK: - Defaults

    private func ok(_ body: String) -> ServerAnswer { .status(200, body: body) }
    private func list(_ items: [String]) -> ServerAnswer { ok("{\"items\":[" + items.joined(separator: ",") + "]}") }

    static let productNames = [1: "Apples", 2: "Milk", 3: "Saffron", 4: "Bread", 5: "Eggs"]

    private func product(_ id: Int, category: Int = 10) -> String {
        let name = FakeBackend.productNames[id % 1000] ?? "Product \(id)"
        let price = [1: 250, 2: 199, 3: 1999, 4: 350, 5: 420][id % 1000] ?? 100
        return "{\"id\":\(id),\"name\":\"\(name)\",\"price\":\(price),\"inStock\":\(id % 1000 != 3),\"categoryID\":\(category)}"
    }

    private func store(_ id: Int) -> String {
        let stores = [1: ("Green Grocer", true, 299), 2: ("Corner Market", false, 0), 3: ("Bulk Barn", true, 499)]
        let (name, open, fee) = stores[id] ?? ("Store \(id)", true, 199)
        return "{\"id\":\(id),\"name\":\"\(name)\",\"isOpen\":\(open),\"deliveryFee\":\(fee)}"
    }

    private func line(_ id: Int, quantity: Int) -> String {
        let name = FakeBackend.productNames[id] ?? "Product \(id)"
        let price = [1: 250, 2: 199, 3: 1999, 4: 350, 5: 420][id] ?? 100
        return "{\"productID\":\(id),\"name\":\"\(name)\",\"quantity\":\(quantity),\"price\":\(price)}"
    }

    private func defaultAnswer(_ request: HTTPRequest) -> ServerAnswer {
        let pathAndQuery = request.path.split(separator: "?", maxSplits: 1).map(String.init)
        let parts = pathAndQuery[0].split(separator: "/").map(String.init)
        let query = pathAndQuery.count > 1 ? pathAndQuery[1] : ""
        let number = { (index: Int) -> Int in index < parts.count ? Int(parts[index]) ?? 0 : 0 }
        let value = { (name: String) -> String? in
            query.split(separator: "&").map(String.init).first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
        }
        let route = request.method + " " + parts.map { Int($0) != nil ? "#" : $0 }.joined(separator: "/")
        let last = parts.last ?? ""
        switch route {
        case "POST login":
            return ok("{\"token\":\"tok-\(value("email") ?? "")\",\"userID\":1,\"expiresIn\":3600}")
        case "POST session/refresh":
            return ok("{\"token\":\"tok-refreshed\",\"userID\":1,\"expiresIn\":3600}")
        case "GET me":
            return ok("{\"id\":1,\"name\":\"Ada\",\"email\":\"ada@fresh.cart\",\"loyaltyPoints\":120}")
        case "GET me/addresses":
            return list(["{\"id\":1,\"label\":\"Home\",\"street\":\"1 Elm Street\",\"isDefault\":true}", "{\"id\":2,\"label\":\"Work\",\"street\":\"9 Mill Road\",\"isDefault\":false}"])
        case "GET me/favourites":
            return list(["1", "2", "4"])
        case "POST me/devices":
            return ok("{}")
        case "GET stores":
            return list([store(1), store(2), store(3)])
        case "GET stores/#":
            return ok(store(number(1)))
        case "GET stores/#/categories":
            return list(["{\"id\":10,\"name\":\"Fruit\"}", "{\"id\":11,\"name\":\"Dairy\"}"])
        case "GET stores/#/products":
            let category = Int(value("category") ?? "") ?? 10
            return list([product(3, category: category), product(1, category: category), product(2, category: category)])
        case "GET stores/#/slots":
            return list(["{\"id\":1,\"window\":\"9-10\",\"available\":false}", "{\"id\":2,\"window\":\"10-11\",\"available\":true}"])
        case "GET products/#":
            return ok(product(number(1)))
        case "GET products/#/reviews":
            return list(["{\"productID\":\(number(1)),\"stars\":3,\"text\":\"Fine\"}", "{\"productID\":\(number(1)),\"stars\":5,\"text\":\"Lovely\"}"])
        case "POST products/#/reviews":
            return ok("{}")
        case "GET banner":
            return ok("{\"headline\":\"Strawberries are in\"}")
        case "GET search":
            let text = value("q") ?? ""
            let matches = FakeBackend.productNames.keys.sorted().filter { FakeBackend.productNames[$0]!.lowercased().hasPrefix(text.lowercased()) }
            return list(matches.map { product($0) })
        case "GET cart":
            return ok("{\"id\":7,\"storeID\":1,\"lines\":[\(line(1, quantity: 2)),\(line(2, quantity: 1))]}")
        case "POST cart/lines/#":
            let quantity = Int(value("quantity") ?? "") ?? 1
            return ok("{\"id\":7,\"storeID\":1,\"lines\":[\(line(1, quantity: 2)),\(line(number(2), quantity: quantity))]}")
        case "DELETE cart/lines/#":
            return ok("{}")
        case "POST cart/#/quote":
            let discount = value("coupon") == nil ? 0 : 100
            return ok("{\"subtotal\":699,\"deliveryFee\":299,\"discount\":\(discount),\"total\":\(998 - discount)}")
        case let route where route.hasPrefix("GET coupons/"):
            return ok("{\"code\":\"\(last)\",\"discount\":100}")
        case "POST slots/#/reserve":
            return ok("{\"slotID\":\(number(1)),\"reservationID\":\"r-\(number(1))\"}")
        case let route where route.hasPrefix("DELETE reservations/"):
            return ok("{}")
        case "GET wallet":
            return ok("{\"balance\":5000}")
        case let route where route.hasPrefix("POST payments/"):
            return ok("{\"authorizationID\":\"auth-\(last)\",\"amount\":\(value("amount") ?? "0")}")
        case "POST orders":
            return ok("{\"id\":42,\"status\":\"placed\",\"total\":998}")
        case "GET orders":
            return list(["{\"id\":41,\"status\":\"delivered\",\"total\":1200}", "{\"id\":40,\"status\":\"draft\",\"total\":0}", "{\"id\":39,\"status\":\"delivered\",\"total\":560}"])
        case "GET orders/#":
            return ok("{\"id\":\(number(1)),\"status\":\"placed\",\"total\":998}")
        case "GET orders/#/receipt":
            return ok("{\"orderID\":\(number(1)),\"lines\":2,\"total\":998}")
        case "GET orders/#/tracking":
            return ok("{\"orderID\":\(number(1)),\"status\":\"delivered\",\"minutesAway\":0}")
        default:
            return .status(404, body: "")
        }
    }
}
