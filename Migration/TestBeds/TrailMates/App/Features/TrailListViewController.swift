import Foundation

/// The home screen: trails near the user, a search field, and the way to a trail's details.
@MainActor
final class TrailListViewController: ViewController {
    let table = TableView(name: "trails")
    let searchResults = TableView(name: "search")
    let status = Label(name: "trails.status")
    let moreButton = Button(title: "More")
    let spinner = ActivityIndicator(name: "trails.spinner")
    private let viewModel: TrailListViewModel
    var onSelectTrail: ((Int) -> Void)?

    init(viewModel: TrailListViewModel? = nil) {
        self.viewModel = viewModel ?? TrailListViewModel()
        super.init(title: "Trails")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        viewModel.onRowsChange = { [weak self] rows in
            self?.spinner.stopAnimating()
            self?.table.reload(rows.map { "\($0.trail.name) (\($0.conditions))" })
        }
        viewModel.onError = { [weak self] message in
            self?.spinner.stopAnimating()
            self?.status.text = message
        }
        viewModel.onSearchResults = { [weak self] trails in
            self?.searchResults.reload(trails.map(\.name))
        }
        moreButton.addAction { [weak self] in
            self?.viewModel.loadMore()
        }
        NotificationHub.default.addObserver(forName: .hikeDidFinish) { _ in
            DispatchQueue.main.async { [weak self] in self?.refreshFirstTrail() }
        }
    }

    override func viewWillAppear() {
        super.viewWillAppear()
        spinner.startAnimating()
        viewModel.load()
    }

    func userTyped(_ query: String) {
        viewModel.search(query)
    }

    func select(row: Int) {
        guard row < viewModel.rows.count else { return }
        onSelectTrail?(viewModel.rows[row].trail.id)
    }

    /// After a hike the first trail's conditions may have changed (the hiker reported them).
    private func refreshFirstTrail() {
        guard let first = viewModel.rows.first else { return }
        TrailService.shared.trailDetails(id: first.trail.id) { trail, error in
            guard error == nil, let trail = trail else { return }
            TrailService.shared.conditions(for: trail.id) { conditions in
                DispatchQueue.main.async {
                    self.status.text = "\(trail.name): \(conditions.summary)"
                }
            }
        }
    }
}
