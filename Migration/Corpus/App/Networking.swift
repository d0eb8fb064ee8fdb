import Dispatch
import Foundation
import Vow

// A small networking layer in the callback style: a transport, then services on top of it.

enum APIError: Error {
    case offline
    case status(Int)
    case decoding(String)
}

struct User: Sendable {
    var id: Int
    var name: String
}

struct Post: Sendable {
    var id: Int
    var author: Int
    var title: String
}

struct Settings: Sendable {
    var notifications: Bool
    var theme: String
}

/// Answers requests on its own queue, like URLSession's delegate queue.
final class Transport: Sendable {
    let queue = DispatchQueue(label: "transport")
    let online: Bool

    init(online: Bool = true) {
        self.online = online
    }

    func send(_ path: String, completion: @escaping @Sendable (Swift.Result<Data, Error>) -> Void) {
        queue.async {
            if self.online {
                completion(.success(Data(path.utf8)))
            } else {
                completion(.failure(APIError.offline))
            }
        }
    }
}

final class UserService: Sendable {
    let transport: Transport

    init(transport: Transport) {
        self.transport = transport
    }

    func signIn(name: String, password: String, completion: @escaping @Sendable (String?, Error?) -> Void) {
        transport.send("/signin/\(name)") { result in
            switch result {
            case .success: completion("token-\(name)", nil)
            case .failure(let error): completion(nil, error)
            }
        }
    }

    func user(token: String, completion: @escaping @Sendable (Swift.Result<User, Error>) -> Void) {
        transport.send("/me") { result in
            completion(result.map { _ in User(id: 1, name: token) })
        }
    }

    func isVerified(_ user: User, completion: @escaping @Sendable (Bool) -> Void) {
        transport.queue.async { completion(user.id > 0) }
    }

    func signOut(completion: @escaping @Sendable (Error?) -> Void) {
        transport.send("/signout") { result in
            switch result {
            case .success: completion(nil)
            case .failure(let error): completion(error)
            }
        }
    }

    /// Already a promise: chains elsewhere are built on it.
    func refreshToken(_ token: String) -> Promise<String> {
        Promise { seal in
            signIn(name: token, password: "") { value, error in seal.resolve(value, error) }
        }
    }
}

final class FeedService: Sendable {
    let transport: Transport

    init(transport: Transport) {
        self.transport = transport
    }

    func posts(for user: User, completion: @escaping @Sendable (Swift.Result<[Post], Error>) -> Void) {
        transport.send("/posts/\(user.id)") { result in
            completion(result.map { _ in [Post(id: 1, author: user.id, title: "Hello")] })
        }
    }

    func like(_ post: Post, completion: @escaping @Sendable (Error?) -> Void) {
        transport.send("/like/\(post.id)") { result in
            if case .failure(let error) = result { completion(error) } else { completion(nil) }
        }
    }

    func unreadCount(completion: @escaping @Sendable (Int) -> Void) {
        transport.queue.async { completion(3) }
    }

    func canPost(completion: @escaping @Sendable (Bool) -> Void) {
        transport.queue.async { completion(self.transport.online) }
    }

    /// Already a promise.
    func trending() -> Promise<[Post]> {
        .value([Post(id: 9, author: 2, title: "Trending")])
    }
}

final class SettingsService: Sendable {
    let transport: Transport

    init(transport: Transport) {
        self.transport = transport
    }

    func settings(completion: @escaping @Sendable (Settings?, Error?) -> Void) {
        transport.send("/settings") { result in
            switch result {
            case .success: completion(Settings(notifications: true, theme: "dark"), nil)
            case .failure(let error): completion(nil, error)
            }
        }
    }

    func update(_ settings: Settings, completion: @escaping @Sendable (Error?) -> Void) {
        transport.send("/settings/update") { result in
            if case .failure(let error) = result { completion(error) } else { completion(nil) }
        }
    }

    func confirm(_ change: String, completion: @escaping @Sendable (Bool, Error?) -> Void) {
        transport.queue.async { completion(!change.isEmpty, nil) }
    }
}
