import Foundation
import PromiseKit

/// Delivery slots: a slot is reserved while the shopper pays and released if the order fails.
final class DeliveryService: @unchecked Sendable {
    static let shared = DeliveryService()
    private let api: APIClient

    init(api: APIClient = .shared) {
        self.api = api
    }

    func slots(for store: StoreID) -> Promise<[DeliverySlot]> {
        api.list(.slots(store), of: DeliverySlot.self)
    }

    /// The first free slot.
    func firstFreeSlot(for store: StoreID) -> Promise<DeliverySlot> {
        return slots(for: store).firstValue { $0.available }.recover { error -> Promise<DeliverySlot> in
            if case PMKError.emptySequence = error { throw AppError.noDeliverySlot }
            throw error
        }
    }

    func reserve(_ slot: DeliverySlot) -> Promise<Reservation> {
        api.request(.reserveSlot(slot.id), as: Reservation.self)
    }

    /// Gives the slot back; never fails (the reservation expires on its own anyway).
    func release(_ reservation: Reservation) -> Guarantee<Void> {
        return api.perform(.releaseSlot(reservation.reservationID))
            .recover { _ in Guarantee.value(()) }
    }
}
