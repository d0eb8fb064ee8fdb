import Vow

// Stage 2: new async code calls the promise layer.
//
// New features are written with async/await from day one. They reach the legacy service through
// the promise alternatives of stage 1 and `try await promise.value`: no callback, no continuation
// written by hand, and no queue that has to be drained for the await to resume.

/// Today's weather and the coming days', gathered by new async code from the legacy service.
public struct WeatherSummary: Sendable, Equatable {
    public let city: String
    public let celsius: Double
    public let forecast: [Double]

    public init(city: String, celsius: Double, forecast: [Double]) {
        self.city = city
        self.celsius = celsius
        self.forecast = forecast
    }
}

/// Gathers a summary for the city named `name`.
///
/// - Throws: The legacy service's error (`WeatherError.unknownCity`, `.stationOffline`) exactly as
///   its callback reported it: a rejected promise throws its error at `try await`.
public func weatherSummary(cityNamed name: String, days: Int, weather: LegacyWeatherService) async throws -> WeatherSummary {
    let city = try await weather.findCity(named: name).value
    let celsius = try await weather.currentTemperature(cityID: city.id).value
    let forecast = try await forecast(for: city, days: days, weather: weather)
    return WeatherSummary(city: city.name, celsius: celsius, forecast: forecast)
}

/// The forecast for `city`, which stops the legacy computation if the calling Task is cancelled.
///
/// `await promise.value` alone would only stop *waiting*: the awaiter throws `CancellationError`,
/// but the promise, and the legacy work behind it, go on. `withCancellationToken` turns the
/// Task's cancellation into a token, and the token reaches the legacy `ForecastRequest.cancel()`.
public func forecast(for city: City, days: Int, weather: LegacyWeatherService) async throws -> [Double] {
    try await withCancellationToken { token in
        try await weather.forecast(cityID: city.id, days: days, cancellation: token).value
    }
}
