import Foundation

/// Placing and following orders.
public final class OrderService: APIClient {
    /// Places an order; the kitchen receives it at once.
    public func placeOrder(_ draft: OrderDraft, completion: @escaping OrderCompletion) {
        if let problem = draft.validate() {
            completion(.failure(problem))
            return
        }
        let request: HTTPRequest
        do {
            request = try HTTPRequest.json(.post, "orders", draft)
        } catch {
            completion(.failure(SDKError(error)))
            return
        }
        #if compiler(>=5.5.2)
        perform(request) { result in
            switch result {
            case .failure(let error):
                completion(.failure(error))
            case .success(let response):
                JSONCoding.decode(Order.self, from: response) { decoded in
                    completion(decoded)
                }
            }
        }
        #else
        perform(request) { result in
            switch result {
            case .failure(let error):
                completion(.failure(error))
            case .success(let response):
                JSONCoding.decode(Order.self, from: response, completion: completion)
            }
        }
        #endif
    }

    /// Cancels an order that the kitchen has not started; a reason helps the kitchen.
    public func cancelOrder(_ id: String, reason: String? = nil, completion: ((Error?) -> Void)? = nil) {
        var body: [String: String] = [:]
        if let reason = reason {
            body["reason"] = reason
        }
        let request: HTTPRequest
        do {
            request = try HTTPRequest.json(.post, "orders/\(id)/cancel", body)
        } catch {
            completion?(error)
            return
        }
        send(request) { error in
            completion?(error)
        }
    }

    /// Where an order is now.
    public func status(ofOrder id: String, completion: @escaping (Result<OrderStatus, SDKError>) -> Void) {
        fetch(HTTPRequest(path: "orders/\(id)"), as: Order.self, cachePolicy: .reloadIgnoringCache) { result in
            completion(result.map(\.status))
        }
    }

    /// Where an order is now, with any error (the 1.x signature, kept for source compatibility).
    public func status(ofOrder id: String, completion: @escaping (Result<OrderStatus, Error>) -> Void) {
        status(ofOrder: id) { (result: Result<OrderStatus, SDKError>) in
            completion(result.mapError { $0 as Error })
        }
    }

    /// A page of the user's orders, newest first.
    public func orders(after cursor: String? = nil, pageSize: Int = 25, completion: @escaping (Result<Page<Order>, SDKError>) -> Void) {
        var request = HTTPRequest(path: "orders", query: ["limit": String(pageSize)])
        if let cursor = cursor {
            request.query["after"] = cursor
        }
        fetch(request, cachePolicy: .reloadIgnoringCache, completion: completion)
    }

    /// Every order, following the cursors until the last page.
    public func allOrders(pageSize: Int = 25, completion: @escaping (Result<[Order], SDKError>) -> Void) {
        var collected: [Order] = []
        func next(_ cursor: String?) {
            orders(after: cursor, pageSize: pageSize) { result in
                switch result {
                case .failure(let error):
                    completion(.failure(error))
                case .success(let page):
                    collected += page.items
                    if let following = page.nextCursor {
                        next(following)
                    } else {
                        completion(.success(collected))
                    }
                }
            }
        }
        next(nil)
    }

    /// Rates a delivered order from 1 to 5.
    public func rate(orderID: String, stars: Int, comment: String = "", completion: @escaping VoidCompletion) {
        guard (1...5).contains(stars) else {
            completion(SDKError.invalidArgument("stars must be between 1 and 5"))
            return
        }
        do {
            send(try HTTPRequest.json(.post, "orders/\(orderID)/rating", RatingBody(stars: stars, comment: comment)), completion: completion)
        } catch {
            completion(error)
        }
    }
}

private struct RatingBody: Encodable {
    var stars: Int
    var comment: String
}
