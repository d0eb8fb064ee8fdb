import Foundation

/// The leaderboard tab: this week's walkers, with the month one tap away.
@MainActor
final class LeaderboardViewController: ViewController, WeatherServiceDelegate {
    let week = TableView(name: "leaderboard.week")
    let month = TableView(name: "leaderboard.month")
    let status = Label(name: "leaderboard.status")
    let weather = Label(name: "leaderboard.weather")
    let monthButton = Button(title: "This Month")
    private let viewModel = LeaderboardViewModel()
    var onSignInNeeded: (() -> Void)?

    init() {
        super.init(title: "Leaderboard")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        viewModel.onChange = { [weak self] period, rows in
            switch period {
            case .week: self?.week.reload(rows)
            case .month: self?.month.reload(rows)
            }
        }
        viewModel.onError = { [weak self] message in
            self?.status.text = message
        }
        viewModel.onSignInNeeded = { [weak self] in
            self?.onSignInNeeded?()
        }
        monthButton.addAction { [weak self] in
            self?.viewModel.load(.month)
        }
        WeatherService.shared.delegate = self
        viewModel.load(.week)
    }

    func refreshAll() {
        viewModel.loadBoth()
    }

    /// The weekly challenge trail's forecast, under the board.
    func showChallengeForecast(trailID: Int) {
        WeatherService.shared.forecast(for: trailID) { forecast in
            DispatchQueue.main.async {
                self.weather.text = forecast.map { "\($0.temperature)°" } ?? "no forecast"
            }
        }
    }

    nonisolated func weatherService(_ service: WeatherService, didIssueWarning warning: String, for trailID: Int) {
        DispatchQueue.main.async {
            self.status.text = "Warning for trail \(trailID): \(warning)"
        }
    }
}
