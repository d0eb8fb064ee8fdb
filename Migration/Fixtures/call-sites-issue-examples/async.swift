import Dispatch

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

struct Profile: Sendable {
    var name: String
}

final class Api: Sendable {
    @available(*, renamed: "login(_:)")
    func login(_ user: String, completion: @escaping @Sendable (String?, Error?) -> Void) {
        DispatchQueue.global().async { completion("token-\(user)", nil) }
    }

    /// Async alternative to `login(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func login(_ user: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            login(user) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "login(_:completion:)"))
                }
            }
        }
    }

    @available(*, renamed: "profile(_:)")
    func profile(_ token: String, completion: @escaping @Sendable (Result<Profile, Error>) -> Void) {
        DispatchQueue.global().async { completion(.success(Profile(name: token))) }
    }

    /// Async alternative to `profile(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func profile(_ token: String) async throws -> Profile {
        try await withCheckedThrowingContinuation { continuation in
            profile(token) { result in
                continuation.resume(with: result)
            }
        }
    }
}

@available(*, renamed: "fetchNetworkData()")
func fetchNetworkData(completion: @escaping @Sendable (Bool) -> Void) {
    DispatchQueue.global().async { completion(true) }
}

/// Async alternative to `fetchNetworkData(completion:)`, added by vow-migrate.
nonisolated(nonsending) func fetchNetworkData() async -> Bool {
    await withCheckedContinuation { continuation in
        fetchNetworkData { value in
            continuation.resume(returning: value)
        }
    }
}

@available(*, renamed: "fetchSystemData()")
func fetchSystemData(completion: @escaping @Sendable (Bool) -> Void) {
    DispatchQueue.global().async { completion(true) }
}

/// Async alternative to `fetchSystemData(completion:)`, added by vow-migrate.
nonisolated(nonsending) func fetchSystemData() async -> Bool {
    await withCheckedContinuation { continuation in
        fetchSystemData { value in
            continuation.resume(returning: value)
        }
    }
}

let api = Api()

final class Screen: @unchecked Sendable {
    func show(_ message: String) {}
    func present(_ error: Error) {}
    func render(_ profile: Profile) {}

    // Bool-flag callbacks, an if/else at each level
    func reload() {
        Task {
            let ok = await fetchNetworkData()
            guard ok else {
                self.show("network failed")
                return
            }
            let ok2 = await fetchSystemData()
            if ok2 { self.show("all loaded") } else { self.show("system failed") }
        }
    }

    // optional error, Result, and a hop to the main queue
    func load(_ user: String) {
        Task { [weak self] in
            do {
                let token = try await api.login(user)
                let profile = try await api.profile(token)
                await MainActor.run { [weak self] in
                    self?.render(profile)
                }
            } catch {
                self?.present(error)
            }
        }
    }
}
