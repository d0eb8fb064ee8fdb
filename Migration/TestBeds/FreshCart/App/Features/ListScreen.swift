import Foundation
import PromiseKit

/// Anything that can fill a plain list screen.
protocol ListLoading: Sendable {
    var title: String { get }
    func loadRows() -> Promise<[String]>
}

extension OrdersViewModel: ListLoading {
    var title: String { "Orders" }

    func loadRows() -> Promise<[String]> {
        load()
    }
}

/// The products the shopper looked at lately, newest first.
final class RecentlyViewed: ListLoading, @unchecked Sendable {
    let title = "Recently Viewed"
    private let catalog: CatalogRepository
    private let ids: [ProductID]

    init(ids: [ProductID], catalog: CatalogRepository = .shared) {
        self.ids = ids
        self.catalog = catalog
    }

    func loadRows() -> Promise<[String]> {
        guard !ids.isEmpty else {
            return .value([])
        }
        return catalog.products(ids.reversed()).mapValues { product in
            product.inStock ? product.name : "\(product.name) (sold out)"
        }
    }
}

/// A plain list screen, whatever fills it.
final class ListViewController: ViewController, @unchecked Sendable {
    let table: TableView
    let status: Label
    private let source: ListLoading

    init(source: ListLoading) {
        self.source = source
        self.table = TableView(name: "list.rows")
        self.status = Label(name: "list.status")
        super.init(title: source.title)
    }

    override func viewDidLoad() {
        source.loadRows()
            .trackActivity(ActivityTracker.shared)
            .done { rows in
                self.table.reload(rows)
                self.status.text = rows.isEmpty ? "Nothing here yet" : "\(rows.count) items"
            }.catch { error in
                self.status.text = describe(error)
            }
    }
}
