import Dispatch
import Foundation
import Vow

/// The first screens after install: sign in, check the account, pick up preferences and a
/// saved draft, then hand over to the home screen.
final class OnboardingViewModel: @unchecked Sendable {
    enum Step: Sendable {
        case welcome
        case signIn(name: String)
        case done
    }

    let users: UserService
    let settingsService: SettingsService
    let feed: FeedService
    let store: Store
    private let lock = NSLock()
    private var token: String?

    init(users: UserService, settingsService: SettingsService, feed: FeedService, store: Store) {
        self.users = users
        self.settingsService = settingsService
        self.feed = feed
        self.store = store
    }

    func log(_ text: String) {
        EffectTrace.shared.record("Onboarding: \(text)", final: false)
    }

    func show(_ text: String) {
        EffectTrace.shared.record("Onboarding: \(text)", final: true)
    }

    func remember(token: String) {
        lock.lock()
        self.token = token
        lock.unlock()
    }

    // Sign in, read the account, make sure it is verified, load its settings, and greet on the
    // main queue with values from three different steps.
    func signIn(name: String, password: String) {
        log("signing in \(name)")
        users.signIn(name: name, password: password) { token, error in
            if let error {
                self.show("welcome failed: \(error)")
                return
            }
            self.remember(token: token!)
            self.users.user(token: token!) { result in
                switch result {
                case .success(let user):
                    self.users.isVerified(user) { verified in
                        if verified {
                            self.settingsService.settings(for: user) { settings, error in
                                if let error {
                                    self.show("welcome failed: \(error)")
                                    return
                                }
                                DispatchQueue.main.async {
                                    self.show("welcome \(user.name) (\(token!)), theme \(settings!.theme)")
                                }
                            }
                        } else {
                            self.show("check your inbox, \(user.name)")
                        }
                    }
                case .failure(let error):
                    self.show("welcome failed: \(error)")
                }
            }
        }
    }

    // Where the flow goes depends on the step: each case holds its own call site.
    func advance(from step: Step) {
        switch step {
        case .welcome:
            feed.unreadCount { count in
                self.show("\(count) things are waiting")
            }
        case .signIn(let name):
            users.signIn(name: name, password: "") { [unowned self] token, error in
                if let error { self.show("try again: \(error)"); return }
                self.show("hello \(token!)")
            }
        case .done:
            show("all set")
        }
    }

    // A pyramid inside a `do` block of the function.
    func pickUpDraft() {
        do {
            store.load("draft") { data, error in
                if let error { self.show("no draft: \(error)"); return }
                self.store.save(data!, for: "draft-copy") { error in
                    if let error { self.show("no copy: \(error)"); return }
                    self.store.count { count in
                        self.show("draft copied, \(count) stored")
                    }
                }
            }
        }
    }

    // Sign out and sign in again as someone else; the first token is read at the end.
    func switchAccount(to name: String, from oldToken: String) {
        users.signOut { error in
            if let error {
                self.show("still signed in: \(error)")
            } else {
                self.users.signIn(name: name, password: "") { newToken, error in
                    if let error {
                        self.show("signed out, but not in again: \(error)")
                        return
                    }
                    self.show("\(oldToken) is now \(newToken!)")
                }
            }
        }
    }

    // Notifications first; without them, the flow ends here with its own message.
    func askForNotifications() {
        settingsService.notificationsAllowed { allowed in
            if !allowed {
                self.show("you can allow notifications later")
                return
            }
            self.settingsService.update(Settings(notifications: true, theme: "light")) { error in
                if let error {
                    self.show("notifications stay off: \(error)")
                } else {
                    self.show("notifications on")
                }
            }
        }
    }

    // An existing promise chain, started from the initial token.
    func warmUp(token: String) {
        firstly {
            users.refreshToken(token)
        }.get { fresh in
            self.remember(token: fresh)
        }.then { fresh in
            self.feed.trending()
        }.done { posts in
            self.show("\(posts.count) trending to start with")
        }.catch { error in
            self.show("warm-up failed: \(error)")
        }
    }

    // The draft exists or not: a Bool with no failure of its own, kept as written at the end.
    func checkDraft() {
        store.exists("draft") { found in
            if found {
                self.show("you have a draft")
            } else {
                self.show("no draft yet")
            }
        }
    }

    // Two callbacks started one after the other, not nested: the second is before other code.
    func prefetchAll() {
        feed.unreadCount { count in
            self.log("\(count) unread")
        }
        store.count { count in
            self.show("\(count) stored")
        }
    }
}
