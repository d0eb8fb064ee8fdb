import Dispatch
import Vow

struct Profile: Sendable {
    var name: String
}

/// An API that already returns promises.
final class Api: Sendable {
    func login(_ user: String) -> Promise<String> {
        .value("token-\(user)")
    }

    /// Async alternative to `login(_:)`, added by vow-migrate.
    nonisolated(nonsending) func login(_ user: String) async throws -> String {
        let promise: Promise<String> = login(user)
        return try await promise.value
    }

    func profile(_ token: String) -> Promise<Profile> {
        .value(Profile(name: token))
    }

    /// Async alternative to `profile(_:)`, added by vow-migrate.
    nonisolated(nonsending) func profile(_ token: String) async throws -> Profile {
        let promise: Promise<Profile> = profile(token)
        return try await promise.value
    }

    func avatar(_ profile: Profile) -> Promise<String> {
        .value("avatar-\(profile.name)")
    }

    /// Async alternative to `avatar(_:)`, added by vow-migrate.
    nonisolated(nonsending) func avatar(_ profile: Profile) async throws -> String {
        let promise: Promise<String> = avatar(profile)
        return try await promise.value
    }
}

let api = Api()

final class ProfileScreen: @unchecked Sendable {
    func show(_ text: String) {}
    func present(_ error: Error) {}

    // An existing chain: handlers on the main queue (conf.Q), cancellations skipped by `catch`.
    func open(_ user: String) {
        let tokenPromise = api.login(user)
        Task { @MainActor in
            do {
                let token = try await tokenPromise.value
                let profile = try await api.profile(token)
                self.show("loading \(profile.name)")
                let avatar = try await api.avatar(profile)
                let avatar2 = avatar.uppercased()
                self.show(avatar2)
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                self.present(error)
            }
        }
    }

    // A handler on another queue still runs there; the task waits for it before the next step.
    func openInBackground(_ user: String) {
        let tokenPromise = api.login(user)
        Task { @MainActor in
            do {
                let token = try await tokenPromise.value
                await DispatchQueue.global().async(.promise) {
                    self.show(token)
                }.value
            } catch {
                // The chain's `catch` skipped cancellations (its default policy).
                if error.isCancelled { return }
                self.present(error)
            }
        }
    }
}
