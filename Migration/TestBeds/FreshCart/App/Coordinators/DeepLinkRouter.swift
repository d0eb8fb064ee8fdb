import Foundation
import PromiseKit

/// Opens `freshcart://` links: a store, a product, an order, a coupon.
final class DeepLinkRouter: @unchecked Sendable {
    let navigation: NavigationController
    let banner = Label(name: "links.banner")
    private let catalog: CatalogRepository
    private let orders: OrderRepository
    private let promo: PromoService

    init(navigation: NavigationController, catalog: CatalogRepository = .shared, orders: OrderRepository = .shared, promo: PromoService = .shared) {
        self.navigation = navigation
        self.catalog = catalog
        self.orders = orders
        self.promo = promo
    }

    @discardableResult
    func open(_ link: String) -> Promise<Void> {
        let parts = link.replacingOccurrences(of: "freshcart://", with: "").split(separator: "/").map(String.init)
        guard link.hasPrefix("freshcart://"), parts.count == 2 else {
            banner.text = "Unknown link"
            return Promise.value(())
        }
        let chain: Promise<Void>
        switch parts[0] {
        case "store":
            chain = catalog.openStore(Int(parts[1]) ?? 0).done { store in
                self.navigation.push(StoreViewController(storeID: store.id), animated: true)
            }
        case "product":
            chain = catalog.product(Int(parts[1]) ?? 0).done { product in
                self.navigation.push(ProductDetailViewController(productID: product.id), animated: true)
            }
        case "order":
            chain = orders.order(Int(parts[1]) ?? 0).done { order in
                self.navigation.push(OrderTrackingViewController(orderID: order.id), animated: true)
            }
        case "coupon":
            chain = promo.validate(parts[1]).done { coupon in
                self.banner.text = "\(coupon.code) saved: \(formatPrice(coupon.discount)) off"
            }
        default:
            banner.text = "Unknown link"
            return Promise.value(())
        }
        return chain.recover { error -> Promise<Void> in
            if case APIError.notFound = error {
                self.banner.text = "That link has expired"
                return Promise.value(())
            }
            throw error
        }.ensure {
            Analytics.shared.track("link \(parts[0])")
        }
    }

    /// Opens a link and shows any error in the banner.
    func openShowingErrors(_ link: String) {
        open(link).catch { error in
            self.banner.text = describe(error)
        }
    }
}
