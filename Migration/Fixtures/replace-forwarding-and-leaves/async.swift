import Foundation

struct Temperature: Sendable {
    let celsius: Double
}

enum SensorError: Error {
    case offline
}

final class Thermometer: Sendable {
    private let online = true

    nonisolated(nonsending) func reading() async throws -> Temperature {
        if online {
            return Temperature(celsius: 21)
        } else {
            throw SensorError.offline
        }
    }

    // Passes its handler straight on: becomes a plain forward.
    nonisolated(nonsending) func currentReading() async throws -> Temperature {
        return try await reading()
    }

    // Cannot fail: a Guarantee, or a non-throwing async function.
    nonisolated(nonsending) func unit() async -> String {
        return "°C"
    }

    nonisolated(nonsending) func calibrate() async throws {
        guard online else {
            throw SensorError.offline
        }
    }

    // Still called with a handler by `log()`, which is not converted: kept so the file compiles.
    func serialNumber(completion: @escaping @Sendable (String) -> Void) {
        completion("T-1000")
    }

    func log() {
        serialNumber { serial in
            print(serial)
        }
    }
}
