import Dispatch
import Vow

struct Profile: Sendable {
    var name: String
}

final class Api: Sendable {
    func login(_ user: String, completion: @escaping @Sendable (String?, Error?) -> Void) {
        DispatchQueue.global().async { completion("token-\(user)", nil) }
    }

    /// Promise-based alternative to `login(_:completion:)`, added by vow-migrate.
    func login(_ user: String) -> Promise<String> {
        Promise { seal in
            login(user) { value, error in
                seal.resolve(value, error)
            }
        }
    }

    func profile(_ token: String, completion: @escaping @Sendable (Swift.Result<Profile, Error>) -> Void) {
        DispatchQueue.global().async { completion(.success(Profile(name: token))) }
    }

    /// Promise-based alternative to `profile(_:completion:)`, added by vow-migrate.
    func profile(_ token: String) -> Promise<Profile> {
        Promise { seal in
            profile(token) { result in
                seal.resolve(result)
            }
        }
    }
}

func fetchNetworkData(completion: @escaping @Sendable (Bool) -> Void) {
    DispatchQueue.global().async { completion(true) }
}

/// Promise-based alternative to `fetchNetworkData(completion:)`, added by vow-migrate.
func fetchNetworkData() -> Guarantee<Bool> {
    Guarantee { resolve in
        fetchNetworkData { value in
            resolve(value)
        }
    }
}

func fetchSystemData(completion: @escaping @Sendable (Bool) -> Void) {
    DispatchQueue.global().async { completion(true) }
}

/// Promise-based alternative to `fetchSystemData(completion:)`, added by vow-migrate.
func fetchSystemData() -> Guarantee<Bool> {
    Guarantee { resolve in
        fetchSystemData { value in
            resolve(value)
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
        enum ReloadFailure: Error { case fetchNetworkData }
        firstly {
            fetchNetworkData()
        }.then(on: nil) { ok in
            guard ok else { throw ReloadFailure.fetchNetworkData }
            return fetchSystemData()
        }.done(on: nil) { ok in
            if ok { self.show("all loaded") } else { self.show("system failed") }
        }.catch(on: nil, policy: .allErrors) { _ in
            self.show("network failed")
        }
    }

    // optional error, Result, and a hop to the main queue
    func load(_ user: String) {
        firstly {
            api.login(user)
        }.then(on: nil) { token in
            return api.profile(token)
        }.done(on: .mainActor) { [weak self] profile in
            self?.render(profile)
        }.catch(on: nil, policy: .allErrors) { [weak self] error in
            self?.present(error)
        }
    }
}
