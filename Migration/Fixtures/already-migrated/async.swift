import Foundation
import Vow

struct User: Sendable {
    let id: Int
    let name: String
}

/// Talks to the user service; migrated by an earlier run to both forms, so nothing is left to add.
final class UserClient: Sendable {
    /// Fetches one user; exactly one of `user` and `error` is non-nil.
    @available(*, renamed: "fetchUser(id:)")
    func fetchUser(id: Int, completion: @escaping @Sendable (User?, Error?) -> Void) {
        DispatchQueue.global().async {
            completion(User(id: id, name: "Ada"), nil) // served from the fake backend
        }
    }

    /// Async alternative to `fetchUser(id:completion:)`, added by vow-migrate.
    func fetchUser(id: Int) async throws -> User {
        try await withCheckedThrowingContinuation { continuation in
            fetchUser(id: id) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: PMKError.invalidCallingConvention)
                }
            }
        }
    }

    /// Promise-based alternative to `fetchUser(id:completion:)`, added by vow-migrate.
    func fetchUser(id: Int) -> Promise<User> {
        Promise { seal in
            fetchUser(id: id) { value, error in
                seal.resolve(value, error)
            }
        }
    }

    // A helper that takes no handler stays as it is.
    func cacheKey(for id: Int) -> String {
        "user-\(id)"
    }
}
