import Foundation
import Vow

final class Meter: Sendable {
    // `T` only in an optional value: the generated closure names its parameters' types, or
    // Swift could not infer `T` from what the closure does with `value`.
    func reading<T>(completion: @escaping @Sendable (T?, Error?) -> Void) where T: Numeric {
        completion(0, nil)
    }

    /// Promise-based alternative to `reading(completion:)`, added by vow-migrate.
    /// `T` comes from the call's context, or from `as:` (`as: SomeType.self`).
    func reading<T: Sendable>(as type: T.Type = T.self) -> Promise<T> where T: Numeric {
        Promise { seal in
            reading { (value: T?, error: Error?) in
                seal.resolve(value, error)
            }
        }
    }

    func calibrated<T: BinaryInteger & Sendable>(_ offset: T, completion: @escaping @Sendable (T, Error?) -> Void) {
        completion(offset, nil)
    }

    /// Promise-based alternative to `calibrated(_:completion:)`, added by vow-migrate.
    func calibrated<T: BinaryInteger & Sendable>(_ offset: T) -> Promise<T> {
        Promise { seal in
            calibrated(offset) { value, error in
                seal.resolve(value, error)
            }
        }
    }

    // `Failure` only in the error of a `Result`: the async form keeps it as `throws(Failure)`;
    // a promise's error is untyped, so the promise form has no place for it.
    func status<Failure: Error>(completion: @escaping @Sendable (Swift.Result<String, Failure>) -> Void) {
        completion(.success("ok"))
    }
}
