import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

final class Meter: Sendable {
    // `T` only in an optional value: the generated closure names its parameters' types, or
    // Swift could not infer `T` from what the closure does with `value`.
    @available(*, renamed: "reading(as:)")
    func reading<T>(completion: @escaping @Sendable (T?, Error?) -> Void) where T: Numeric {
        completion(0, nil)
    }

    /// Async alternative to `reading(completion:)`, added by vow-migrate.
    /// `T` comes from the call's context, or from `as:` (`as: SomeType.self`).
    nonisolated(nonsending) func reading<T: Sendable>(as type: T.Type = T.self) async throws -> T where T: Numeric {
        try await withCheckedThrowingContinuation { continuation in
            reading { (value: T?, error: Error?) in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "reading(completion:)"))
                }
            }
        }
    }

    @available(*, renamed: "calibrated(_:)")
    func calibrated<T: BinaryInteger & Sendable>(_ offset: T, completion: @escaping @Sendable (T, Error?) -> Void) {
        completion(offset, nil)
    }

    /// Async alternative to `calibrated(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func calibrated<T: BinaryInteger & Sendable>(_ offset: T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            calibrated(offset) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: value)
                }
            }
        }
    }

    // `Failure` only in the error of a `Result`: the async form keeps it as `throws(Failure)`;
    // a promise's error is untyped, so the promise form has no place for it.
    @available(*, renamed: "status()")
    func status<Failure: Error>(completion: @escaping @Sendable (Result<String, Failure>) -> Void) {
        completion(.success("ok"))
    }

    /// Async alternative to `status(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func status<Failure: Error>() async throws(Failure) -> String {
        let outcome: Swift.Result<String, Failure> = await withCheckedContinuation { continuation in
            status { result in
                continuation.resume(returning: result)
            }
        }
        return try outcome.get()
    }
}
