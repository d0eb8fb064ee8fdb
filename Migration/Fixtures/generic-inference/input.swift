import Foundation

final class Meter: Sendable {
    // `T` only in an optional value: the generated closure names its parameters' types, or
    // Swift could not infer `T` from what the closure does with `value`.
    func reading<T>(completion: @escaping @Sendable (T?, Error?) -> Void) where T: Numeric {
        completion(0, nil)
    }

    func calibrated<T: BinaryInteger & Sendable>(_ offset: T, completion: @escaping @Sendable (T, Error?) -> Void) {
        completion(offset, nil)
    }

    // `Failure` only in the error of a `Result`: the async form keeps it as `throws(Failure)`;
    // a promise's error is untyped, so the promise form has no place for it.
    func status<Failure: Error>(completion: @escaping @Sendable (Result<String, Failure>) -> Void) {
        completion(.success("ok"))
    }
}
