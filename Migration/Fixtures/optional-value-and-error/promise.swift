import Foundation
import Vow

struct User: Sendable {
    let id: Int
    let name: String
}

/// Talks to the user service.
final class UserClient: Sendable {
    /// Fetches one user; exactly one of `user` and `error` is non-nil.
    func fetchUser(id: Int, completion: @escaping @Sendable (User?, Error?) -> Void) {
        DispatchQueue.global().async {
            completion(User(id: id, name: "Ada"), nil) // served from the fake backend
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
