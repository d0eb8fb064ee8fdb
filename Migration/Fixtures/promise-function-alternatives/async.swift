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

/// Async alternatives to the promise-returning requirements, added by vow-migrate.
extension UserStore {
    /// Async alternative to `user(id:)`, added by vow-migrate.
    nonisolated(nonsending) func user(id: Int) async throws -> User {
        let promise: Promise<User> = user(id: id)
        return try await promise.value
    }

    /// Async alternative to `allUsers()`, added by vow-migrate.
    nonisolated(nonsending) func allUsers() async -> [User] {
        let guarantee: Guarantee<[User]> = allUsers()
        return await guarantee.value
    }
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

    /// Async alternative to `user(id:)`, added by vow-migrate.
    nonisolated(nonsending) func user(id: Int) async throws -> User {
        let promise: Promise<User> = user(id: id)
        return try await promise.value
    }

    func allUsers() -> Guarantee<[User]> {
        Guarantee.value(Array(cache.values))
    }

    /// Async alternative to `allUsers()`, added by vow-migrate.
    nonisolated(nonsending) func allUsers() async -> [User] {
        let guarantee: Guarantee<[User]> = allUsers()
        return await guarantee.value
    }

    @discardableResult
    func refresh(force: Bool = false) -> Promise<Void> {
        user(id: 1).asVoid()
    }

    /// Async alternative to `refresh(force:)`, added by vow-migrate.
    nonisolated(nonsending) func refresh(force: Bool = false) async throws {
        let promise: Promise<Void> = refresh(force: force)
        try await promise.value
    }

    func decode<T: Decodable & Sendable>(_ type: T.Type, from data: Data) -> Promise<T> {
        Promise { seal in seal.fulfill(try JSONDecoder().decode(type, from: data)) }
    }

    /// Async alternative to `decode(_:from:)`, added by vow-migrate.
    nonisolated(nonsending) func decode<T: Decodable & Sendable>(_ type: T.Type, from data: Data) async throws -> T {
        let promise: Promise<T> = decode(type, from: data)
        return try await promise.value
    }

    static func shared(named name: String) -> Promise<UserService> {
        Promise.value(UserService())
    }

    /// Async alternative to `shared(named:)`, added by vow-migrate.
    static nonisolated(nonsending) func shared(named name: String) async throws -> UserService {
        let promise: Promise<UserService> = shared(named: name)
        return try await promise.value
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
        let pending = (service.user(id: 2) as Promise)
        let user = try await pending.value
        name = user.name
        service.user(id: 3).done { print($0.name) }.cauterize()
        let second = try await (service.user(id: 4) as Promise).value
        let both = try await when(fulfilled: service.user(id: 5), service.user(id: 6)).value
        let typed: Promise<User> = service.user(id: 7)
        _ = (second, both, typed)
        let users = await service.allUsers().value
        _ = users
    }

    func startTask() {
        Task {
            _ = (service.refresh() as Promise)
        }
    }
}
