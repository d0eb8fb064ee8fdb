import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

/// A public enum is never inferred `Sendable` (and this one could not be): a promise cannot carry
/// it, so only the async form gets an alternative.
public enum Decision {
    case retry(userInfo: Any?)
    case stop
}

/// A class is never inferred `Sendable` either.
public class Page {
    public var items: [String] = []
}

/// Declared `Sendable` in an extension elsewhere in the tree: fine for both forms.
public struct Marker {
    public let text: String
}

extension Marker: Sendable {}

public protocol Strategy: Sendable {
    @available(*, renamed: "decide(attempt:)")
    func decide(attempt: Int, decisionHandler: @escaping @Sendable (Decision) -> Void)
}

/// Promise and async alternatives to the completion-handler requirements, added by vow-migrate.
public extension Strategy {
    /// Async alternative to `decide(attempt:decisionHandler:)`, added by vow-migrate.
    nonisolated(nonsending) func decide(attempt: Int) async -> Decision {
        await withCheckedContinuation { continuation in
            decide(attempt: attempt) { value in
                continuation.resume(returning: value)
            }
        }
    }
}

public final class Loader: Sendable {
    @available(*, renamed: "page(number:)")
    public func page(number: Int, completion: @escaping (Page?, Error?) -> Void) {
        completion(Page(), nil)
    }

    /// Async alternative to `page(number:completion:)`, added by vow-migrate.
    public nonisolated(nonsending) func page(number: Int) async throws -> Page {
        try await withCheckedThrowingContinuation { continuation in
            page(number: number) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "page(number:completion:)"))
                }
            }
        }
    }

    @available(*, renamed: "marker()")
    public func marker(completion: @escaping @Sendable (Result<Marker, Error>) -> Void) {
        completion(.success(Marker(text: "m")))
    }

    /// Async alternative to `marker(completion:)`, added by vow-migrate.
    public nonisolated(nonsending) func marker() async throws -> Marker {
        try await withCheckedThrowingContinuation { continuation in
            marker { result in
                continuation.resume(with: result)
            }
        }
    }
}
