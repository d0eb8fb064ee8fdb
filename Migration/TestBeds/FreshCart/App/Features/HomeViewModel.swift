import Foundation
import PromiseKit

/// The home screen: the stores, a banner and the shopper's points, loaded together.
final class HomeViewModel: @unchecked Sendable {
    struct Content: Equatable {
        var stores: [Store]
        var headline: String
        var points: Int
    }

    private let catalog: CatalogRepository
    private let profile: ProfileRepository
    private(set) var content: Content?
    /// The load in flight: a second `load()` while it runs joins it instead of starting another.
    private(set) var loading: Promise<Void>?

    init(catalog: CatalogRepository = .shared, profile: ProfileRepository = .shared) {
        self.catalog = catalog
        self.profile = profile
    }

    func load() -> Promise<Void> {
        if let loading {
            return loading
        }
        let stores = catalog.stores()
        let banner = catalog.banner()
        let points = profile.loyaltyPoints()
        let promise = when(fulfilled: stores, Promise(banner), Promise(points))
            .done(on: .main) { stores, banner, points in
                self.content = Content(stores: stores, headline: banner.headline, points: points)
            }.ensure {
                self.loading = nil
            }
        loading = promise
        return promise
    }

    /// Rows for the store list.
    func rows() -> [String] {
        guard let content else { return [] }
        return content.stores.map { store in
            store.isOpen ? "\(store.name) (\(formatPrice(store.deliveryFee)) delivery)" : "\(store.name) (closed)"
        }
    }
}
