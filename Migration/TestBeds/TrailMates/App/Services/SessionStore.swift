import Foundation

protocol SessionStoreDelegate: AnyObject {
    func sessionStore(_ store: SessionStore, didRestore session: Session)
    func sessionStoreDidLoseSession(_ store: SessionStore)
}

/// The session the app runs with. A usable session in memory is handed back at once (on the
/// caller's queue); otherwise it is refreshed from the server first.
final class SessionStore: @unchecked Sendable {
    static let shared = SessionStore(auth: .shared)

    private let auth: AuthService
    private let lock = NSLock()
    private var session: Session?
    weak var delegate: SessionStoreDelegate?

    init(auth: AuthService) {
        self.auth = auth
    }

    func set(_ session: Session?) {
        lock.lock(); self.session = session; lock.unlock()
    }

    var current: Session? {
        lock.lock(); defer { lock.unlock() }
        return session
    }

    /// `(nil, nil)` means nobody is signed in.
    func currentSession(completion: @escaping @Sendable (Session?, Error?) -> Void) {
        if let session = current, session.isUsable {
            completion(session, nil)
            return
        }
        auth.refreshSession { [weak self] session, error in
            guard let self else { return }
            if let session {
                self.set(session)
                self.delegate?.sessionStore(self, didRestore: session)
            } else if error != nil {
                self.set(nil)
                self.delegate?.sessionStoreDidLoseSession(self)
            }
            completion(session, error)
        }
    }
}
