import Foundation

/// Signs the user in: credentials, then the profile, then this device for push notifications.
@MainActor
final class LoginViewModel {
    enum State: Equatable {
        case idle
        case signingIn
        case failed(String)
        case signedIn(User)
    }

    private let auth: AuthService
    private let users: UserService
    private let push: PushService
    private let sessions: SessionStore

    var onChange: ((State) -> Void)?
    private(set) var state: State = .idle {
        didSet { onChange?(state) }
    }

    init(auth: AuthService = .shared, users: UserService = .shared, push: PushService = .shared, sessions: SessionStore = .shared) {
        self.auth = auth
        self.users = users
        self.push = push
        self.sessions = sessions
    }

    func signIn(email: String, password: String) {
        guard !email.isEmpty, !password.isEmpty else {
            state = .failed("Enter your email and password.")
            return
        }
        state = .signingIn
        let users = self.users
        let push = self.push
        let sessions = self.sessions
        auth.login(email: email, password: password) { result in
            switch result {
            case .failure(let error):
                DispatchQueue.main.async { [weak self] in self?.state = .failed(describe(error)) }
            case .success(let session):
                sessions.set(session)
                users.fetchMe { user, error in
                    if let error = error {
                        DispatchQueue.main.async { [weak self] in self?.state = .failed(describe(error)) }
                        return
                    }
                    guard let user = user else {
                        DispatchQueue.main.async { [weak self] in self?.state = .failed("Your profile could not be found.") }
                        return
                    }
                    push.registerDevice { error in
                        // Signing in works without push notifications; the settings screen retries.
                        if error != nil {
                            KeyValueStore.standard.set("retry", forKey: "deviceRegistration")
                        }
                        DispatchQueue.main.async { [weak self] in
                            self?.state = .signedIn(user)
                        }
                    }
                }
            }
        }
    }

    #if DEBUG
    func signInAsDemoUser() {
        state = .signingIn
        auth.loginAsDemoUser { result in
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                switch result {
                case .success(let session):
                    self.sessions.set(session)
                    self.state = .signedIn(User(id: session.userID, handle: "demo", displayName: "Demo", hikesCompleted: 0, avatarURL: nil))
                case .failure(let error):
                    self.state = .failed(describe(error))
                }
            }
        }
    }
    #endif
}
