import Dispatch
import Foundation
import Vow

/// The settings screen: who is signed in, their preferences, notifications, backups.
final class SettingsViewModel: @unchecked Sendable {
    let users: UserService
    let settingsService: SettingsService
    let store: Store
    let currentUser = User(id: 7, name: "ada")
    private let lock = NSLock()
    private var theme = "light"

    init(users: UserService, settingsService: SettingsService, store: Store) {
        self.users = users
        self.settingsService = settingsService
        self.store = store
    }

    /// Something the screen notes on the way (not the end of a flow).
    func log(_ text: String) {
        EffectTrace.shared.record("Settings: \(text)", final: false)
    }

    /// What the screen ends a flow with: a message, a rendered state or an alert.
    func show(_ text: String) {
        EffectTrace.shared.record("Settings: \(text)", final: true)
    }

    func render(_ user: User, _ settings: Settings) {
        lock.lock()
        theme = settings.theme
        lock.unlock()
        show("\(user.name): \(settings.theme), notifications \(settings.notifications ? "on" : "off")")
    }

    // Who is signed in, then their settings, rendered on the main queue with both values.
    func open(token: String) {
        users.user(token: token) { result in
            switch result {
            case .success(let user):
                self.log("user \(user.name)")
                self.settingsService.settings(for: user) { settings, error in
                    if let error {
                        self.show("settings unavailable: \(error)")
                        return
                    }
                    DispatchQueue.main.async {
                        self.render(user, settings!)
                    }
                }
            case .failure(let error):
                self.show("settings unavailable: \(error)")
            }
        }
    }

    // Permission first: a `false` answer ends the flow with its own message.
    func toggleNotifications() {
        settingsService.notificationsAllowed { allowed in
            if allowed {
                self.settingsService.settings(for: self.currentUser) { settings, error in
                    if let error { self.show("could not load settings: \(error)"); return }
                    let changed = Settings(notifications: !settings!.notifications, theme: settings!.theme)
                    self.settingsService.update(changed) { error in
                        if let error {
                            self.show("could not save settings: \(error)")
                        } else {
                            self.show("notifications \(changed.notifications ? "on" : "off")")
                        }
                    }
                }
            } else {
                self.show("notifications are blocked")
            }
        }
    }

    // Each step fails in its own words.
    func saveTheme(_ name: String) {
        log("saving theme \(name)")
        settingsService.settings(for: currentUser) { settings, error in
            if let error { self.show("no settings to change: \(error)"); return }
            let updated = Settings(notifications: settings!.notifications, theme: name)
            self.settingsService.update(updated) { error in
                if let error { self.show("the server kept the old theme: \(error)"); return }
                self.store.save(Data(name.utf8), for: "theme") { error in
                    if let error {
                        self.show("saved, but not on this device: \(error)")
                    } else {
                        self.show("theme \(updated.theme) everywhere")
                    }
                }
            }
        }
    }

    // Sign out, then say so on the main queue.
    func signOut() {
        users.signOut { [weak self] error in
            if let error = error {
                self?.show("still signed in: \(error)")
                return
            }
            DispatchQueue.main.async { [weak self] in
                self?.show("signed out")
            }
        }
    }

    // `(false, nil)` means "the user said no": left alone.
    func confirmReset() {
        settingsService.confirm("reset") { confirmed, error in
            if let error { self.show("could not ask: \(error)"); return }
            self.show(confirmed ? "reset" : "kept")
        }
    }

    // One callback per key: a loop around callbacks, left alone.
    func backUp() {
        for key in ["theme", "notifications"] {
            store.exists(key) { found in
                self.show("\(key) \(found ? "backed up" : "missing")")
            }
        }
    }

    // `nil` data is "never saved", not a failure: left alone.
    func restoreTheme() {
        store.load("theme") { data, error in
            if let error { self.show("restore failed: \(error)"); return }
            if let data {
                self.show("restored \(String(decoding: data, as: UTF8.self))")
            } else {
                self.show("nothing to restore")
            }
        }
    }

    // `guard let self` inside the callback: left alone.
    func reloadTheme() {
        settingsService.settings(for: currentUser) { [weak self] settings, error in
            guard let self else { return }
            if let error { self.show("\(error)"); return }
            self.show("theme \(settings!.theme)")
        }
    }

    // An existing promise chain: the token is refreshed, then the user is read again.
    func refreshSession(token: String) {
        firstly {
            users.refreshToken(token)
        }.done { fresh in
            self.show("session \(fresh)")
        }.catch { error in
            self.show("session expired: \(error)")
        }
    }

    // Logged before and after: the chain keeps the order, a Task would not (async: left alone).
    func syncBadge() {
        log("badge sync started")
        store.count { count in
            self.show("\(count) settings stored")
        }
        log("badge sync requested")
    }

    // A verified account may change its e-mail settings; three levels, one message for failures.
    func verifyThenLoad(token: String) {
        users.user(token: token) { result in
            switch result {
            case .failure(let error):
                self.show("cannot verify: \(error)")
            case .success(let user):
                self.users.isVerified(user) { verified in
                    guard verified else {
                        self.show("verify your e-mail first")
                        return
                    }
                    self.settingsService.settings(for: user) { settings, error in
                        if let error { self.show("cannot verify: \(error)"); return }
                        self.show("\(user.name) may change \(settings!.theme)")
                    }
                }
            }
        }
    }
}
