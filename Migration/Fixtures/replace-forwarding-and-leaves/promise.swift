import Foundation
import Vow

struct Temperature: Sendable {
    let celsius: Double
}

enum SensorError: Error {
    case offline
}

final class Thermometer: Sendable {
    private let online = true

    func reading() -> Promise<Temperature> {
        if online {
            return .value(Temperature(celsius: 21))
        } else {
            return Promise<Temperature>(error: SensorError.offline)
        }
    }

    // Passes its handler straight on: becomes a plain forward.
    func currentReading() -> Promise<Temperature> {
        return reading()
    }

    // Cannot fail: a Guarantee, or a non-throwing async function.
    func unit() -> Guarantee<String> {
        return .value("°C")
    }

    func calibrate() -> Promise<Void> {
        guard online else {
            return Promise<Void>(error: SensorError.offline)
        }
        return .value(())
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
