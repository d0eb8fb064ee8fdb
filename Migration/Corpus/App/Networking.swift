import Dispatch
import Foundation
import Vow

// The networking layer in the callback style: a transport, then one service per area of the app.
// Every request is answered on the backend queue (see Fakes.swift).

enum APIError: Error {
    case offline
    case status(Int)
    case declined(String)
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

struct FeedPage: Sendable {
    var number: Int
    var posts: [Post]
    var hasMore: Bool
}

struct Settings: Sendable {
    var notifications: Bool
    var theme: String
}

struct Cart: Sendable {
    var items: [String]
    var coupon: String?
}

struct Price: Sendable {
    var total: Int
    var currency: String
}

struct Receipt: Sendable {
    var number: String
    var amount: Int
}

struct Profile: Sendable {
    var name: String
    var bio: String
    var avatar: String?
}

/// Sends requests; the first path component names the operation (`/posts/2` is `posts`).
final class Transport: Sendable {
    func send(_ path: String, completion: @escaping @Sendable (Swift.Result<Data, Error>) -> Void) {
        let operation = path.split(separator: "/").first.map(String.init) ?? path
        answer(operation) { failing in
            completion(failing ? .failure(APIError.status(500)) : .success(Data(path.utf8)))
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
            do {
                _ = try result.get()
                completion("token-\(name)", nil)
            } catch {
                completion(nil, error)
            }
        }
    }

    func user(token: String, completion: @escaping @Sendable (Swift.Result<User, Error>) -> Void) {
        transport.send("/me/\(token)") { result in
            completion(result.map { _ in User(id: 7, name: "ada") })
        }
    }

    func isVerified(_ user: User, completion: @escaping @Sendable (Bool) -> Void) {
        answer("verified") { failing in completion(!failing) }
    }

