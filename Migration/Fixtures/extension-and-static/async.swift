import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

struct Forecast: Sendable {
    let celsius: Double
}

enum WeatherService {}

extension WeatherService {
    @available(*, renamed: "forecast(city:)")
    static func forecast(city: String, completion: @escaping @Sendable (Forecast?, Error?) -> Void) {
        completion(Forecast(celsius: 21), nil)
    }

    /// Async alternative to `forecast(city:completion:)`, added by vow-migrate.
    static nonisolated(nonsending) func forecast(city: String) async throws -> Forecast {
        try await withCheckedThrowingContinuation { continuation in
            forecast(city: city) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "forecast(city:completion:)"))
                }
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

@available(*, renamed: "ping(host:)")
public func ping(host: String, completion: @escaping @Sendable (Result<Double, Error>) -> Void) {
    completion(.success(0.25))
}

/// Async alternative to `ping(host:completion:)`, added by vow-migrate.
public nonisolated(nonsending) func ping(host: String) async throws -> Double {
    try await withCheckedThrowingContinuation { continuation in
        ping(host: host) { result in
            continuation.resume(with: result)
        }
    }
}
