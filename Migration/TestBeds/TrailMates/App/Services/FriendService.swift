import Foundation

/// Friends and hike invitations.
final class FriendService: @unchecked Sendable {
    static let shared = FriendService(client: .shared)

    private let client: APIClient

    init(client: APIClient) {
        self.client = client
    }

    func fetchFriends(completion: @escaping @Sendable ([User]?, Error?) -> Void) {
        client.request(.friends, as: [User].self) { result in
            switch result {
            case .success(let friends): completion(friends, nil)
            case .failure(let error): completion(nil, error)
            }
        }
    }

    /// Invites a hiker to a hike. `(false, nil)`: they do not accept invitations (the server
    /// answers 409); not an error worth an alert.
    func invite(_ handle: String, to hikeID: Int, completion: @escaping @Sendable (Bool, Error?) -> Void) {
        client.request(.invite(handle: handle, hikeID: hikeID), as: Empty.self) { result in
            switch result {
            case .success: completion(true, nil)
            case .failure(.conflict): completion(false, nil)
            case .failure(let error): completion(false, error)
            }
        }
    }
}
