import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

struct User: Sendable {
    let id: Int
    let name: String
}

/// Talks to the user service.
final class UserClient: Sendable {
    /// Fetches one user; exactly one of `user` and `error` is non-nil.
    @available(*, renamed: "fetchUser(id:)")
    func fetchUser(id: Int, completion: @escaping @Sendable (User?, Error?) -> Void) {
        DispatchQueue.global().async {
            completion(User(id: id, name: "Ada"), nil) // served from the fake backend
        }
    }

    /// Async alternative to `fetchUser(id:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func fetchUser(id: Int) async throws -> User {
        try await withCheckedThrowingContinuation { continuation in
            fetchUser(id: id) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "fetchUser(id:completion:)"))
                }
            }
        }
    }

    // A helper that takes no handler stays as it is.
    func cacheKey(for id: Int) -> String {
        "user-\(id)"
    }
}
