import Foundation

/// Menus and dishes, read by the customer apps and edited by the kitchen app.
public final class MenuService: APIClient {
    /// A kitchen's whole menu.
    public func menu(for kitchenID: String, cachePolicy: CachePolicy = .useCache, completion: @escaping MenuCompletion) {
        let request = HTTPRequest(path: "kitchens/\(kitchenID)/menu")
        #if compiler(>=5.5.2)
        fetch(request, as: Menu.self, cachePolicy: cachePolicy) { result in
            if case .success(let menu) = result {
                // Sold-out dishes go to the end of each section, as in the kitchen's own screens.
                for section in menu.sections {
                    section.items = section.items.filter(\.isAvailable) + section.items.filter { !$0.isAvailable }
                }
            }
            completion(result)
        }
        #else
        fetch(request, as: Menu.self, cachePolicy: cachePolicy, completion: completion)
        #endif
    }

    /// Dishes matching a query, in one kitchen or everywhere.
    public func search(_ query: String, in kitchenID: String? = nil, limit: Int = 20, completion: @escaping (Result<[MenuItem], SDKError>) -> Void) {
        let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            completion(.success([]))
            return
        }
        var request = HTTPRequest(path: "menu-items/search", query: ["q": trimmed, "limit": String(limit)])
        if let kitchenID = kitchenID {
            request.query["kitchen"] = kitchenID
        }
        #if compiler(>=5.5.2)
        fetch(request, as: [MenuItem].self, cachePolicy: .reloadIgnoringCache) { result in
            completion(result.map { Array($0.prefix(limit)) })
        }
        #else
        // Older servers ignore `limit`; older compilers get the whole answer, as before 3.2.
        fetch(request, as: [MenuItem].self, cachePolicy: .reloadIgnoringCache, completion: completion)
        #endif
    }

    /// One dish.
    public func item(id: String, completion: @escaping (MenuItem?, Error?) -> Void) {
        fetch(HTTPRequest(path: "menu-items/\(id)"), as: MenuItem.self) { result in
            switch result {
            case .success(let item):
                completion(item, nil)
            case .failure(let error):
                completion(nil, error)
            }
        }
    }

    /// Marks a dish sold out or available again (kitchen app).
    public func setAvailability(_ isAvailable: Bool, itemID: String, completion: ((Error?) -> Void)? = nil) {
        do {
            let request = try HTTPRequest.json(.patch, "menu-items/\(itemID)", ["is_available": isAvailable])
            send(request) { [weak self] error in
                if error == nil {
                    self?.cache.removeEntries(withPrefix: "kitchens/")
                }
                completion?(error)
            }
        } catch {
            completion?(error)
        }
    }

    /// The total the server would charge for these lines, in cents, before the tip.
    public func quote(_ lines: [OrderLine], kitchenID: String, completion: @escaping (Int?, Error?) -> Void) {
        menu(for: kitchenID) { result in
            switch result {
            case .failure(let error):
                completion(nil, error)
            case .success(let menu):
                var prices: [String: Int] = [:]
                for item in menu.allItems where item.isAvailable {
                    prices[item.id] = item.priceCents
                }
                var total = 0
                for line in lines {
                    guard let price = prices[line.itemID] else {
                        completion(nil, SDKError.notFound("dish \(line.itemID)"))
                        return
                    }
                    total += price * line.quantity
                }
                completion(total, nil)
            }
        }
    }
}
