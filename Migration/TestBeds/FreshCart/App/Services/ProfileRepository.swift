import Foundation
import PromiseKit

/// The signed-in shopper: profile, addresses, loyalty points.
final class ProfileRepository: @unchecked Sendable {
    static let shared = ProfileRepository()
    private let api: APIClient
    private(set) var user: User?

    init(api: APIClient = .shared) {
        self.api = api
    }

    func me() -> Promise<User> {
        return api.request(.me, as: User.self).get { user in
            self.user = user
        }
    }

    func addresses() -> Promise<[Address]> {
        api.list(.addresses, of: Address.self)
    }

    /// The default address, or the first one.
    func defaultAddress() -> Promise<Address> {
        return addresses().compactMap { addresses in
            addresses.first(where: { $0.isDefault }) ?? addresses.first
        }.recover { error -> Promise<Address> in
            if case PMKError.compactMap = error {
                throw AppError.validation("Add a delivery address first.")
            }
            throw error
        }
    }

    /// Loyalty points; zero when they cannot be read.
    func loyaltyPoints() -> Guarantee<Int> {
        return me().map { $0.loyaltyPoints }.recover { _ in Guarantee.value(0) }
    }

    func registerDevice() -> Promise<Void> {
        api.perform(.registerDevice)
    }

    /// The profile and the addresses together.
    func profileAndAddresses() -> Promise<(User, [Address])> {
        when(fulfilled: me(), addresses())
    }
}
