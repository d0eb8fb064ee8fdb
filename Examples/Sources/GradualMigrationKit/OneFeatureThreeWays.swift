import Vow

// One feature, the temperature report for a city, written at each of the three stages, side by
// side: as the callback codebase had it, as a promise chain, and as async/await. During a
// migration all three exist at once, and any of them may have to call any other. Each stage here
// calls the other two through Vow's bridges:
//
//                      calls callbacks          calls promises             calls async
//   callback code      (itself)                 .done / .catch             Promise { try await } .done / .catch
//   promise code       Promise { seal in }      (itself)                   Promise { try await }
//   async code         withCallback { done in } try await promise.value    (itself)
//
// Every version gives the same report, and the same error, as the others.

/// The feature's answer: how warm it is in a city right now.
public struct TemperatureReport: Sendable, Equatable, CustomStringConvertible {
    public let city: String
    public let celsius: Double

    public init(city: String, celsius: Double) {
        self.city = city
        self.celsius = celsius
    }

    public var description: String { "\(city) \(celsius) °C" }
}

// MARK: - Callback code

/// The feature as the callback codebase wrote it, and its callers reaching the newer versions.
public enum CallbackCode {
    /// The original: nested completion handlers, an error path at each level.
    public static func temperatureReport(
        cityNamed name: String,
        weather: LegacyWeatherService,
        completion: @escaping @Sendable (Swift.Result<TemperatureReport, Error>) -> Void
    ) {
        weather.findCity(named: name, success: { city in
            weather.currentTemperature(cityID: city.id) { celsius, error in
                if let celsius {
                    completion(.success(TemperatureReport(city: city.name, celsius: celsius)))
                } else {
                    completion(.failure(error ?? WeatherError.stationOffline(city.name)))
                }
            }
        }, failure: { error in
            completion(.failure(error))
        })
    }

    /// Callback code calling the promise version: a chain that ends in the completion handler.
    public static func temperatureReportFromPromiseCode(
        cityNamed name: String,
        weather: LegacyWeatherService,
        completion: @escaping @Sendable (Swift.Result<TemperatureReport, Error>) -> Void
    ) {
        PromiseCode.temperatureReport(cityNamed: name, weather: weather)
            .done(on: nil) { completion(.success($0)) }
            // `.allErrors`: the handler must hear of every outcome, cancellations included.
            .catch(on: nil, policy: .allErrors) { completion(.failure($0)) }
    }

    /// Callback code calling the async version: `Promise { try await ... }` runs it in a Task,
    /// and the promise ends in the completion handler.
    public static func temperatureReportFromAsyncCode(
        cityNamed name: String,
        weather: LegacyWeatherService,
        completion: @escaping @Sendable (Swift.Result<TemperatureReport, Error>) -> Void
    ) {
        Promise { try await AsyncCode.temperatureReport(cityNamed: name, weather: weather) }
            .done(on: nil) { completion(.success($0)) }
            .catch(on: nil, policy: .allErrors) { completion(.failure($0)) }
    }
}

// MARK: - Promise code

/// The feature as a promise chain, and its callers reaching the other versions.
public enum PromiseCode {
    /// The chain: flat, with one place for errors (the caller's `catch`).
    public static func temperatureReport(cityNamed name: String, weather: LegacyWeatherService) -> Promise<TemperatureReport> {
        firstly {
            weather.findCity(named: name)
        }.then(on: nil) { city in
            weather.currentTemperature(cityID: city.id).map(on: nil) { TemperatureReport(city: city.name, celsius: $0) }
        }
    }

    /// Promise code calling the callback version: `Promise { seal in ... }` hands it a completion
    /// handler that settles the promise.
    public static func temperatureReportFromCallbackCode(cityNamed name: String, weather: LegacyWeatherService) -> Promise<TemperatureReport> {
        Promise { seal in
            CallbackCode.temperatureReport(cityNamed: name, weather: weather) { result in
                seal.resolve(result)
            }
        }
    }

    /// Promise code calling the async version: `Promise { try await ... }`.
    public static func temperatureReportFromAsyncCode(cityNamed name: String, weather: LegacyWeatherService) -> Promise<TemperatureReport> {
        Promise { try await AsyncCode.temperatureReport(cityNamed: name, weather: weather) }
    }
}

// MARK: - Async code

/// The feature as async/await, and its callers reaching the other versions.
public enum AsyncCode {
    /// Straight-line code over the promise alternatives of the legacy calls (stage 1).
    public static func temperatureReport(cityNamed name: String, weather: LegacyWeatherService) async throws -> TemperatureReport {
        let city = try await weather.findCity(named: name).value
        let celsius = try await weather.currentTemperature(cityID: city.id).value
        return TemperatureReport(city: city.name, celsius: celsius)
    }

    /// Async code calling the callback version: `withCallback` hands it a completion handler and
    /// resumes once the handler is called.
    public static func temperatureReportFromCallbackCode(cityNamed name: String, weather: LegacyWeatherService) async throws -> TemperatureReport {
        try await withCallback { done in
            CallbackCode.temperatureReport(cityNamed: name, weather: weather, completion: done)
        }
    }

    /// Async code calling the promise version: `try await promise.value`.
    public static func temperatureReportFromPromiseCode(cityNamed name: String, weather: LegacyWeatherService) async throws -> TemperatureReport {
        try await PromiseCode.temperatureReport(cityNamed: name, weather: weather).value
    }
}
