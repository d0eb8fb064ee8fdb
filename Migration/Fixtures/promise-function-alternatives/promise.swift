import Foundation
import Vow

struct User: Sendable, Decodable {
    var id: Int
    var name: String
}

enum CatalogError: Error {
    case notFound
}

protocol UserStore: Sendable {
    func user(id: Int) -> Promise<User>
    func allUsers() -> Guarantee<[User]>
}

/// A network layer built on promises, as PromiseKit apps have them.
class UserService: UserStore, @unchecked Sendable {
    private var cache: [Int: User] = [:]

    func user(id: Int) -> Promise<User> {
        if let cached = cache[id] { return Promise.value(cached) }
        return Promise { seal in
            DispatchQueue.global().async {
                id > 0 ? seal.fulfill(User(id: id, name: "user \(id)")) : seal.reject(CatalogError.notFound)
            }
        }
    }

    func allUsers() -> Guarantee<[User]> {
        Guarantee.value(Array(cache.values))
    }

    @discardableResult
    func refresh(force: Bool = false) -> Promise<Void> {
        user(id: 1).asVoid()
    }

    func decode<T: Decodable & Sendable>(_ type: T.Type, from data: Data) -> Promise<T> {
        Promise { seal in seal.fulfill(try JSONDecoder().decode(type, from: data)) }
    }

    static func shared(named name: String) -> Promise<UserService> {
        Promise.value(UserService())
    }

    public func publicProfile(id: Int) -> Promise<User> {
        user(id: id)
    }
}

final class CachingUserService: UserService, @unchecked Sendable {
    override func user(id: Int) -> Promise<User> {
        super.user(id: id)
    }
}

/// A screen that started moving to async/await: its async code uses promises here and there.
@MainActor
final class ProfileModel {
    let service = UserService()
    var name = ""

    func loadInOldCode() {
        service.user(id: 1).done { print($0.name) }.cauterize()
    }

    func loadInNewCode() async throws {
        let pending = service.user(id: 2)
        let user = try await pending.value
        name = user.name
        service.user(id: 3).done { print($0.name) }.cauterize()
        let second = try await service.user(id: 4).value
        let both = try await when(fulfilled: service.user(id: 5), service.user(id: 6)).value
        let typed: Promise<User> = service.user(id: 7)
        _ = (second, both, typed)
        let users = await service.allUsers().value
        _ = users
    }

    func startTask() {
        Task {
            _ = service.refresh()
        }
    }
}
