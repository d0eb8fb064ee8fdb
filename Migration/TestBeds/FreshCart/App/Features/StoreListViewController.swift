import Foundation
import PromiseKit

/// All stores, filtered as the shopper types, with the delivery fee of each.
final class StoreListViewController: ViewController, @unchecked Sendable {
    let table = TableView(name: "stores.list")
    let status = Label(name: "stores.status")
    let spinner = ActivityIndicator(name: "stores.spinner")
    private let catalog: CatalogRepository
    private var stores: [Store] = []
    /// The load in flight, so that pull to refresh does not start a second one.
    var loading: Promise<Void>?

    init(catalog: CatalogRepository = .shared) {
        self.catalog = catalog
        super.init(title: "Stores")
    }

    override func viewDidLoad() {
        refresh()
    }

    func refresh() {
        guard loading == nil else {
            Effects.shared.record("stores: already loading")
            return
        }
        spinner.startAnimating()
        loading = catalog.stores().done { [weak self] stores in
            guard let self = self else { return }
            self.stores = stores
            self.show(stores)
        }.ensure { [weak self] in
            self?.spinner.stopAnimating()
            self?.loading = nil
        }
        loading?.catch { [weak self] error in
            self?.status.text = describe(error)
        }
    }

    func filter(_ text: String) {
        show(text.isEmpty ? stores : stores.filter { $0.name.lowercased().contains(text.lowercased()) })
    }

    private func show(_ stores: [Store]) {
        table.reload(stores.map { "\($0.name) \(formatPrice($0.deliveryFee))" })
        status.text = stores.isEmpty ? "No stores match" : "\(stores.count) stores"
    }

    /// Checks the store is open right now (the list may be old), then opens it.
    func open(at index: Int, then show: @escaping @Sendable (Store) -> Void) {
        guard index < stores.count else { return }
        catalog.openStore(stores[index].id)
            .timeout(seconds: 0.5)
            .done { store in
                show(store)
            }.catch { error in
                self.status.text = describe(error)
            }
    }
}
