/// Holds a token registration made for some work until that work ends, then unregisters it, so a
/// long-lived token does not keep a handler (and what it captures) for every finished task.
///
/// The work may end before the registration is handed over (the task finished first); the slot
/// then unregisters it as soon as it arrives. Registrations are disposed outside the lock.
final class TokenRegistrationSlot: Sendable {
    private enum Phase: Sendable {
        case empty
        case holding(CancellationTokenRegistration)
        case released
    }

    private let token: CancellationToken
    private let phase = LockedState(Phase.empty)

    init(token: CancellationToken) {
        self.token = token
    }

    /// Keeps `registration` until ``release()``, or disposes of it now if that already happened.
    func hold(_ registration: CancellationTokenRegistration) {
        let alreadyReleased: Bool = phase.withLock { phase in
            guard case .empty = phase else { return true }
            phase = .holding(registration)
            return false
        }
        if alreadyReleased {
            dispose(registration)
        }
    }

    /// The work has ended: unregisters the handler (now, or when ``hold(_:)`` hands it over).
    func release() {
        let registration: CancellationTokenRegistration? = phase.withLock { phase in
            defer { phase = .released }
            guard case .holding(let registration) = phase else { return nil }
            return registration
        }
        if let registration {
            dispose(registration)
        }
    }

    private func dispose(_ registration: CancellationTokenRegistration) {
        // Once cancellation has begun the handler has run or is running; disposing would only wait
        // for it (it finds the work already over), so skip the wait.
        guard !token.isCancellationRequested else { return }
        registration.dispose()
    }
}
