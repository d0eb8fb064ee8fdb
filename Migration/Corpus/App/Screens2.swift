import Dispatch
import Foundation
import Vow

/// The feed screen's view model: callback pyramids as written before promises.
final class FeedViewModel: @unchecked Sendable {
    let users: UserService
    let feed: FeedService
    let settingsService: SettingsService
    let store: Store
    private let lock = NSLock()
    private var shown: [String] = []
    var keys: [String] = ["feed-a", "feed-b"]

    init(users: UserService, feed: FeedService, settingsService: SettingsService, store: Store) {
        self.users = users
        self.feed = feed
        self.settingsService = settingsService
        self.store = store
    }

    func show(_ text: String) {
        lock.lock()
        shown.append("Feed: " + text)
        lock.unlock()
    }

    // Sign in, load the user and their posts; one way of failing; render on the main queue.
    func signInFlow(name: String) {
        users.signIn(name: name, password: "secret") { token, error in
            if let error = error { self.show("sign-in failed: \(error)"); return }
            self.show("signed in")
            self.users.user(token: token!) { result in
                switch result {
                case .success(let user):
                    self.feed.posts(for: user) { result in
                        switch result {
                        case .success(let posts):
                            DispatchQueue.main.async { self.show("\(posts.count) posts") }
                        case .failure(let error):
                            self.show("sign-in failed: \(error)")
                        }
                    }
                case .failure(let error):
                    self.show("sign-in failed: \(error)")
                }
            }
        }
    }

    // A Bool flag answered last: kept as written.
    func verifyFlow(token: String) {
        users.user(token: token) { result in
            switch result {
            case .success(let user):
                self.users.isVerified(user) { verified in
                    if verified { self.show("verified") } else { self.show("not verified") }
                }
            case .failure(let error):
                self.show("no user: \(error)")
            }
        }
    }

    // Each step fails in its own way.
    func likeFirst(of user: User) {
        feed.posts(for: user) { result in
            switch result {
            case .success(let posts):
                self.feed.like(posts[0]) { error in
                    if let error { self.show("like failed: \(error)") } else { self.show("liked") }
                }
            case .failure(let error):
                self.show("no posts: \(error)")
            }
        }
    }

    // Settings, then an update, then a local copy.
    func syncSettings() {
        settingsService.settings { settings, error in
            if let error { self.show("settings failed: \(error)"); return }
            self.settingsService.update(settings!) { error in
                if let error { self.show("settings failed: \(error)"); return }
                self.store.save(Data("feed".utf8), for: "settings") { error in
                    if let error { self.show("settings failed: \(error)") } else { self.show("settings synced") }
                }
            }
        }
    }

    // A Bool flag whose false branch ends the flow.
    func checkCanPost() {
        feed.canPost { allowed in
            guard allowed else {
                self.show("posting disabled")
                return
            }
            self.feed.unreadCount { count in
                self.show("\(count) unread")
            }
        }
    }

    func countItems() {
        store.count { count in
            self.show("\(count) items")
        }
    }

    // An existing promise chain.
    func refreshTrending(token: String) {
        firstly {
            users.refreshToken(token)
        }.then { _ in
            self.feed.trending()
        }.done { posts in
            self.show("\(posts.count) trending")
        }.catch { error in
            self.show("trending failed: \(error)")
        }
    }

    // `(nil, nil)`-style answers the call site gives a meaning: left alone.
    func lookup(_ key: String) {
        store.load(key) { data, error in
            if let error { self.show("\(error)"); return }
            if let data { self.show("\(data.count) bytes") } else { self.show("nothing") }
        }
    }

    // `(false, nil)` means "declined": left alone.
    func confirmChange(_ change: String) {
        settingsService.confirm(change) { confirmed, error in
            if let error { self.show("\(error)"); return }
            self.show(confirmed ? "confirmed" : "declined")
        }
    }

    // A loop around callbacks: left alone.
    func warmUp() {
        for key in keys {
            store.exists(key) { found in
                self.show("\(key): \(found)")
            }
        }
    }

    // `guard let self` inside the callback: left alone.
    func guarded(token: String) {
        users.user(token: token) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let user): self.show(user.name)
            case .failure(let error): self.show("\(error)")
            }
        }
    }

    // `default:` on a Result: left alone.
    func withDefault(token: String) {
        users.user(token: token) { result in
            switch result {
            case .success(let user): self.show(user.name)
            default: self.show("failed")
            }
        }
    }

    // Code after the pyramid: the chain keeps its place, a Task would not (async: left alone).
    func kick() {
        show("kick")
        feed.unreadCount { count in
            self.show("\(count) after kick")
        }
        show("kicked")
    }
}

