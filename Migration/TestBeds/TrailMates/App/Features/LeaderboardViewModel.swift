import Foundation

/// Who walked the most, this week and this month.
@MainActor
final class LeaderboardViewModel {
    enum Period: String, CaseIterable {
        case week, month
    }

    private let client: APIClient
    private(set) var rows: [Period: [String]] = [:]
    var onChange: ((Period, [String]) -> Void)?
    var onError: ((String) -> Void)?
    var onSignInNeeded: (() -> Void)?

    init(client: APIClient = .shared) {
        self.client = client
    }

    /// The typed error tells "sign in again" apart from everything else.
    func load(_ period: Period) {
        let started = Date()
        client.request(.leaderboard(period: period.rawValue), as: [LeaderboardEntry].self) { result in
            let elapsed = Date().timeIntervalSince(started)
            switch result {
            case .success(let entries):
                let rows = entries.enumerated().map { "\($0.offset + 1). @\($0.element.handle) \(Int($0.element.kilometres)) km" }
                DispatchQueue.main.async { [weak self] in
                    self?.rows[period] = rows
                    self?.onChange?(period, rows)
                }
            case .failure(let error) where error == .unauthorized:
                DispatchQueue.main.async { [weak self] in self?.onSignInNeeded?() }
            case .failure(let error):
                DispatchQueue.main.async { [weak self] in self?.onError?(error.userMessage) }
            }
            // Slow leaderboards are worth knowing about; the number is not shown to anyone.
            if elapsed > 5 {
                KeyValueStore.standard.set(String(elapsed), forKey: "slowLeaderboard")
            }
        }
    }

    /// Both periods at once; the screen shows them when both are in, the week first.
    func loadBoth() {
        let group = DispatchGroup()
        let boards = LockedDictionary<String, [LeaderboardEntry]>()
        for period in Period.allCases {
            group.enter()
            client.request(.leaderboard(period: period.rawValue), as: [LeaderboardEntry].self) { result in
                if case .success(let entries) = result {
                    boards[period.rawValue] = entries
                }
                group.leave()
            }
        }
        group.notify(queue: .global()) {
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                for period in Period.allCases {
                    guard let entries = boards[period.rawValue] else {
                        self.onError?("\(period.rawValue) unavailable")
                        continue
                    }
                    let rows = entries.map { "@\($0.handle)" }
                    self.rows[period] = rows
                    self.onChange?(period, rows)
                }
            }
        }
    }
}
