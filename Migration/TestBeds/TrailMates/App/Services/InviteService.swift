import Foundation

/// Invitations other hikers sent to the signed-in user.
final class InviteService: @unchecked Sendable {
    static let shared = InviteService(client: .shared)

    private let client: APIClient

    init(client: APIClient) {
        self.client = client
    }

    func pendingInvites(completion: @escaping ResultCompletion<[Invite]>) {
        client.request(.invites, as: [Invite].self) { result in
            completion(result.mapError { $0 })
        }
    }

    /// Accepts or declines. `(nil, nil)`: the invitation expired meanwhile, nothing to answer;
    /// otherwise the hike the answer was for.
    func answer(_ invite: Invite, accept: Bool, completion: @escaping @Sendable (Hike?, Error?) -> Void) {
        client.request(.answerInvite(id: invite.id, accept: accept), as: Hike.self) { result in
            switch result {
            case .success(let hike): completion(hike, nil)
            case .failure(.notFound): completion(nil, nil)
            case .failure(let error): completion(nil, error)
            }
        }
    }
}
