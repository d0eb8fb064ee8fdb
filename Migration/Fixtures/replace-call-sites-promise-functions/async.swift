import Vow

struct Profile: Sendable {
    var name: String
}

/// An API that already returns promises (bodies that are no chain are left as they are).
final class Api: Sendable {
    func login(_ user: String) -> Promise<String> {
        .value("token-\(user)")
    }

    func profile(_ token: String) -> Promise<Profile> {
        .value(Profile(name: token))
    }
}

let api = Api()

final class ProfileService: Sendable {
    // One chain: `async throws -> String` on the main actor, where its handlers ran.
    @MainActor func profileName(_ user: String) async throws -> String {
        let token = try await api.login(user).value
        let profile = try await api.profile(token).value
        return profile.name.uppercased()
    }

    // `Promise<Void>`: `async throws`, the value dropped as `asVoid` dropped it.
    @MainActor func touch(_ user: String) async throws {
        _ = try await api.login(user).value
    }

    // Used as a promise in this file: kept a promise function, with the place of that use; its
    // chain goes into the bridge (`Promise { @MainActor @Sendable in }`).
    func token(_ user: String) -> Promise<String> {
        let tokenPromise = api.login(user)
        return Promise { @MainActor @Sendable in
            let token = try await tokenPromise.value
            return token + "!"
        }
    }

    func printToken() {
        let tokenPromise = token("ada")
        Task { @MainActor in
            do {
                let token = try await tokenPromise.value
                print(token)
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                conf.logHandler(.cauterized(error))
            }
        }
    }

    // A chain with its own `catch` does not return a promise; one with `[weak self]` stays a promise
    // function, its chain in the bridge.
    func weakly(_ user: String) -> Promise<String> {
        let tokenPromise = api.login(user)
        return Promise { @MainActor @Sendable [weak self] in
            let token = try await tokenPromise.value
            return self?.describe(token) ?? token
        }
    }

    func describe(_ token: String) -> String {
        "<\(token)>"
    }
}

@MainActor
final class Screen {
    // Already on the main actor: no attribute is added.
    func title(_ user: String) async throws -> String {
        let token = try await api.login(user).value
        return "Hello \(token)"
    }
}
