import Foundation

/// Push notifications: the user's permission, and this device's registration.
final class PushService: @unchecked Sendable {
    static let shared = PushService(client: .shared)

    private let client: APIClient

    init(client: APIClient) {
        self.client = client
    }

    /// Asks the user (here: the server keeps the answer). `(false, nil)`: the user said no.
    func requestPermission(completion: @escaping @Sendable (Bool, Error?) -> Void) {
        client.status(.permission) { status, error in
            completion(status == 200, error)
        }
    }

    func registerDevice(completion: @escaping VoidCompletion) {
        client.send(.registerDevice, completion: completion)
    }
}
