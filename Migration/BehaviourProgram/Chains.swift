import Vow

/// Promise-returning wrappers, as an earlier migration step would have left them.
func promisedLogin(_ user: String) -> Promise<String> {
    Promise { seal in api.login(user) { token, error in seal.resolve(token, error) } }
}

func promisedProfile(_ token: String) -> Promise<Profile> {
    Promise { seal in api.profile(token) { result in seal.resolve(result) } }
}

extension Flows {
    // An existing promise chain: `--to async` turns it into a task on the main actor.
    func chained(_ user: String) {
        firstly {
            promisedLogin(user)
        }.then { token in
            promisedProfile(token)
        }.map { profile in
            profile.name.uppercased()
        }.done { name in
            self.show("chained \(name)")
        }.catch { error in
            self.present(error)
        }
    }
}
