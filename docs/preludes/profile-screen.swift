// Hidden prelude for Migration/README.md's call-site blocks: a screen whose `load` the blocks
// show before and after vow-migrate, and an `api` with completion handlers plus the promise and
// async alternatives vow-migrate adds beside them.
import Dispatch
import Vow

struct Profile: Sendable {
    let name: String
}

final class ProfileScreen: Sendable {
    func present(_ error: any Error) { print("error: \(error)") }
    func render(_ profile: Profile) { print("profile: \(profile.name)") }
    func show(_ line: String) { print(line) }
}

final class ProfileAPI: Sendable {
    func login(_ user: String, completion: @escaping @Sendable (String?, (any Error)?) -> Void) {
        DispatchQueue.global().async { completion("token-\(user)", nil) }
    }

    func profile(_ token: String, completion: @escaping @Sendable (Swift.Result<Profile, any Error>) -> Void) {
        DispatchQueue.global().async { completion(.success(Profile(name: token))) }
    }

    func login(_ user: String) -> Promise<String> {
        Promise { seal in login(user) { token, error in seal.resolve(token, error) } }
    }

    func profile(_ token: String) -> Promise<Profile> {
        Promise { seal in profile(token) { seal.resolve($0) } }
    }
}

let api = ProfileAPI()
