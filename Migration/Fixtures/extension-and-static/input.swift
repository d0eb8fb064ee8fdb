import Foundation

struct Forecast: Sendable {
    let celsius: Double
}

enum WeatherService {}

extension WeatherService {
    static func forecast(city: String, completion: @escaping @Sendable (Forecast?, Error?) -> Void) {
        completion(Forecast(celsius: 21), nil)
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

public func ping(host: String, completion: @escaping @Sendable (Result<Double, Error>) -> Void) {
    completion(.success(0.25))
}
