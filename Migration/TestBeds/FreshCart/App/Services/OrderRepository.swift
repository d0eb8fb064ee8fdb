import Foundation
import PromiseKit

/// Past and current orders, their receipts and their tracking.
final class OrderRepository: @unchecked Sendable {
    static let shared = OrderRepository()
    private let api: APIClient

    init(api: APIClient = .shared) {
        self.api = api
    }

    func place(reservation: Reservation, authorization: PaymentAuthorization) -> Promise<Order> {
        api.request(.placeOrder(reservation: reservation.reservationID, authorization: authorization.authorizationID), as: Order.self)
    }

    func orders() -> Promise<[Order]> {
        return api.list(.orders, of: Order.self)
            .filterValues { $0.status != "draft" }
    }

    func order(_ id: OrderID) -> Promise<Order> {
        api.request(.order(id), as: Order.self)
    }

    /// The receipts of several orders; the ones that fail are left out.
    func receipts(for orders: [Order]) -> Guarantee<[Receipt]> {
        let requests = orders.map { order in
            api.request(.receipt(order.id), as: Receipt.self)
        }
        return when(resolved: requests).map { results in
            results.compactMap { result -> Receipt? in
                if case .fulfilled(let receipt) = result { return receipt }
                return nil
            }
        }
    }

    /// The products of a past order, for "order again".
    func productIDs(of order: OrderID) -> Promise<[ProductID]> {
        return api.request(.receipt(order), as: Receipt.self).map { receipt in
            Array(1...max(1, receipt.lines))
        }
    }

    func tracking(_ id: OrderID) -> Promise<TrackingUpdate> {
        api.request(.tracking(id), as: TrackingUpdate.self)
    }

    /// Polls the tracking endpoint until the order is delivered, `every` seconds, at most
    /// `limit` times; each update goes to `update`.
    func followDelivery(of id: OrderID, every interval: Double, limit: Int, update: @escaping @Sendable (TrackingUpdate) -> Void) -> Promise<TrackingUpdate> {
        return tracking(id).get(on: .main) { latest in
            update(latest)
        }.then { latest -> Promise<TrackingUpdate> in
            if latest.status == "delivered" || limit <= 1 {
                return .value(latest)
            }
            return after(seconds: interval).then {
                self.followDelivery(of: id, every: interval, limit: limit - 1, update: update)
            }
        }
    }
}
