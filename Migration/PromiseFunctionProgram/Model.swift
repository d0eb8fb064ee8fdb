import Vow

/// A function returning a promise whose body is one chain: `--replace --to async` converts it.
final class Model: Sendable {
    func load(_ user: String, failing: String) -> Promise<Int> {
        firstly {
            fetch("login-\(user)", fails: failing == "login")
        }.then { token in
            fetch("profile-\(token)", fails: failing == "profile")
        }.get { profile in
            log("got \(profile)")
        }.ensure {
            log("settled")
        }.compactMap { profile -> Int? in
            failing == "count" ? nil : profile.count
        }.recover { error -> Promise<Int> in
            log("recovering from \(error)")
            if failing == "login" { throw error }
            return .value(-1)
        }
    }
}