    func signOut(completion: @escaping @Sendable (Error?) -> Void) {
        transport.send("/signout") { result in
            if case .failure(let error) = result { completion(error) } else { completion(nil) }
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

    func page(_ number: Int, for user: User, completion: @escaping @Sendable (Swift.Result<FeedPage, Error>) -> Void) {
        transport.send("/feed/\(user.id)/\(number)") { result in
            completion(result.map { _ in
                FeedPage(number: number, posts: [Post(id: number * 10, author: user.id, title: "Post \(number)")], hasMore: number < 3)
            })
        }
    }

    func like(_ post: Post, completion: @escaping @Sendable (Error?) -> Void) {
        transport.send("/like/\(post.id)") { result in
            if case .failure(let error) = result { completion(error) } else { completion(nil) }
        }
    }

    func unreadCount(completion: @escaping @Sendable (Int) -> Void) {
        answer("unread") { failing in completion(failing ? 0 : 4) }
    }

    func canPost(completion: @escaping @Sendable (Bool) -> Void) {
        answer("canPost") { failing in completion(!failing) }
    }

    /// Already a promise.
    func trending() -> Promise<[Post]> {
        Promise { seal in
            transport.send("/trending") { result in
                seal.resolve(result.map { _ in [Post(id: 99, author: 2, title: "Trending")] })
            }
        }
    }
}

final class SettingsService: Sendable {
    let transport: Transport

    init(transport: Transport) {
        self.transport = transport
    }

    func settings(for user: User, completion: @escaping @Sendable (Settings?, Error?) -> Void) {
        transport.send("/settings/\(user.id)") { result in
            do {
                _ = try result.get()
                completion(Settings(notifications: true, theme: "dark"), nil)
            } catch {
                completion(nil, error)
            }
        }
    }

    func update(_ settings: Settings, completion: @escaping @Sendable (Error?) -> Void) {
        transport.send("/update/\(settings.theme)") { result in
            if case .failure(let error) = result { completion(error) } else { completion(nil) }
        }
    }

    func notificationsAllowed(completion: @escaping @Sendable (Bool) -> Void) {
        answer("permission") { failing in completion(!failing) }
    }

    func confirm(_ change: String, completion: @escaping @Sendable (Bool, Error?) -> Void) {
        answer("confirm") { failing in completion(!failing, nil) }
    }
}

final class CheckoutService: Sendable {
    let transport: Transport

    init(transport: Transport) {
        self.transport = transport
    }

    func cart(for user: User, completion: @escaping @Sendable (Swift.Result<Cart, Error>) -> Void) {
        transport.send("/cart/\(user.id)") { result in
            completion(result.map { _ in Cart(items: ["tea", "cake"], coupon: "SPRING") })
        }
    }

    func reserve(_ items: [String], completion: @escaping @Sendable (Bool) -> Void) {
        answer("stock") { failing in completion(!failing) }
    }

    func price(_ cart: Cart, completion: @escaping @Sendable (Price?, Error?) -> Void) {
        transport.send("/price/\(cart.items.count)") { result in
            do {
                _ = try result.get()
                completion(Price(total: cart.items.count * 3, currency: "EUR"), nil)
            } catch {
                completion(nil, error)
            }
        }
    }

    func pay(_ price: Price, token: String, completion: @escaping @Sendable (Swift.Result<Receipt, Error>) -> Void) {
        transport.send("/pay/\(price.total)") { result in
            completion(result.map { _ in Receipt(number: "R-\(price.total)", amount: price.total) })
        }
    }

    func sendReceipt(_ receipt: Receipt, completion: @escaping @Sendable (Error?) -> Void) {
        transport.send("/mail/\(receipt.number)") { result in
            if case .failure(let error) = result { completion(error) } else { completion(nil) }
        }
    }
}

final class ProfileService: Sendable {
    let transport: Transport

    init(transport: Transport) {
        self.transport = transport
    }

    func profile(of user: User, completion: @escaping @Sendable (Swift.Result<Profile, Error>) -> Void) {
        transport.send("/profile/\(user.id)") { result in
            completion(result.map { _ in Profile(name: user.name, bio: "hello", avatar: nil) })
        }
    }

    func isNameAvailable(_ name: String, completion: @escaping @Sendable (Bool) -> Void) {
        answer("nameCheck") { failing in completion(!failing) }
    }

    func upload(_ image: Data, completion: @escaping @Sendable (String?, Error?) -> Void) {
        transport.send("/upload/\(image.count)") { result in
            do {
                _ = try result.get()
                completion("avatar-\(image.count).png", nil)
            } catch {
                completion(nil, error)
            }
        }
    }

    func save(_ profile: Profile, completion: @escaping @Sendable (Error?) -> Void) {
        transport.send("/publish/\(profile.name)") { result in
            if case .failure(let error) = result { completion(error) } else { completion(nil) }
        }
    }
}

final class SearchService: Sendable {
    let transport: Transport

    init(transport: Transport) {
        self.transport = transport
    }

    func search(_ query: String, page: Int, completion: @escaping @Sendable (Swift.Result<[Post], Error>) -> Void) {
        transport.send("/search/\(query)/\(page)") { result in
            completion(result.map { _ in page < 2 ? [Post(id: page, author: 1, title: "\(query) \(page)")] : [] })
        }
    }

    func suggestions(for prefix: String, completion: @escaping @Sendable ([String]) -> Void) {
        answer("suggest") { failing in completion(failing ? [prefix] : [prefix + "a", prefix + "b"]) }
    }

    func recentQueries(completion: @escaping @Sendable ([String]?, Error?) -> Void) {
        transport.send("/recent") { result in
            do {
                _ = try result.get()
                completion(["swift", "vow"], nil)
            } catch {
                completion(nil, error)
            }
        }
    }

    /// Already a promise.
    func popular() -> Promise<[String]> {
        Promise { seal in
            transport.send("/popular") { result in
                seal.resolve(result.map { _ in ["promises", "async"] })
            }
        }
    }
}
