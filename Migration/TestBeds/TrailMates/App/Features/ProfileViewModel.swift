import Foundation

/// A hiker's profile: who they are, their avatar, their followers.
@MainActor
final class ProfileViewModel {
    struct Header: Equatable {
        var name: String
        var hikes: String
        var avatar: String
        var followers: String
    }

    let userID: Int
    private let users: UserService
    private let images: ImageCache
    private(set) var header = Header(name: "", hikes: "", avatar: "", followers: "")
    var onHeaderChange: ((Header) -> Void)?
    var onError: ((String) -> Void)?

    init(userID: Int, users: UserService = .shared, images: ImageCache = .shared) {
        self.userID = userID
        self.users = users
        self.images = images
    }

    /// Warms the avatar cache before the screen opens (from the friends list), so the header
    /// appears complete.
    static func preloadAvatar(for userID: Int, completion: @escaping @Sendable (Bool) -> Void) {
        ImageCache.shared.avatar(for: userID) { image in
            completion(image != nil)
        }
    }

    func load() {
        let userID = self.userID
        let images = self.images
        let users = self.users
        users.fetchProfile(id: userID) { result in
            switch result {
            case .success(let user):
                images.avatar(for: user.id) { image in
                    users.fetchFollowers(of: user.id, success: { followers in
                        DispatchQueue.main.async { [weak self] in
                            guard let self else { return }
                            self.header = Header(name: user.displayName, hikes: "\(user.hikesCompleted) hikes",
                                                 avatar: image ?? "placeholder", followers: "\(followers.count) followers")
                            self.onHeaderChange?(self.header)
                        }
                    }, failure: { _ in
                        DispatchQueue.main.async { [weak self] in
                            guard let self else { return }
                            self.header = Header(name: user.displayName, hikes: "\(user.hikesCompleted) hikes",
                                                 avatar: image ?? "placeholder", followers: "followers unavailable")
                            self.onHeaderChange?(self.header)
                        }
                    })
                }
            case .failure(.notFound):
                DispatchQueue.main.async { [weak self] in self?.onError?("This hiker deleted their account.") }
            case .failure(let error):
                DispatchQueue.main.async { [weak self] in self?.onError?(error.userMessage) }
            }
        }
    }

    func rename(to name: String, completion: @escaping @MainActor (Bool) -> Void) {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else {
            completion(false)
            return
        }
        users.updateDisplayName(trimmed) { error in
            if error != nil {
                OfflineQueue.shared.enqueue(.rename(trimmed))
            }
            DispatchQueue.main.async { [weak self] in
                if error == nil { self?.header.name = trimmed }
                completion(error == nil)
            }
        }
    }

    /// The compact header of the friends list: avatar and hike count in one request.
    func loadCompactHeader() {
        users.fetchHeader(for: userID) { avatar, hikes, error in
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                if let error {
                    self.onError?(describe(error))
                    return
                }
                self.header.avatar = avatar ?? "placeholder"
                self.header.hikes = "\(hikes) hikes"
                self.onHeaderChange?(self.header)
            }
        }
    }
}
