import Foundation
import Vow

struct Forecast: Sendable {
    let celsius: Double
}

enum WeatherService {}

extension WeatherService {
    static func forecast(city: String, completion: @escaping @Sendable (Forecast?, Error?) -> Void) {
        completion(Forecast(celsius: 21), nil)
    }

    /// Promise-based alternative to `forecast(city:completion:)`, added by vow-migrate.
    static func forecast(city: String) -> Promise<Forecast> {
        Promise { seal in
            forecast(city: city) { value, error in
                seal.resolve(value, error)
            }
        }
    }
}

struct Thermostat {
    var target: Double

    // Mutating methods cannot be called from an escaping closure: reported, not converted.
    mutating func adjust(by delta: Double, completion: @escaping @Sendable (Error?) -> Void) {
        target += delta
        completion(nil)
    }
}

public func ping(host: String, completion: @escaping @Sendable (Swift.Result<Double, Error>) -> Void) {
    completion(.success(0.25))
}

/// Promise-based alternative to `ping(host:completion:)`, added by vow-migrate.
public func ping(host: String) -> Promise<Double> {
    Promise { seal in
        ping(host: host) { result in
            seal.resolve(result)
        }
    }
}
