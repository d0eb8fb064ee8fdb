import ExampleSupport
import Vow

// Stage 3: promise code calls new async code.
//
// Once new services are async, the older promise-based callers still need them. `Promise { try
// await ... }` runs the async work in a Task the promise owns; a token given to it cancels that
// Task, so cancellation crosses this boundary too.

/// A service written after the switch to async/await: severe-weather alerts gathered from several
/// sources, one after another.
public struct SevereWeatherAlerts: Sendable {
    /// Lima's alert sources are down; Oslo has icy roads; other cities have no alerts.
    public enum AlertsError: Error, Equatable {
        case sourcesUnavailable(String)
    }

    private let transcript: Transcript
    private let sources: Int
    private let secondsPerSource: Double

    public init(transcript: Transcript, sources: Int = 10, secondsPerSource: Double = 0.02) {
        self.transcript = transcript
        self.sources = sources
        self.secondsPerSource = secondsPerSource
    }

    /// The alerts for `city`, after asking every source.
    ///
    /// Honours Task cancellation the async way: `Task.sleep` throws `CancellationError`, and the
    /// loop stops there.
    public func alerts(for city: City) async throws -> [String] {
        if city.name == "Lima" {
            throw AlertsError.sourcesUnavailable(city.name)
        }
        var asked = 0
        do {
            for _ in 0..<sources {
                try await Task.sleep(for: .seconds(secondsPerSource))
                asked += 1
            }
        } catch {
            transcript.say("async     | alerts for \(city.name): stopped after \(asked) of \(sources) sources, \(type(of: error))")
            throw error
        }
        transcript.say("async     | alerts for \(city.name): asked all \(sources) sources")
        return city.name == "Oslo" ? ["icy roads"] : []
    }
}

extension SevereWeatherAlerts {
    /// The alerts for `city` as a promise, for the promise-based callers. Cancelling `token`
    /// rejects the promise with `VowError.cancelled` at once and cancels the Task, which stops
    /// the async work at its next suspension point.
    public func alerts(for city: City, cancellation token: CancellationToken?) -> Promise<[String]> {
        Promise(cancellation: token) { try await self.alerts(for: city) }
    }
}

// MARK: - A promise-based caller of the async service

/// Says the alerts for the city named `name`: a promise chain (older code, not yet moved to
/// async) that calls the legacy service and the new async one alike.
///
/// - Returns: A guarantee that settles when the chain has ended, either way.
public func sayAlerts(
    inCityNamed name: String,
    weather: LegacyWeatherService,
    alerts: SevereWeatherAlerts,
    transcript: Transcript
) -> Guarantee<Void> {
    whenChainEnds {
        firstly {
            weather.findCity(named: name)
        }.then(on: nil) { city in
            alerts.alerts(for: city, cancellation: nil)
        }.done(on: nil) { found in
            transcript.say("stage 3   | \(name): \(found.isEmpty ? "no alerts" : found.joined(separator: ", "))")
        }.catch(on: nil) { error in
            // The error the async function threw arrives here unchanged.
            transcript.say("stage 3   | \(name): failed with \(error)")
        }
    }
}
