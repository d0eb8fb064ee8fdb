import Foundation
import Vow

struct Profile: Sendable {
    let bio: String
}

typealias ProfileCompletion = @Sendable (Profile?, Error?) -> Void
typealias DoneHandler = @Sendable (Swift.Result<Int, Error>) -> Void

final class ProfileService: Sendable {
    func profile(userID: Int, completion: @escaping ProfileCompletion) {
        completion(Profile(bio: "hi"), nil)
    }

    /// Promise-based alternative to `profile(userID:completion:)`, added by vow-migrate.
    func profile(userID: Int) -> Promise<Profile> {
        Promise { seal in
            profile(userID: userID) { value, error in
                seal.resolve(value, error)
            }
        }
    }

    func count(completion: @escaping DoneHandler) {
        completion(.success(3))
    }

    /// Promise-based alternative to `count(completion:)`, added by vow-migrate.
    func count() -> Promise<Int> {
        Promise { seal in
            count { result in
                seal.resolve(result)
            }
        }
    }
}
