import Dispatch
import Foundation
import Vow

/// Editing one's profile: name, bio, avatar, and a draft kept on the device.
final class ProfileEditorViewModel: @unchecked Sendable {
    let users: UserService
    let profiles: ProfileService
    let store: Store
    private let lock = NSLock()
    private var edited: Profile?

    init(users: UserService, profiles: ProfileService, store: Store) {
        self.users = users
        self.profiles = profiles
        self.store = store
    }

    func log(_ text: String) {
        EffectTrace.shared.record("Profile: \(text)", final: false)
    }

    func show(_ text: String) {
        EffectTrace.shared.record("Profile: \(text)", final: true)
    }

    func present(_ error: Error) {
        EffectTrace.shared.record("Profile: alert \(error)", final: true)
    }

    func keep(_ profile: Profile) {
        lock.lock()
        edited = profile
        lock.unlock()
    }

    // The editor opens with the profile, filled in on the main queue.
    func open(token: String) {
        users.user(token: token) { [weak self] result in
            switch result {
            case .failure(let error):
                self?.present(error)
            case .success(let user):
                self?.profiles.profile(of: user) { [weak self] result in
                    switch result {
                    case .failure(let error):
                        self?.present(error)
                    case .success(let profile):
                        DispatchQueue.main.async { [weak self] in
                            self?.keep(profile)
                            self?.show("editing \(profile.name) (#\(user.id)): \(profile.bio)")
                        }
                    }
                }
            }
        }
    }

    // A taken name is a Bool answer with its own message; then load, change and save, each
    // failing in its own words.
    func rename(to name: String, token: String) {
        profiles.isNameAvailable(name) { available in
            if available {
                self.users.user(token: token) { result in
                    switch result {
                    case .success(let user):
                        self.profiles.profile(of: user) { result in
                            switch result {
                            case .success(let profile):
                                let renamed = Profile(name: name, bio: profile.bio, avatar: profile.avatar)
                                self.profiles.save(renamed) { error in
                                    if let error {
                                        self.show("could not save \(renamed.name): \(error)")
                                    } else {
                                        self.show("you are \(renamed.name) now")
                                    }
                                }
                            case .failure(let error):
                                self.show("could not load the profile: \(error)")
                            }
                        }
                    case .failure(let error):
                        self.show("not signed in: \(error)")
                    }
                }
            } else {
                self.show("\(name) is taken")
            }
        }
    }

    // Upload, then put the new address into the profile, save it, and keep the image on the
    // device; the address from the first step is needed in the third.
    func changeAvatar(_ image: Data, for user: User) {
        profiles.upload(image) { address, error in
            if let error { self.present(error); return }
            self.log("uploaded \(address!)")
            self.profiles.profile(of: user) { result in
                switch result {
                case .success(let profile):
                    let updated = Profile(name: profile.name, bio: profile.bio, avatar: address!)
                    self.profiles.save(updated) { error in
                        if let error { self.present(error); return }
                        self.store.save(image, for: "avatar") { error in
                            if let error { self.present(error); return }
                            self.show("avatar \(address!) for \(updated.name)")
                        }
                    }
                case .failure(let error):
                    self.present(error)
                }
            }
        }
    }

    // The draft on the device becomes the bio.
    func restoreDraft(for user: User) {
        store.load("draft") { data, error in
            if let error { self.show("no draft: \(error)"); return }
            let bio = String(decoding: data!, as: UTF8.self)
            self.profiles.save(Profile(name: user.name, bio: bio, avatar: nil)) { error in
                if let error { self.show("no draft: \(error)"); return }
                self.show("bio is now \(bio)")
            }
        }
    }

    // A missing address means "no avatar yet": read as optional, left alone.
    func previewAvatar(_ image: Data) {
        profiles.upload(image) { address, error in
            if let error { self.present(error); return }
            self.show(address ?? "no preview")
        }
    }

    // `defer` inside the callback: left alone in promise form (the async form keeps it, last).
    // Its effect is the flow's final one: the runner waits for that, and code after it in a
    // task would race with the next flow's header (the task is not on the backend queue).
    func discardDraft() {
        store.save(Data(), for: "draft") { error in
            defer { self.show("draft handled") }
            if let error { self.log("draft kept: \(error)"); return }
            self.log("draft discarded")
        }
    }

    // `[weak self]` on the inner callback only: left alone in async form; the promise form writes it as a chain of its own.
    func reloadBio(for user: User) {
        profiles.profile(of: user) { result in
            switch result {
            case .success(let profile):
                self.profiles.save(profile) { [weak self] error in
                    if let error { self?.present(error); return }
                    self?.show("bio \(profile.bio) saved again")
                }
            case .failure(let error):
                self.present(error)
            }
        }
    }

    // An existing promise chain: a fresh token, then the user it belongs to.
    func whoAmI(token: String) {
        firstly {
            users.refreshToken(token)
        }.then { fresh in
            self.users.refreshToken(fresh)
        }.done { twice in
            self.show("signed in as \(twice)")
        }.catch { error in
            self.present(error)
        }
    }
}