/// The settings screen's view model: callback pyramids as written before promises.
final class SettingsViewModel: @unchecked Sendable {
    let users: UserService
    let feed: FeedService
    let settingsService: SettingsService
    let store: Store
    private let lock = NSLock()
    private var shown: [String] = []
    var keys: [String] = ["settings-a", "settings-b"]

    init(users: UserService, feed: FeedService, settingsService: SettingsService, store: Store) {
        self.users = users
        self.feed = feed
        self.settingsService = settingsService
        self.store = store
    }

    func show(_ text: String) {
        lock.lock()
        shown.append("Settings: " + text)
        lock.unlock()
    }

    // Sign in, load the user and their posts; one way of failing; render on the main queue.
    func signInFlow(name: String) {
        users.signIn(name: name, password: "secret") { token, error in
            if let error = error { self.show("sign-in failed: \(error)"); return }
            self.show("signed in")
            self.users.user(token: token!) { result in
                switch result {
                case .success(let user):
                    self.feed.posts(for: user) { result in
                        switch result {
                        case .success(let posts):
                            DispatchQueue.main.async { self.show("\(posts.count) posts") }
                        case .failure(let error):
                            self.show("sign-in failed: \(error)")
                        }
                    }
                case .failure(let error):
                    self.show("sign-in failed: \(error)")
                }
            }
        }
    }

    // A Bool flag answered last: kept as written.
    func verifyFlow(token: String) {
        users.user(token: token) { result in
            switch result {
            case .success(let user):
                self.users.isVerified(user) { verified in
                    if verified { self.show("verified") } else { self.show("not verified") }
                }
            case .failure(let error):
                self.show("no user: \(error)")
            }
        }
    }

    // Each step fails in its own way.
    func likeFirst(of user: User) {
        feed.posts(for: user) { result in
            switch result {
            case .success(let posts):
                self.feed.like(posts[0]) { error in
                    if let error { self.show("like failed: \(error)") } else { self.show("liked") }
                }
            case .failure(let error):
                self.show("no posts: \(error)")
            }
        }
    }

    // Settings, then an update, then a local copy.
    func syncSettings() {
        settingsService.settings { settings, error in
            if let error { self.show("settings failed: \(error)"); return }
            self.settingsService.update(settings!) { error in
                if let error { self.show("settings failed: \(error)"); return }
                self.store.save(Data("settings".utf8), for: "settings") { error in
                    if let error { self.show("settings failed: \(error)") } else { self.show("settings synced") }
                }
            }
        }
    }

    // A Bool flag whose false branch ends the flow.
    func checkCanPost() {
        feed.canPost { allowed in
            guard allowed else {
                self.show("posting disabled")
                return
            }
            self.feed.unreadCount { count in
                self.show("\(count) unread")
            }
        }
    }

    func countItems() {
        store.count { count in
            self.show("\(count) items")
        }
    }

    // An existing promise chain.
    func refreshTrending(token: String) {
        firstly {
            users.refreshToken(token)
        }.then { _ in
            self.feed.trending()
        }.done { posts in
            self.show("\(posts.count) trending")
        }.catch { error in
            self.show("trending failed: \(error)")
        }
    }

    // `(nil, nil)`-style answers the call site gives a meaning: left alone.
    func lookup(_ key: String) {
        store.load(key) { data, error in
            if let error { self.show("\(error)"); return }
            if let data { self.show("\(data.count) bytes") } else { self.show("nothing") }
        }
    }

    // `(false, nil)` means "declined": left alone.
    func confirmChange(_ change: String) {
        settingsService.confirm(change) { confirmed, error in
            if let error { self.show("\(error)"); return }
            self.show(confirmed ? "confirmed" : "declined")
        }
    }

    // A loop around callbacks: left alone.
    func warmUp() {
        for key in keys {
            store.exists(key) { found in
                self.show("\(key): \(found)")
            }
        }
    }

    // `guard let self` inside the callback: left alone.
    func guarded(token: String) {
        users.user(token: token) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let user): self.show(user.name)
            case .failure(let error): self.show("\(error)")
            }
        }
    }

    // `default:` on a Result: left alone.
    func withDefault(token: String) {
        users.user(token: token) { result in
            switch result {
            case .success(let user): self.show(user.name)
            default: self.show("failed")
            }
        }
    }

    // Code after the pyramid: the chain keeps its place, a Task would not (async: left alone).
    func kick() {
        show("kick")
        feed.unreadCount { count in
            self.show("\(count) after kick")
        }
        show("kicked")
    }
}
