import Foundation

/// Decides what the app shows: sign-in without a session, the trails with one; back to sign-in
/// when the session expires.
@MainActor
final class AppCoordinator: SessionStoreDelegate {
    let window: ViewController
    private(set) var navigation: NavigationController?
    private var children: [AnyObject] = []
    private let sessions: SessionStore
    private let status = Label(name: "app.status")

    init(window: ViewController, sessions: SessionStore = .shared) {
        self.window = window
        self.sessions = sessions
        sessions.delegate = self
        APIClient.shared.onSessionExpired = {
            NotificationHub.default.post(name: .sessionDidExpire)
        }
        NotificationHub.default.addObserver(forName: .sessionDidExpire) { [weak self] _ in
            guard let self else { return }
            DispatchQueue.main.async { self.sessionExpired() }
        }
    }

    /// Restores the session if there is one (at once when it is in memory), then shows the
    /// screen that fits.
    func start() {
        status.text = "starting"
        sessions.currentSession { session, error in
            if let error = error {
                DispatchQueue.main.async { [weak self] in self?.showLogin(reason: describe(error)) }
                return
            }
            guard let session = session else {
                DispatchQueue.main.async { [weak self] in self?.showLogin(reason: nil) }
                return
            }
            UserService.shared.fetchMe { user, error in
                DispatchQueue.main.async { [weak self] in
                    guard let self else { return }
                    if let user {
                        self.showTrails(for: user, sessionUser: session.userID)
                    } else {
                        self.showLogin(reason: error.map(describe))
                    }
                }
            }
        }
    }

    nonisolated func sessionStore(_ store: SessionStore, didRestore session: Session) {
        APIClient.shared.use(token: session.token)
    }

    nonisolated func sessionStoreDidLoseSession(_ store: SessionStore) {
        APIClient.shared.use(token: nil)
    }

    func showLogin(reason: String?) {
        status.text = reason.map { "sign in: \($0)" } ?? "sign in"
        let login = LoginViewController()
        login.onSignedIn = { [weak self, weak login] user in
            login?.dismiss(animated: true) {
                self?.showTrails(for: user, sessionUser: user.id)
            }
        }
        window.present(login, animated: true)
    }

    func showTrails(for user: User, sessionUser: Int) {
        status.text = "signed in as @\(user.handle)"
        let trails = TrailListViewController()
        let navigation = NavigationController(root: trails)
        self.navigation = navigation
        trails.onSelectTrail = { [weak self] trailID in
            self?.showTrail(trailID)
        }
    }

    func showTrail(_ trailID: Int) {
        guard let navigation else { return }
        let coordinator = HikeCoordinator(navigation: navigation, trailID: trailID)
        children.append(coordinator)
        coordinator.onFinish = { [weak self, weak coordinator] in
            self?.children.removeAll { $0 === coordinator }
        }
        coordinator.start()
    }

    private func sessionExpired() {
        // Any request may say so; the first one takes the user back to sign-in.
        guard navigation != nil else { return }
        navigation = nil
        children = []
        AuthService.shared.refreshSession { session, error in
            DispatchQueue.main.async { [weak self] in
                if session == nil {
                    self?.showLogin(reason: describe(error ?? AuthError.sessionExpired))
                } else {
                    self?.status.text = "session renewed"
                }
            }
        }
    }
}
