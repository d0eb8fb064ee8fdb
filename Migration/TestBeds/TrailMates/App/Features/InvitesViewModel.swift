import Foundation

/// The invitations inbox: answering one, or declining them all.
@MainActor
final class InvitesViewModel {
    private let service: InviteService
    private(set) var invites: [Invite] = []
    var onChange: (([Invite]) -> Void)?
    var onMessage: ((String) -> Void)?
    var onJoinedHike: ((Hike) -> Void)?

    init(service: InviteService = .shared) {
        self.service = service
    }

    func load() {
        service.pendingInvites { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let invites):
                DispatchQueue.main.async {
                    self.invites = invites
                    self.onChange?(invites)
                }
            case .failure(let error):
                DispatchQueue.main.async { self.onMessage?(describe(error)) }
            }
        }
    }

    /// Accepting opens the hike; an invitation that expired meanwhile just goes away.
    func accept(_ invite: Invite) {
        service.answer(invite, accept: true) { hike, error in
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                if let error {
                    self.onMessage?("Could not accept: \(describe(error))")
                    return
                }
                self.invites.removeAll { $0.id == invite.id }
                self.onChange?(self.invites)
                guard let hike else {
                    self.onMessage?("@\(invite.fromHandle)'s invitation expired")
                    return
                }
                self.onJoinedHike?(hike)
            }
        }
    }

    /// Declines every invitation, one after the other (the server rate-limits answers); stops
    /// at the first failure.
    func declineAll() {
        decline(invites, from: 0)
    }

    private func decline(_ invites: [Invite], from index: Int) {
        guard index < invites.count else {
            self.invites = []
            onChange?([])
            onMessage?("Declined \(invites.count) invitations")
            return
        }
        service.answer(invites[index], accept: false) { _, error in
            DispatchQueue.main.async {
                if let error {
                    self.onMessage?("Declined \(index) of \(invites.count): \(describe(error))")
                    return
                }
                self.decline(invites, from: index + 1)
            }
        }
    }
}
