import Foundation
import PromiseKit

/// Stores, categories and products. Every list is cached when it arrives and read back from the
/// cache when the network fails, so a shopper on a train still sees the shelves.
final class CatalogRepository: @unchecked Sendable {
    static let shared = CatalogRepository()
    private let api: APIClient
    private let cache: ResponseCache

    init(api: APIClient = .shared, cache: ResponseCache = .shared) {
        self.api = api
        self.cache = cache
    }

    /// The stores, the open ones first; the cached list when offline.
    func stores() -> Promise<[Store]> {
        return firstly {
            api.list(.stores, of: Store.self)
        }.get { stores in
            self.cache.store(stores, for: "stores")
        }.recover { error -> Promise<[Store]> in
            guard case APIError.offline = error else { throw error }
            return self.cache.promise([Store].self, for: "stores", otherwise: error)
        }.map { stores in
            stores.filter { $0.isOpen } + stores.filter { !$0.isOpen }
        }
    }

    func store(_ id: StoreID) -> Promise<Store> {
        api.request(.store(id), as: Store.self)
    }

    /// A store that is open, or `AppError.storeClosed`.
    func openStore(_ id: StoreID) -> Promise<Store> {
        return store(id).map { store in
            guard store.isOpen else { throw AppError.storeClosed(store.name) }
            return store
        }
    }

    /// The categories of a store; never fails (an empty list when nothing is known).
    func categories(in store: StoreID) -> Guarantee<[Category]> {
        let key = "categories-\(store)"
        return api.list(.categories(store), of: Category.self)
            .get { self.cache.store($0, for: key) }
            .recover { _ in self.cache.guarantee([Category].self, for: key, orElse: []) }
    }

    /// The products of one category, in stock first.
    func products(in store: StoreID, category: Int) -> Promise<[Product]> {
        let key = "products-\(store)-\(category)"
        return api.list(.products(store, category: category), of: Product.self)
            .get(on: DispatchQueue.global()) { products in
                self.cache.store(products, for: key)
            }
            .recover { error -> Promise<[Product]> in
                if isTransient(error), let cached = self.cache.value([Product].self, for: key) {
                    return .value(cached)
                }
                throw error
            }
            .map { products in
                products.filter { $0.inStock } + products.filter { !$0.inStock }
            }
    }

    func product(_ id: ProductID) -> Promise<Product> {
        api.request(.product(id), as: Product.self)
    }

    /// Several products at once, for a list of identifiers (a reorder, a favourites list).
    func products(_ ids: [ProductID]) -> Promise<[Product]> {
        return Promise.value(ids).thenMap { id in
            self.product(id)
        }
    }

    /// The names of the products of a category that are in stock.
    func availableNames(in store: StoreID, category: Int) -> Promise<[String]> {
        products(in: store, category: category)
            .filterValues { $0.inStock }
            .mapValues { $0.name }
    }

    /// The cheapest product of a category that is in stock.
    func cheapest(in store: StoreID, category: Int) -> Promise<Product> {
        products(in: store, category: category)
            .filterValues { $0.inStock }
            .map { $0.sorted { $0.price < $1.price } }
            .firstValue
    }

    /// Prices of the products a shopper saved, skipping the ones no longer sold.
    func favouritePrices() -> Promise<[Cents]> {
        return api.list(.favourites, of: Int.self).thenMap { id in
            self.product(id).map { Optional($0) }.recover { _ in Guarantee.value(nil) }
        }.compactMapValues { product in
            product?.price
        }
    }

    func banner() -> Guarantee<Banner> {
        api.request(.banner, as: Banner.self)
            .recover { _ in Guarantee.value(Banner(headline: "Fresh every day")) }
    }
}
