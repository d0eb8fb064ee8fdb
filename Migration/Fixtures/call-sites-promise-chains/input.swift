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

    func profile(_ token: String) -> Promise<Profile> {
        .value(Profile(name: token))
    }

    func avatar(_ profile: Profile) -> Promise<String> {
        .value("avatar-\(profile.name)")
    }
}

let api = Api()

final class ProfileScreen: @unchecked Sendable {
    func show(_ text: String) {}
    func present(_ error: Error) {}

    // An existing chain: handlers on the main queue (conf.Q), cancellations skipped by `catch`.
    func open(_ user: String) {
        firstly {
            api.login(user)
        }.then { token in
            api.profile(token)
        }.get { profile in
            self.show("loading \(profile.name)")
        }.then { profile in
            api.avatar(profile)
        }.map { avatar in
            avatar.uppercased()
        }.done { avatar in
            self.show(avatar)
        }.catch { error in
            self.present(error)
        }
    }

    // A handler on another queue still runs there; the task waits for it before the next step.
    func openInBackground(_ user: String) {
        api.login(user).done(on: .global()) { token in
            self.show(token)
        }.catch { error in
            self.present(error)
        }
    }
}
