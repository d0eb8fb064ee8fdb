import ExampleSupport
import Foundation

// The "legacy" module: callback code from before promises, written the three ways such code
// usually is (split success/failure blocks, Cocoa's `(T?, Error?)`, and `Result`). It stays exactly
// like this through every stage of the migration: the team adds alternatives next to it and moves
// callers over, and nothing here has to change on the day they do.

/// A city the weather service knows.
public struct City: Sendable, Equatable {
    public let id: Int
    public let name: String

    public init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}

/// What the weather service (old and new) can fail with.
public enum WeatherError: Error, Equatable {
    case unknownCity(String)
    case stationOffline(String)
    case cancelled
}

/// A forecast being computed, which its caller may cancel (the legacy code's `URLSessionTask`).
public final class ForecastRequest: @unchecked Sendable {
    // `@unchecked`: `lock` guards `cancelled`.
    private let lock = NSLock()
    private var cancelled = false

    public init() {}

    public func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }

    public var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }
}

/// The legacy weather service: every answer comes back on its own serial queue, later.
public final class LegacyWeatherService: Sendable {
    /// Oslo and Lima have working stations; Pune's is offline; any other name is unknown.
    static let cities = [
        "Oslo": City(id: 1, name: "Oslo"),
        "Lima": City(id: 2, name: "Lima"),
        "Pune": City(id: 3, name: "Pune"),
    ]
    static let temperatures: [Int: Double] = [1: -3.5, 2: 19.0]

    private let queue = DispatchQueue(label: "legacy-weather")
    private let transcript: Transcript
    private let secondsPerForecastDay: Double

    /// - Parameters:
    ///   - transcript: Where the service says what it does, prefixed `legacy`.
    ///   - secondsPerForecastDay: How long computing one day of a forecast takes: long enough that a
    ///     caller can cancel a forecast halfway.
    public init(transcript: Transcript, secondsPerForecastDay: Double = 0.03) {
        self.transcript = transcript
        self.secondsPerForecastDay = secondsPerForecastDay
    }

    /// Looks a city up by name. Objective-C era: separate success and failure blocks.
    public func findCity(named name: String, success: @escaping @Sendable (City) -> Void, failure: @escaping @Sendable (Error) -> Void) {
        queue.async {
            if let city = Self.cities[name] {
                success(city)
            } else {
                failure(WeatherError.unknownCity(name))
            }
        }
    }

    /// The temperature now, in °C. Cocoa style: exactly one of the two arguments is non-nil.
    public func currentTemperature(cityID: Int, completion: @escaping @Sendable (Double?, Error?) -> Void) {
        queue.async {
            if let celsius = Self.temperatures[cityID] {
                completion(celsius, nil)
            } else {
                completion(nil, WeatherError.stationOffline(Self.name(ofCity: cityID)))
            }
        }
    }

    /// A forecast of `days` daily temperatures, computed one slow day at a time. The returned
    /// request stops the computation; a cancelled forecast completes with `.cancelled`, as
    /// `URLSession` completes a cancelled task with `URLError.cancelled`.
    @discardableResult
    public func forecast(cityID: Int, days: Int, completion: @escaping @Sendable (Swift.Result<[Double], WeatherError>) -> Void) -> ForecastRequest {
        let request = ForecastRequest()
        let city = Self.name(ofCity: cityID)
        queue.async { [transcript, secondsPerForecastDay] in
            guard let today = Self.temperatures[cityID] else {
                completion(.failure(.stationOffline(city)))
                return
            }
            transcript.say("legacy    | forecast for \(city): computing \(days) days")
            var forecast: [Double] = []
            for day in 0..<days {
                // Legacy code polls its cancel flag between steps; that is all a token can reach.
                if request.isCancelled {
                    transcript.say("legacy    | forecast for \(city): stopped after \(forecast.count) of \(days) days, request cancelled")
                    completion(.failure(.cancelled))
                    return
                }
                Thread.sleep(forTimeInterval: secondsPerForecastDay)
                forecast.append(today + Double(day + 1) / 2)
            }
            transcript.say("legacy    | forecast for \(city): done")
            completion(.success(forecast))
        }
        return request
    }

    /// Calls `completion` once everything asked of the service before this call has finished.
    public func whenIdle(completion: @escaping @Sendable () -> Void) {
        queue.async { completion() }
    }

    private static func name(ofCity id: Int) -> String {
        cities.values.first { $0.id == id }?.name ?? "city #\(id)"
    }
}
