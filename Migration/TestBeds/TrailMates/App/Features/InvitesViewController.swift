import Foundation

/// The invitations inbox screen: tap one to accept or decline it, or decline them all.
@MainActor
final class InvitesViewController: ViewController {
    let list = TableView(name: "invites")
    let message = Label(name: "invites.message")
    let declineAllButton = Button(title: "Decline All")
    private let viewModel: InvitesViewModel
    var onJoinedHike: ((Hike) -> Void)?

    init(viewModel: InvitesViewModel? = nil) {
        self.viewModel = viewModel ?? InvitesViewModel()
        super.init(title: "Invitations")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        viewModel.onChange = { [weak self] invites in
            self?.list.reload(invites.map { "@\($0.fromHandle) → hike \($0.hikeID)" })
        }
        viewModel.onMessage = { [weak self] text in
            self?.message.text = text
        }
        viewModel.onJoinedHike = { [weak self] hike in
            self?.message.text = "Joined hike \(hike.id)"
            self?.onJoinedHike?(hike)
        }
        declineAllButton.addAction { [weak self] in
            self?.confirmDeclineAll()
        }
        viewModel.load()
    }

    func select(row: Int) {
        guard row < viewModel.invites.count else { return }
        let invite = viewModel.invites[row]
        let alert = UIAlertController(title: "@\(invite.fromHandle) invited you", message: "Join hike \(invite.hikeID)?")
        alert.addAction(UIAlertAction(title: "Not Now", style: .cancel))
        alert.addAction(UIAlertAction(title: "Join", style: .default) { [weak self] _ in
            self?.viewModel.accept(invite)
        })
        present(alert, animated: true)
    }

    private func confirmDeclineAll() {
        let alert = UIAlertController(title: "Decline all?", message: nil)
        alert.addAction(UIAlertAction(title: "Cancel", style: .cancel))
        alert.addAction(UIAlertAction(title: "Decline All", style: .destructive) { [weak self] _ in
            self?.viewModel.declineAll()
        })
        present(alert, animated: true)
    }
}
