import Dispatch

struct Profile: Sendable {
    var name: String
}

final class Api: Sendable {
    func login(_ user: String, completion: @escaping @Sendable (String?, Error?) -> Void) {
        DispatchQueue.global().async { completion("token-\(user)", nil) }
    }

    func profile(_ token: String, completion: @escaping @Sendable (Result<Profile, Error>) -> Void) {
        DispatchQueue.global().async { completion(.success(Profile(name: token))) }
    }
}

func fetchNetworkData(completion: @escaping @Sendable (Bool) -> Void) {
    DispatchQueue.global().async { completion(true) }
}

func fetchSystemData(completion: @escaping @Sendable (Bool) -> Void) {
    DispatchQueue.global().async { completion(true) }
}

let api = Api()

final class Screen: @unchecked Sendable {
    func show(_ message: String) {}
    func present(_ error: Error) {}
    func render(_ profile: Profile) {}

    // Bool-flag callbacks, an if/else at each level
    func reload() {
        fetchNetworkData { ok in
            if ok {
                fetchSystemData { ok in
                    if ok { self.show("all loaded") } else { self.show("system failed") }
                }
            } else {
                self.show("network failed")
            }
        }
    }

    // optional error, Result, and a hop to the main queue
    func load(_ user: String) {
        api.login(user) { [weak self] token, error in
            if let error = error { self?.present(error); return }
            api.profile(token!) { [weak self] result in
                switch result {
                case .failure(let error): self?.present(error)
                case .success(let profile):
                    DispatchQueue.main.async { [weak self] in self?.render(profile) }
                }
            }
        }
    }
}
