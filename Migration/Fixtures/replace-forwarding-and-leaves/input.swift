import Foundation

struct Temperature: Sendable {
    let celsius: Double
}

enum SensorError: Error {
    case offline
}

final class Thermometer: Sendable {
    private let online = true

    func reading(completion: @escaping @Sendable (Temperature?, Error?) -> Void) {
        if online {
            completion(Temperature(celsius: 21), nil)
        } else {
            completion(nil, SensorError.offline)
        }
    }

    // Passes its handler straight on: becomes a plain forward.
    func currentReading(completion: @escaping @Sendable (Temperature?, Error?) -> Void) {
        reading(completion: completion)
    }

    // Cannot fail: a Guarantee, or a non-throwing async function.
    func unit(completion: @escaping @Sendable (String) -> Void) {
        completion("°C")
    }

    func calibrate(completion: @escaping @Sendable (Error?) -> Void) {
        guard online else {
            completion(SensorError.offline)
            return
        }
        completion(nil)
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
