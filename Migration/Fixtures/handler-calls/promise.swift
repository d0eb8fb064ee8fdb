import Foundation
import Vow

struct Profile: Sendable {
    let id: Int
}

final class ProfileStore: @unchecked Sendable {
    var cached: Profile?

    // Called twice: a cached answer, then a fresh one.
    func profile(id: Int, completion: @escaping @Sendable (Profile?, Error?) -> Void) {
        if let cached {
            completion(cached, nil)
        }
        DispatchQueue.global().async {
            completion(Profile(id: id), nil)
        }
    }

    // Hands its handler to a function that calls it twice.
    func currentProfile(completion: @escaping @Sendable (Profile?, Error?) -> Void) {
        profile(id: 0, completion: completion)
    }

    // A path of its own body ends without calling it.
    func save(_ profile: Profile, completion: @escaping @Sendable (Error?) -> Void) {
        guard profile.id > 0 else { return }
        completion(nil)
    }

    /// Promise-based alternative to `save(_:completion:)`, added by vow-migrate.
    /// Like the original, which ends without calling its handler on some path, it answers nothing there: the promise stays pending.
    func save(_ profile: Profile) -> Promise<Void> {
        Promise(ifAbandoned: .stayPending) { seal in
            save(profile) { error in
                seal.resolve(error)
            }
        }
    }

    // Never calls it.
    func forget(completion: @escaping @Sendable (Error?) -> Void) {
        cached = nil
    }

    // Once on every path, one of them inside a callback: converted.
    func reload(id: Int, completion: @escaping @Sendable (Profile?, Error?) -> Void) {
        guard id > 0 else {
            completion(nil, URLError(.badURL))
            return
        }
        DispatchQueue.global().async { [weak self] in
            guard let self else { return }
            completion(self.cached, nil)
        }
    }

    /// Promise-based alternative to `reload(id:completion:)`, added by vow-migrate.
    func reload(id: Int) -> Promise<Profile> {
        Promise { seal in
            reload(id: id) { value, error in
                seal.resolve(value, error)
            }
        }
    }

    // Hands its handler on to one that calls it once: converted.
    func reloadCurrent(completion: @escaping @Sendable (Profile?, Error?) -> Void) {
        reload(id: 1, completion: completion)
    }

    /// Promise-based alternative to `reloadCurrent(completion:)`, added by vow-migrate.
    func reloadCurrent() -> Promise<Profile> {
        Promise { seal in
            reloadCurrent { value, error in
                seal.resolve(value, error)
            }
        }
    }
}
