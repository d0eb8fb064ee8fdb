import Foundation
import PromiseKit

/// The first screen after signing in.
final class HomeViewController: ViewController, @unchecked Sendable {
    let table = TableView(name: "home.stores")
    let headline = Label(name: "home.headline")
    let points = Label(name: "home.points")
    let spinner = ActivityIndicator(name: "home.spinner")
    let refreshButton = Button(title: "Refresh")
    let model: HomeViewModel
    var onOpenStore: ((Store) -> Void)?

    init(model: HomeViewModel = HomeViewModel()) {
        self.model = model
        super.init(title: "Home")
    }

    override func viewDidLoad() {
        refreshButton.addAction { [unowned self] in
            self.reload()
        }
        reload()
    }

    func reload() {
        spinner.startAnimating()
        model.load()
            .trackActivity(ActivityTracker.shared)
            .done {
                self.table.reload(self.model.rows())
                self.headline.text = self.model.content?.headline
                self.points.text = "\(self.model.content?.points ?? 0) points"
            }.ensure {
                self.spinner.stopAnimating()
            }.catch { error in
                self.headline.text = describe(error)
            }
    }

    /// The shopper taps a store row.
    func openStore(at index: Int) {
        guard let stores = model.content?.stores, index < stores.count else { return }
        let store = stores[index]
        guard store.isOpen else {
            headline.text = "\(store.name) is closed right now."
            return
        }
        onOpenStore?(store)
    }
}
