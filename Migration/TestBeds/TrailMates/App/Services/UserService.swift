import Foundation

/// Hikers: profiles, lookups by handle, followers.
final class UserService: @unchecked Sendable {
    static let shared = UserService(client: .shared)

    private let client: APIClient

    init(client: APIClient) {
        self.client = client
    }

    /// The signed-in user's profile.
    func fetchMe(completion: @escaping UserCompletion) {
        client.request(.me, as: User.self) { result in
            switch result {
            case .success(let user): completion(user, nil)
            case .failure(let error): completion(nil, error)
            }
        }
    }

    /// A profile by id; the typed error lets screens tell "not found" from "offline".
    func fetchProfile(id: Int, completion: @escaping @Sendable (Result<User, APIError>) -> Void) {
        client.request(.user(id: id), as: User.self, completion: completion)
    }

    /// Looks a hiker up by handle. `(nil, nil)`: nobody has that handle.
    func findUser(handle: String, completion: @escaping UserCompletion) {
        client.request(.userByHandle(handle), as: User.self) { result in
            switch result {
            case .success(let user): completion(user, nil)
            case .failure(.notFound): completion(nil, nil)
            case .failure(let error): completion(nil, error)
            }
        }
    }

    func fetchFollowers(of userID: Int, success: @escaping @Sendable ([User]) -> Void, failure: @escaping @Sendable (Error) -> Void) {
        client.request(.followers(userID: userID), as: [User].self) { result in
            switch result {
            case .success(let followers): success(followers)
            case .failure(let error): failure(error)
            }
        }
    }

    func updateDisplayName(_ name: String, completion: @escaping VoidCompletion) {
        client.send(.updateProfile, body: name, completion: completion)
    }

    /// The avatar and the follower count in one answer, as the profile header shows them.
    func fetchHeader(for userID: Int, completion: @escaping @Sendable (String?, Int, Error?) -> Void) {
        client.request(.user(id: userID), as: User.self) { result in
            switch result {
            case .success(let user): completion(user.avatarURL, user.hikesCompleted, nil)
            case .failure(let error): completion(nil, 0, error)
            }
        }
    }
}
