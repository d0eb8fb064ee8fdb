import Foundation
import PromiseKit

/// The first launch: a welcome, order updates, and the nearest open store picked for the shopper.
final class OnboardingCoordinator: @unchecked Sendable {
    let navigation: NavigationController
    let status = Label(name: "onboarding.status")
    private let notifications: NotificationService
    private let catalog: CatalogRepository
    private(set) var chosenStore: Store?

    init(navigation: NavigationController, notifications: NotificationService = .shared, catalog: CatalogRepository = .shared) {
        self.navigation = navigation
        self.notifications = notifications
        self.catalog = catalog
    }

    /// Runs the steps in order; the welcome screen shows for a moment first. The returned
    /// promise is fulfilled with the store once onboarding is over.
    func start() -> Promise<Store> {
        status.text = "Welcome to FreshCart"
        return after(.milliseconds(10)).then { () -> Promise<Bool> in
            self.status.text = "Order updates?"
            return self.notifications.requestPermission()
        }.then { granted -> Promise<[Store]> in
            self.status.text = granted ? "We will keep you posted" : "No updates, then"
            return self.catalog.stores()
        }.compactMap { stores in
            stores.first(where: { $0.isOpen })
        }.get { store in
            self.chosenStore = store
        }.tap { result in
            switch result {
            case .fulfilled(let store): Analytics.shared.track("onboarding picked \(store.name)")
            case .rejected: Analytics.shared.track("onboarding without a store")
            }
        }
    }

    /// Onboarding, then the store screen; a failure leaves the shopper on the store list.
    func run() {
        start().done { store in
            self.status.text = "Shopping at \(store.name)"
            self.navigation.push(StoreViewController(storeID: store.id), animated: true)
        }.catch { error in
            if case PMKError.compactMap = error {
                self.status.text = "No store is open near you yet"
                return
            }
            self.status.text = describe(error)
        }
    }
}
