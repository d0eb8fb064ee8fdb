import Foundation

protocol WeatherServiceDelegate: AnyObject {
    func weatherService(_ service: WeatherService, didIssueWarning warning: String, for trailID: Int)
}

/// Forecasts for trails. Forecasts stay fresh for a while, so a second ask for the same trail
/// is answered from memory, at once.
final class WeatherService: @unchecked Sendable {
    static let shared = WeatherService(client: .shared)

    private let client: APIClient
    private let lock = NSLock()
    private var forecasts: [Int: Forecast] = [:]
    weak var delegate: WeatherServiceDelegate?

    /// Every forecast that arrives, for the widget.
    var onForecast: (@Sendable (Forecast) -> Void)?

    init(client: APIClient) {
        self.client = client
    }

    /// `nil` when no forecast could be had; the screens then say nothing about the weather.
    func forecast(for trailID: Int, completion: @escaping @Sendable (Forecast?) -> Void) {
        lock.lock()
        let cached = forecasts[trailID]
        lock.unlock()
        if let cached {
            completion(cached)
            return
        }
        client.request(.forecast(trailID: trailID), as: Forecast.self) { [weak self] result in
            guard let self else { return }
            guard case .success(let forecast) = result else {
                completion(nil)
                return
            }
            self.lock.lock(); self.forecasts[trailID] = forecast; self.lock.unlock()
            self.onForecast?(forecast)
            if let warning = forecast.warning {
                self.delegate?.weatherService(self, didIssueWarning: warning, for: trailID)
            }
            completion(forecast)
        }
    }

    /// Warms the forecasts of the trails the user is likely to open; reports how many arrived.
    func prefetch(_ trailIDs: [Int], completion: @escaping @Sendable (Int) -> Void) {
        guard !trailIDs.isEmpty else {
            completion(0)
            return
        }
        let arrived = LockedDictionary<Int, Bool>()
        let remaining = Countdown(trailIDs.count)
        for trailID in trailIDs {
            forecast(for: trailID) { forecast in
                arrived[trailID] = forecast != nil
                if remaining.tick() {
                    completion(trailIDs.filter { arrived[$0] == true }.count)
                }
            }
        }
    }

    func forget() {
        lock.lock(); forecasts = [:]; lock.unlock()
    }
}
