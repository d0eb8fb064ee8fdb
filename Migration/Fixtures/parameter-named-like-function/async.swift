import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

public struct Route: Sendable {
    public let path: String
}

/// A parameter named like its function (`request(request:completion:)`): inside the alternative
/// `request(...)` would mean the parameter, so the call to the original says `self.`.
struct APIClient {
    @available(*, renamed: "request(request:as:)")
    func request<T: Decodable>(request: Route, completion: @escaping (Result<T, Error>) -> Void) {
        completion(.failure(URLError(.badURL)))
    }

    /// Async alternative to `request(request:completion:)`, added by vow-migrate.
    /// `T` comes from the call's context, or from `as:` (`as: SomeType.self`).
    nonisolated(nonsending) func request<T: Decodable & Sendable>(request: Route, as type: T.Type = T.self) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            self.request(request: request) { result in
                continuation.resume(with: result)
            }
        }
    }

    @available(*, renamed: "route(route:)")
    static func route(route: String, completion: @escaping @Sendable (Route?, Error?) -> Void) {
        completion(Route(path: route), nil)
    }

    /// Async alternative to `route(route:completion:)`, added by vow-migrate.
    static nonisolated(nonsending) func route(route: String) async throws -> Route {
        try await withCheckedThrowingContinuation { continuation in
            self.route(route: route) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "route(route:completion:)"))
                }
            }
        }
    }
}

/// At file scope there is no `self.` to say: reported, not converted.
func upload(upload: Data, completion: @escaping @Sendable (Error?) -> Void) {
    completion(nil)
}
